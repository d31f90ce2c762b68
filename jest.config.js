// One jest setup for the whole repository. `npm test` (infra/scripts/test.mjs) picks the kind of tests with
// ACT_TEST_PHASE (unit | e2e | faults | replicas; default unit) and one workspace with ACT_TEST_WORKSPACE.
// Plain `npx jest` runs the unit projects; the e2e and faults phases start their own stack in globalSetup.
const { projects } = require('./infra/jest/projects.cjs');

const phase = process.env.ACT_TEST_PHASE || 'unit';
const browserPhase = phase === 'e2e' || phase === 'faults' || phase === 'replicas';
const e2eWorkers = Math.max(1, Math.floor(Number(process.env.TEST_E2E_WORKERS)) || 1);

module.exports = {
  rootDir: __dirname,
  projects: projects(phase, process.env.ACT_TEST_WORKSPACE || undefined),
  // Service tests start a real service process in beforeAll, browser tests drive Chromium: 5 s is too short.
  testTimeout: browserPhase ? 60_000 : 30_000,
  // A browser or fault test has its stack to itself: some restart its gateway, clear its test data, compare stored
  // lists or summary cards before and after, or time answers. So the faults and replicas phases run one file at a
  // time, and the e2e phase TEST_E2E_WORKERS files at a time (default 1), each worker on a stack of its own
  // (infra/jest/e2e-setup.mjs starts one per worker).
  maxWorkers: phase === 'e2e' ? e2eWorkers : browserPhase ? 1 : 2,
  ...(browserPhase && {
    globalSetup: '<rootDir>/infra/jest/e2e-setup.mjs',
    globalTeardown: '<rootDir>/infra/jest/e2e-teardown.mjs',
  }),
};
