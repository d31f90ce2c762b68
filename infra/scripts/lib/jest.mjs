// Running one jest phase and reading its totals from jest's JSON result (the console report stays as is).
import { existsSync, readFileSync, readdirSync, rmSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT, RUN_DIR } from './paths.mjs';
import { run } from './proc.mjs';

const JEST_BIN = createRequire(import.meta.url).resolve('jest/bin/jest');

/** True when one of the workspaces has a file ending in `suffix` under its `e2e/` folder. */
export function hasBrowserTests(workspaces, suffix) {
  const walk = (dir) =>
    existsSync(dir) &&
    readdirSync(dir, { withFileTypes: true }).some((d) =>
      d.isDirectory() ? d.name !== 'node_modules' && walk(path.join(dir, d.name)) : d.name.endsWith(suffix),
    );
  return workspaces.some((ws) => walk(path.join(ROOT, ws, 'e2e')));
}

/**
 * @param {{ phase: 'unit'|'e2e'|'faults', workspace?: string, env: Record<string,string>, args?: string[] }} options
 * @returns {Promise<{ passed: number, failed: number, skipped: number, code: number }>} failed counts failed tests plus test
 *   files that could not run at all (syntax error, failing beforeAll...), or 1 when jest produced no result.
 */
export async function runJest({ phase, workspace, env, args = [] }) {
  mkdirSync(RUN_DIR, { recursive: true });
  const outputFile = path.join(RUN_DIR, `jest-${phase}-${process.pid}.json`);
  rmSync(outputFile, { force: true });
  const code = await run(
    process.execPath,
    [JEST_BIN, '--config', path.join(ROOT, 'jest.config.js'), '--json', '--outputFile', outputFile, ...args],
    { cwd: ROOT, env: { ...env, ACT_TEST_PHASE: phase, ACT_TEST_WORKSPACE: workspace ?? '' } },
  );
  if (!existsSync(outputFile)) return { passed: 0, failed: 1, skipped: 0, code: code || 1 };
  const result = JSON.parse(readFileSync(outputFile, 'utf8'));
  rmSync(outputFile, { force: true });
  return {
    passed: result.numPassedTests,
    // it.skip / it.todo: counted so a test switched off shows in the summary instead of vanishing from it.
    skipped: (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0),
    failed: result.numFailedTests + result.numRuntimeErrorTestSuites,
    code,
  };
}
