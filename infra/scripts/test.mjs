// `npm test`: lint and typecheck first (a failure there ends the run before any jest phase), then MongoDB + NATS,
// then jest's unit/service projects, then the frontends' build, then the browser
// tests (e2e), then the fault suite (stops NATS for 30 s, kills services, restarts MongoDB; against a NATS and a
// MongoDB of its own), then the replicas suite (two instances of every service, one of each killed under load),
// each phase against one stack. Ends with a plain `N passed, N failed, N skipped` line.
//   --only=checks|unit|e2e|faults|replicas   one phase (`npm run test:unit`, `test:e2e`, `test:faults`, `test:replicas`)
//   --without-faults         checks, unit and e2e only (a quicker local run; CI runs all five)
// Each jest phase must find test files: none at all fails the phase, and in a run of every file (no pattern or other
// jest arguments) each folder infra/jest/projects.cjs requires must have given one. Each jest phase has a time limit
// (TEST_TIMEOUT_<PHASE>_MIN; unit 20, e2e 30, faults 20, replicas 10), after which jest is dumped and killed.
// TEST_E2E_WORKERS=2 runs two e2e files at a time, each against a stack of its own (jest.config.js).
//   --workspace=<folder>     only that workspace's projects (each workspace's own `npm test` uses this)
//   anything else            passed on to jest (a test path pattern, -t name, --verbose...)
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureMongo, ensureNats } from './deps.mjs';
import { ROOT, RUN_DIR, workspaces } from './lib/paths.mjs';
import { buildFrontends, hasRspackConfig } from './lib/frontends.mjs';
import { hasBrowserTests, runJest } from './lib/jest.mjs';
import { runChecks } from './lib/checks.mjs';
import jestProjects from '../jest/projects.cjs';
import { deleteStreamsWithPrefix } from './lib/nats-cleanup.mjs';

const PHASES = ['checks', 'unit', 'e2e', 'faults', 'replicas'];
const SUFFIX = jestProjects.BROWSER_TEST_FILES;

const flags = {};
const jestArgs = [];
// --with-faults was the opt-in before the fault suite joined the default run; still accepted.
const withoutFaults = process.argv.includes('--without-faults');
for (const arg of process.argv.slice(2).filter((a) => a !== '--with-faults' && a !== '--without-faults')) {
  const match = /^--(only|workspace)=(.+)$/.exec(arg);
  if (match) flags[match[1]] = match[2];
  else jestArgs.push(arg);
}
// Workspace scripts pass their folder relative to the root (svc-email, packages/ui-kit); a path relative to
// the current folder works too (`--workspace=.` inside a workspace).
const workspace = flags.workspace && resolveWorkspace(flags.workspace);
if (flags.only && !PHASES.includes(flags.only)) fail(`--only must be one of ${PHASES.join(', ')}`);
const phases = flags.only ? [flags.only] : withoutFaults ? PHASES.filter((p) => p === 'checks' || p === 'unit' || p === 'e2e') : PHASES;

function resolveWorkspace(name) {
  const all = workspaces();
  if (all.includes(name)) return name;
  const relative = path.relative(ROOT, path.resolve(name));
  if (all.includes(relative)) return relative;
  fail(`unknown workspace ${name}; one of ${all.join(', ')}`);
}

function fail(message) {
  console.error(`test.mjs: ${message}`);
  process.exit(2);
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const durations = []; // per phase, stack start and stop included (the fault suite's budget is printed from this)
const problems = [];

// Lint and types first: swc strips types without checking them, so jest alone passes code tsc refuses. A failure
// here ends the run at once (what to fix is printed above), before minutes of services and browsers.
if (phases.includes('checks')) {
  console.log(`\n[test] checks${workspace ? ` (${workspace})` : ''}: eslint and typecheck`);
  const started = Date.now();
  const failedChecks = await runChecks({ workspace });
  durations.push(`checks ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (failedChecks.length) {
    for (const name of failedChecks) console.log(`[test] checks: ${name} failed`);
    if (phases.length > 1) console.log('[test] checks failed: the jest phases were not run');
    console.log(`\n[test] duration: ${durations.join(', ')}`);
    console.log(`\n0 passed, ${failedChecks.length} failed, 0 skipped`);
    process.exit(1);
  }
  totals.passed += 2;
  if (phases.length === 1) {
    console.log(`\n[test] duration: ${durations.join(', ')}\n\n2 passed, 0 failed, 0 skipped`);
    process.exit(0);
  }
}
const jestPhases = phases.filter((p) => p !== 'checks');
// Jest arguments (a path pattern, -t, --verbose...) select or shape a partial run: only then may a required folder
// have given no file.
const wholeRun = jestArgs.length === 0;

let mongo, nats;
try {
  mongo = await ensureMongo();
  nats = await ensureNats();
} catch (err) {
  console.error(`[test] ${err.message}`);
  await mongo?.stop();
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}
// A prefix unique to this run keeps its JetStream stream and consumers apart from any other run on the same server.
const natsPrefix = `t${process.pid}${Date.now().toString(36)}_`;
const env = {
  ...process.env,
  MONGODB_URI: mongo.uri,
  NATS_URL: nats.url,
  NATS_PREFIX: natsPrefix,
  IDENTITY_SECRET: process.env.IDENTITY_SECRET || randomBytes(24).toString('base64url'),
};
// Several runs may share this checkout (one per workspace): each run and phase gets its own stack and log file.
const stackFile = (phase) => path.join(RUN_DIR, `${phase}-stack-${process.pid}.json`);
// The e2e phase has a stack per jest worker, the n-th's files ending in -w<n> (infra/jest/e2e-setup.mjs).
const logFilesOf = (file) => {
  const base = path.basename(file).replace(/\.json$/, '');
  if (!existsSync(RUN_DIR)) return [];
  return readdirSync(RUN_DIR)
    .filter((name) => name === `${base}.log` || new RegExp(`^${base}-w\\d+\\.log$`).test(name))
    .map((name) => path.join(RUN_DIR, name));
};
// The index check: the services of the unit and e2e phases record the shape of every query they send to MongoDB
// (service-kit's query-shapes); after those phases each shape on a collection that grows must be served by an
// index the services declared.
const QUERY_LOGGED_PHASES = new Set(['unit', 'e2e']);
const queryLogDir = path.join(RUN_DIR, `query-log-${process.pid}`);
rmSync(queryLogDir, { recursive: true, force: true });

try {
  let frontendsReady = false;
  for (const phase of jestPhases) {
    const scope = workspace ? [workspace] : workspaces();
    if (phase !== 'unit') {
      if (!hasBrowserTests(scope, SUFFIX[phase])) {
        // One workspace without browser tests is normal; the whole repository without them is a suite gone missing.
        if (workspace) console.log(`\n[test] ${phase}: no *${SUFFIX[phase]} files in ${workspace}, skipped`);
        else problems.push(`${phase}: no *${SUFFIX[phase]} file in any workspace's e2e/ folder`);
        continue;
      }
      if (!frontendsReady) {
        // Browser tests go through the gateway, which serves the built shell and remotes.
        if (!hasRspackConfig('shell')) console.log('\n[test] shell has no rspack config yet: frontends not built');
        else {
          const { ok } = await buildFrontends();
          if (!ok) {
            problems.push('frontend build failed: browser tests not run');
            break;
          }
        }
        frontendsReady = true;
      }
    }
    console.log(`\n[test] ${phase}${workspace ? ` (${workspace})` : ''}`);
    const phaseStarted = Date.now();
    const result = await runJest({
      phase,
      workspace,
      env: { ...env, ACT_STACK_FILE: stackFile(phase), ...(QUERY_LOGGED_PHASES.has(phase) ? { MONGO_QUERY_LOG_DIR: queryLogDir } : {}) },
      args: jestArgs,
    });
    durations.push(`${phase} ${((Date.now() - phaseStarted) / 1000).toFixed(0)} s`);
    // A workspace projects.cjs requires no tests of (packages/mf-config, a browser phase elsewhere) may have none.
    const optional = workspace && wholeRun && jestProjects.requiredTestFolders(phase, workspace).length === 0;
    if (!result.timedOut && result.files.length === 0 && optional) {
      console.log(`[test] ${phase}: no test file in ${workspace}, which needs none: skipped`);
      continue;
    }
    totals.passed += result.passed;
    totals.failed += result.failed;
    totals.skipped += result.skipped ?? 0;
    if (result.timedOut) problems.push(`jest ${phase} passed its time limit and was killed`);
    else if (result.files.length === 0) problems.push(`jest ${phase} found no test file`);
    else if (wholeRun)
      for (const { workspace: ws, dir, suffix } of jestProjects.missingTestFolders(phase, workspace, result.files))
        problems.push(`${phase}: no *${suffix} file under ${ws}/${dir}/ (infra/jest/projects.cjs requires one there)`);
    if (result.code !== 0 || result.timedOut) {
      if (!result.timedOut) problems.push(`jest ${phase} exited with code ${result.code}`);
      if (phase !== 'unit') logFilesOf(stackFile(phase)).forEach(showStackLog);
    } else if (phase !== 'unit') for (const file of logFilesOf(stackFile(phase))) rmSync(file, { force: true });
  }
  // After the loop, not after the e2e phase: a workspace without browser tests skips that phase, and its unit
  // phase's queries must be checked all the same.
  if (jestPhases.some((p) => QUERY_LOGGED_PHASES.has(p))) checkIndexes();
} finally {
  await deleteStreamsWithPrefix(nats.url, natsPrefix).catch((err) =>
    console.error(`[test] NATS cleanup: ${err.message}`),
  );
  await nats.stop();
  await mongo.stop();
}

function checkIndexes() {
  console.log('\n[test] index check');
  // A partial run (a path pattern) or a workspace's run may start no service at all; a run of the whole repository
  // that recorded nothing is a detached recorder.
  if (!existsSync(queryLogDir) && (workspace || !wholeRun)) return console.log('[test] index check: no query recorded in this run, skipped');
  const cli = path.join(ROOT, 'packages/service-kit/src/query-shapes/cli.ts');
  const { status } = spawnSync(process.execPath, ['--import', 'tsx', cli, queryLogDir], { cwd: ROOT, stdio: 'inherit' });
  if (status === 0) totals.passed += 1;
  else problems.push('index check: a query on a growing collection is served by no declared index (above)');
}

function showStackLog(logFile) {
  if (!existsSync(logFile)) return;
  const lines = readFileSync(logFile, 'utf8').trimEnd().split('\n');
  console.log(`\n[test] last ${Math.min(lines.length, 80)} lines of ${path.relative(ROOT, logFile)}:`);
  console.log(lines.slice(-80).join('\n'));
}

// A failed build or a jest run that could not start counts as a failure even when no test failed.
const failed = totals.failed || problems.length;
for (const problem of problems) console.log(`[test] ${problem}`);
if (durations.length) console.log(`\n[test] duration: ${durations.join(', ')}`);
console.log(`\n${totals.passed} passed, ${failed} failed, ${totals.skipped} skipped`);
process.exit(problems.length || totals.failed ? 1 : 0);
