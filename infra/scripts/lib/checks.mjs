// The static checks of `npm test`: eslint and tsc (swc, which jest runs the TypeScript with, strips types unchecked).
import path from 'node:path';
import { createRequire } from 'node:module';
import { ROOT } from './paths.mjs';
import { run } from './proc.mjs';

const ESLINT_BIN = path.join(path.dirname(createRequire(import.meta.url).resolve('eslint/package.json')), 'bin', 'eslint.js');

/**
 * Runs `eslint` and `npm run typecheck` (over one workspace, or the whole repository), each printing its own
 * errors; resolves with the names of those that failed.
 */
export async function runChecks({ workspace } = {}) {
  const failed = [];
  const lint = await run(process.execPath, [ESLINT_BIN, workspace ?? '.'], { cwd: ROOT });
  console.log(`[checks] eslint ${workspace ?? '.'}: ${lint === 0 ? 'ok' : 'errors'}`);
  if (lint !== 0) failed.push('lint (eslint)');
  const types = await run(process.execPath, [path.join(ROOT, 'infra/scripts/typecheck.mjs'), ...(workspace ? [workspace] : [])], { cwd: ROOT });
  if (types !== 0) failed.push('typecheck (tsc)');
  return failed;
}
