// Running one jest phase and reading its totals from jest's JSON result (the console report stays as is), within a
// time limit: a phase that hangs (a handle left open, a stuck globalSetup) is dumped, killed and reported by name.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT, RUN_DIR } from './paths.mjs';
import { killGroup } from './proc.mjs';

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

/** Each phase's time limit in minutes, `TEST_TIMEOUT_<PHASE>_MIN` overriding. */
// Well above what a quiet 2-core machine takes (unit about 10 min, e2e about 17), so a loaded one passes: a hang
// detector, not a budget.
const DEFAULT_LIMIT_MIN = { unit: 20, e2e: 30, faults: 20, replicas: 10 };
export function phaseLimitMs(phase, env = process.env) {
  const set = Number(env[`TEST_TIMEOUT_${phase.toUpperCase()}_MIN`]);
  return (Number.isFinite(set) && set > 0 ? set : DEFAULT_LIMIT_MIN[phase] ?? 15) * 60_000;
}

/**
 * What a hung jest is waiting for, printed before it is killed: the processes of its group (a service or stack a
 * test started and never stopped) and, from a Node diagnostic report of jest's main process (SIGUSR2 with
 * --report-on-signal, written to `reportFile`), the handles that keep its event loop alive (sockets with their
 * endpoints, timers, child processes). --detectOpenHandles would say it too, but slows every test file; this costs
 * nothing until a hang.
 */
async function dumpHung(pid, reportFile) {
  const ps = execFileSync('ps', ['-eo', 'pid,pgid,etime,args'], { encoding: 'utf8' });
  const group = ps.split('\n').filter((line) => line.trim().split(/\s+/)[1] === String(pid));
  console.log(`[test] processes of the hung jest (pid, group, elapsed, command):\n${group.map((l) => `  ${l.trim().slice(0, 240)}`).join('\n')}`);
  try {
    process.kill(pid, 'SIGUSR2');
  } catch {
    return;
  }
  // The report is written from jest's own thread: read it once it parses whole.
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 250));
    let report;
    try {
      report = JSON.parse(readFileSync(reportFile, 'utf8'));
    } catch {
      continue;
    }
    const held = (report.libuv ?? []).filter((h) => h.type !== 'loop' && h.is_active && h.is_referenced !== false);
    console.log(`[test] handles keeping jest's main process alive (full report: ${path.relative(ROOT, reportFile)}):`);
    for (const h of held) {
      const where = [h.localEndpoint && `local ${h.localEndpoint.host}:${h.localEndpoint.port}`, h.remoteEndpoint && `remote ${h.remoteEndpoint.host}:${h.remoteEndpoint.port}`, h.pid && `pid ${h.pid}`, h.firesInMsFromNow !== undefined && `fires in ${h.firesInMsFromNow} ms`]
        .filter(Boolean)
        .join(', ');
      console.log(`  ${h.type}${where ? ` (${where})` : ''}`);
    }
    return;
  }
  console.log(`[test] jest wrote no readable diagnostic report (${path.relative(ROOT, reportFile)})`);
}

/**
 * @param {{ phase: 'unit'|'e2e'|'faults'|'replicas', workspace?: string, env: Record<string,string>, args?: string[], limitMs?: number }} options
 * @returns {Promise<{ passed: number, failed: number, skipped: number, code: number, files: string[], timedOut: boolean }>}
 *   failed counts failed tests plus test files that could not run at all (syntax error, failing beforeAll...), or 1
 *   when jest produced no result; files are the test files jest ran (absolute paths).
 */
export async function runJest({ phase, workspace, env, args = [], limitMs = phaseLimitMs(phase, env) }) {
  mkdirSync(RUN_DIR, { recursive: true });
  const outputFile = path.join(RUN_DIR, `jest-${phase}-${process.pid}.json`);
  const reportFile = path.join(RUN_DIR, `jest-${phase}-${process.pid}.report.json`);
  rmSync(outputFile, { force: true });
  rmSync(reportFile, { force: true });
  // No --forceExit: a test that leaves a handle open keeps jest alive and says so ("Jest did not exit one second
  // after the test run has completed"); the time limit then ends it with the dump above.
  const child = spawn(
    process.execPath,
    ['--report-on-signal', '--report-signal=SIGUSR2', `--report-directory=${RUN_DIR}`, `--report-filename=${path.basename(reportFile)}`, JEST_BIN, '--config', path.join(ROOT, 'jest.config.js'), '--json', '--outputFile', outputFile, ...args],
    { cwd: ROOT, env: { ...env, ACT_TEST_PHASE: phase, ACT_TEST_WORKSPACE: workspace ?? '' }, stdio: 'inherit', detached: true },
  );
  const killOnExit = () => killGroup(child.pid, 'SIGKILL');
  process.on('exit', killOnExit);
  let timedOut = false;
  const timer = setTimeout(async () => {
    timedOut = true;
    console.log(`\n[test] ${phase}: still running after its limit of ${limitMs / 60_000} min (TEST_TIMEOUT_${phase.toUpperCase()}_MIN): killing jest`);
    await dumpHung(child.pid, reportFile);
    killGroup(child.pid, 'SIGTERM');
    setTimeout(() => killGroup(child.pid, 'SIGKILL'), 5_000).unref();
  }, limitMs);
  const code = await new Promise((resolve) => {
    child.once('error', () => resolve(127));
    child.once('exit', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
  });
  clearTimeout(timer);
  killGroup(child.pid, 'SIGKILL'); // whatever a test started and left behind in jest's group
  process.off('exit', killOnExit);
  // A jest killed after its tests ended (held open by a handle) has written its result: its tests still count.
  if (!existsSync(outputFile)) return { passed: 0, failed: 1, skipped: 0, code: code || 1, files: [], timedOut };
  const result = JSON.parse(readFileSync(outputFile, 'utf8'));
  rmSync(outputFile, { force: true });
  return {
    passed: result.numPassedTests,
    // it.skip / it.todo: counted so a test switched off shows in the summary instead of vanishing from it.
    skipped: (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0),
    failed: result.numFailedTests + result.numRuntimeErrorTestSuites + (timedOut ? 1 : 0),
    code,
    files: (result.testResults ?? []).map((r) => r.name),
    timedOut,
  };
}
