// `npm run typecheck`: tsc over every workspace's own tsconfig.json (each extends tsconfig.base.json with noEmit;
// there is no root project to build), one after the other, and a non-zero exit if any has an error.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { ROOT, workspaces } from './lib/paths.mjs';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const failed = [];
for (const ws of workspaces()) {
  if (!existsSync(path.join(ROOT, ws, 'tsconfig.json'))) continue;
  const started = Date.now();
  const { status } = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, ws)], { stdio: 'inherit' });
  console.log(`[typecheck] ${ws}: ${status === 0 ? 'ok' : 'errors'} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (status !== 0) failed.push(ws);
}
if (failed.length) {
  console.error(`[typecheck] type errors in ${failed.join(', ')}`);
  process.exit(1);
}
