// The static checks of `npm test`: eslint and tsc (swc, which jest runs the TypeScript with, strips types unchecked).
import path from 'node:path';
import { createRequire } from 'node:module';
import { ROOT } from './paths.mjs';
import { run } from './proc.mjs';

const ESLINT_BIN = path.join(path.dirname(createRequire(import.meta.url).resolve('eslint/package.json')), 'bin', 'eslint.js');

/**
 * Runs `eslint` and `npm run typecheck` side by side (over one workspace, or the whole repository), each printing its own
 * errors; resolves with the names of those that failed.
 */
export async function runChecks({ workspace } = {}) {
  // Both at once: eslint is one thread, so alone it leaves the other core idle (about 26 s of CPU over the whole
  // repository); typecheck.mjs's tsc processes take it. eslint prints its report when it ends, typecheck.mjs each
  // workspace's errors together, so the two outputs do not interleave line by line.
  const [lint, types] = await Promise.all([
    run(process.execPath, [ESLINT_BIN, workspace ?? '.'], { cwd: ROOT }).then((code) => {
      console.log(`[checks] eslint ${workspace ?? '.'}: ${code === 0 ? 'ok' : 'errors'}`);
      return code;
    }),
    run(process.execPath, [path.join(ROOT, 'infra/scripts/typecheck.mjs'), ...(workspace ? [workspace] : [])], { cwd: ROOT }),
  ]);
  const failed = [];
  if (lint !== 0) failed.push('lint (eslint)');
  if (types !== 0) failed.push('typecheck (tsc)');
  return failed;
}
