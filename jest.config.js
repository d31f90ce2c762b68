// One jest setup for the whole repository. `npm test` (infra/scripts/test.mjs) picks the kind of tests with
// ACT_TEST_PHASE (unit | e2e | faults | replicas; default unit) and one workspace with ACT_TEST_WORKSPACE.
// Plain `npx jest` runs the unit projects; the e2e and faults phases start their own stack in globalSetup.
const { projects } = require('./infra/jest/projects.cjs');

const phase = process.env.ACT_TEST_PHASE || 'unit';
const browserPhase = phase === 'e2e' || phase === 'faults' || phase === 'replicas';

module.exports = {
  rootDir: __dirname,
  projects: projects(phase, process.env.ACT_TEST_WORKSPACE || undefined),
  // Service tests start a real service process in beforeAll, browser tests drive Chromium: 5 s is too short.
  testTimeout: browserPhase ? 60_000 : 30_000,
  // Browser and fault tests share one stack: some restart its gateway, clear its test data or compare
  // stored lists before and after, so they run one file at a time.
  maxWorkers: browserPhase ? 1 : 2,
  ...(browserPhase && {
    globalSetup: '<rootDir>/infra/jest/e2e-setup.mjs',
    globalTeardown: '<rootDir>/infra/jest/e2e-teardown.mjs',
  }),
};
