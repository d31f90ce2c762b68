// Building the shell and the two remotes: only when a build is missing or older than what it is built from.
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.mjs';
import { run, startProcess } from './proc.mjs';

export const FRONTENDS = ['mfe-email', 'mfe-sms', 'shell'];
// What a frontend bundle is made of besides its own folder: the shared UI kit, contracts and the lockfile.
const SHARED_SOURCES = ['packages/ui-kit/src', 'packages/contracts/src', 'packages/mf-config/src', 'infra/rspack', 'package-lock.json'];
const RSPACK_BIN = path.join(ROOT, 'node_modules/.bin/rspack');

export function hasRspackConfig(ws) {
  const dir = path.join(ROOT, ws);
  return existsSync(dir) && readdirSync(dir).some((file) => /^rspack\.config\.(c|m)?(j|t)s$/.test(file));
}

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'sourcemaps') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/**
 * Stale when dist is missing or older than any source. dist's own mtime is the build stamp (set after each
 * successful build), because rspack skips writing unchanged files and so dist's files may keep old times.
 */
export function isStale(ws) {
  const dist = path.join(ROOT, ws, 'dist');
  if (!existsSync(dist)) return true;
  const sources = [path.join(ROOT, ws), ...SHARED_SOURCES.map((p) => path.join(ROOT, p))];
  return Math.max(...sources.map(newestMtime)) > statSync(dist).mtimeMs;
}

/**
 * Builds the given frontends that have an rspack config and are stale (all of them with force).
 * @returns {Promise<{ built: string[], skipped: string[], ok: boolean }>} skipped: no rspack config yet
 */
export async function buildFrontends({ only = FRONTENDS, force = false } = {}) {
  const skipped = only.filter((ws) => !hasRspackConfig(ws));
  const todo = only.filter((ws) => !skipped.includes(ws) && (force || isStale(ws)));
  if (skipped.length) console.log(`[build] no rspack config yet in ${skipped.join(', ')}: not built`);
  if (!todo.length) return { built: [], skipped, ok: true };
  console.log(`[build] building ${todo.join(', ')}`);
  const code = await run('npm', ['run', 'build', ...todo.flatMap((ws) => ['-w', ws])], { cwd: ROOT });
  if (code !== 0) return { built: [], skipped, ok: false };
  const now = new Date();
  for (const ws of todo) utimesSync(path.join(ROOT, ws, 'dist'), now, now);
  return { built: todo, skipped, ok: true };
}

/** `rspack build --watch` per frontend for `npm run dev`; returns process handles to stop. */
export function watchFrontends() {
  return FRONTENDS.filter(hasRspackConfig).map((ws) =>
    startProcess(`build:${ws}`, RSPACK_BIN, ['build', '--watch'], { cwd: path.join(ROOT, ws) }),
  );
}
