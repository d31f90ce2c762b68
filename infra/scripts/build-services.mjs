#!/usr/bin/env node
// Compiles the gateway and each service to one plain JavaScript file, `<workspace>/dist/index.js` (+ source map),
// for production: images and `NODE_ENV=production` starts run `node dist/index.js`, with no TypeScript tooling.
// Our own TypeScript (the workspace and the @act/* packages it uses) is bundled; npm packages stay external and
// are loaded from node_modules as installed by `npm ci --omit=dev`.
//   node infra/scripts/build-services.mjs [gateway svc-auth svc-email svc-sms]   (default: all four)
import { build } from 'esbuild';
import { statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/paths.mjs';

export const BACKENDS = ['gateway', 'svc-auth', 'svc-email', 'svc-sms'];

/** Bare imports outside our @act/* workspaces are left to node_modules. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@act/') ? undefined : { path: args.path, external: true }));
  },
};

export async function buildBackend(ws) {
  const started = Date.now();
  const outfile = path.join(ROOT, ws, 'dist', 'index.js');
  const result = await build({
    entryPoints: [path.join(ROOT, ws, 'src', 'index.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'linked',
    // Names stay readable in stack traces and logs (class names appear in errors).
    keepNames: true,
    logLevel: 'warning',
    plugins: [externalPackages],
    tsconfig: path.join(ROOT, ws, 'tsconfig.json'),
  });
  if (result.errors.length) throw new Error(`${ws}: build failed`);
  const kb = Math.round(statSync(outfile).size / 1024);
  console.log(`[build] ${ws}/dist/index.js ${kb} KiB in ${Date.now() - started} ms`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !BACKENDS.includes(w));
  if (unknown.length) {
    console.error(`build-services: unknown ${unknown.join(', ')}; one of ${BACKENDS.join(', ')}`);
    process.exit(2);
  }
  try {
    for (const ws of wanted.length ? wanted : BACKENDS) await buildBackend(ws);
  } catch (err) {
    console.error(`[build] ${err.message}`);
    process.exit(1);
  }
}
