// Jest projects per workspace and test kind. One place decides which files are which kind of test:
//   unit    <ws>/src/**/*.test.ts   node   (unit and service tests; service tests spawn the service)
//           <ws>/k8s/**/*.test.ts   node   (the Kubernetes manifests' checks)
//           <ws>/src/**/*.test.tsx  jsdom  (component tests)
//   e2e     <ws>/e2e/**/*.e2e.ts    node   (browser tests through one shared stack)
//   faults  <ws>/e2e/**/*.faults.ts node   (stop/start processes of the stack: run one at a time)
//   replicas <ws>/e2e/**/*.replicas.ts node (a stack with two instances of every service behind the gateway)
const path = require('node:path');
const { ROOT, workspaces } = require('../scripts/lib/workspaces.cjs');

const swc = (syntax, jsx) => [
  '@swc/jest',
  {
    swcrc: false,
    jsc: {
      parser: syntax === 'typescript' ? { syntax, tsx: jsx } : { syntax, jsx },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

// Packages that ship only ES modules; jest (without --experimental-vm-modules) needs them compiled to
// CommonJS like our own code. Found with: type "module" in package.json and no "require" export.
const ESM_ONLY = [
  'd3-[^/]+',
  'internmap',
  'lodash-es',
  'flatqueue',
  'htmlparser2',
  'dom-serializer',
  'domelementtype',
  'domhandler',
  'domutils',
  'entities',
];

const common = {
  rootDir: ROOT,
  transform: {
    // .ts is parsed without JSX so generic arrows like `<T,>(x: T) => x` keep working.
    '^.+\\.tsx$': swc('typescript', true),
    '^.+\\.(ts|mts|cts)$': swc('typescript', false),
    '^.+\\.(js|jsx|mjs|cjs)$': swc('ecmascript', true),
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  moduleNameMapper: {
    '\\.(css|less|scss|sass)$': '<rootDir>/infra/jest/style-stub.cjs',
    '\\.(png|jpe?g|gif|webp|svg|ico|woff2?|ttf|eot)$': '<rootDir>/infra/jest/file-stub.cjs',
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};

/** File name endings of the browser phases, all under `<ws>/e2e/`. */
const BROWSER_TEST_FILES = { e2e: '.e2e.ts', faults: '.faults.ts', replicas: '.replicas.ts' };

// Where each kind's test files live: a folder of the workspace and a file ending (jest's glob is
// `<ws>/<dir>/**/*<suffix>`). `required` names the workspaces in which that folder must hold at least one test file:
// test.mjs fails a full run where one holds none, so a renamed or moved folder cannot drop its tests silently (the
// glob would just stop matching). Workspaces not named still run any such file they get.
const BACK_END = ['packages/contracts', 'packages/experiments', 'packages/flow', 'packages/service-kit', 'packages/sources', 'packages/testing', 'svc-auth', 'svc-email', 'svc-sms', 'gateway'];
const FRONT_END = ['packages/ui-kit', 'shell', 'mfe-email', 'mfe-sms'];
const KINDS = {
  unit: [
    {
      suffix: '',
      testEnvironment: 'node',
      files: [
        // packages/mf-config is the frontends' build configuration: the builds and the browser tests exercise it.
        { dir: 'src', suffix: '.test.ts', required: [...BACK_END, ...FRONT_END] },
        // infra/k8s, infra/observability and infra/scripts hold manifests, configuration and tools, with their tests beside them.
        { dir: 'k8s', suffix: '.test.ts', required: ['infra'] },
        { dir: 'observability', suffix: '.test.ts', required: ['infra'] },
        { dir: 'scripts', suffix: '.test.ts', required: ['infra'] },
      ],
    },
    {
      suffix: ':dom',
      files: [{ dir: 'src', suffix: '.test.tsx', required: FRONT_END }],
      testEnvironment: 'jsdom',
      setupFiles: ['<rootDir>/infra/jest/setup-jsdom.cjs'],
    },
  ],
  // The browser phases: a workspace without such tests is normal (test.mjs then requires the phase's files of the
  // whole run instead), so none is required per workspace.
  e2e: [{ suffix: ':e2e', files: [{ dir: 'e2e', suffix: BROWSER_TEST_FILES.e2e, required: [] }], testEnvironment: 'node' }],
  faults: [{ suffix: ':faults', files: [{ dir: 'e2e', suffix: BROWSER_TEST_FILES.faults, required: [] }], testEnvironment: 'node' }],
  replicas: [{ suffix: ':replicas', files: [{ dir: 'e2e', suffix: BROWSER_TEST_FILES.replicas, required: [] }], testEnvironment: 'node' }],
};

/**
 * The folders of `kind` that must hold a test file, among `only` (all workspaces when empty): `[{ workspace, dir,
 * suffix }]`, for test.mjs to compare with the files jest ran.
 */
function requiredTestFolders(kind, only) {
  const scope = only ? [only] : workspaces();
  return KINDS[kind].flatMap(({ files }) =>
    files.flatMap(({ dir, suffix, required }) => required.filter((ws) => scope.includes(ws)).map((workspace) => ({ workspace, dir, suffix }))),
  );
}

/** The required folders of `kind` (among `only`) none of whose files is in `files` (absolute paths jest ran). */
function missingTestFolders(kind, only, files) {
  return requiredTestFolders(kind, only).filter(({ workspace, dir, suffix }) => {
    const folder = path.join(ROOT, workspace, dir) + path.sep;
    return !files.some((f) => f.startsWith(folder) && f.endsWith(suffix));
  });
}

/**
 * @param {'unit'|'e2e'|'faults'|'replicas'} kind
 * @param {string} [only] a workspace folder (e.g. 'svc-email', 'packages/ui-kit'); all when empty
 */
function projects(kind, only) {
  const all = workspaces();
  if (only && !all.includes(only)) throw new Error(`unknown workspace "${only}"; one of ${all.join(', ')}`);
  if (!KINDS[kind]) throw new Error(`unknown test kind "${kind}"; one of ${Object.keys(KINDS).join(', ')}`);
  return (only ? [only] : all).flatMap((ws) =>
    KINDS[kind].map(({ suffix, files, ...rest }) => ({
      ...common,
      ...rest,
      displayName: `${ws}${suffix}`,
      // roots keeps each project's file crawl to its own folder; imports outside it still resolve.
      roots: [`<rootDir>/${ws}`],
      testMatch: files.map((f) => `<rootDir>/${ws}/${f.dir}/**/*${f.suffix}`),
    })),
  );
}

module.exports = { projects, requiredTestFolders, missingTestFolders, BROWSER_TEST_FILES };
