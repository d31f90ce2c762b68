// Jest projects per workspace and test kind. One place decides which files are which kind of test:
//   unit    <ws>/src/**/*.test.ts   node   (unit and service tests; service tests spawn the service)
//           <ws>/k8s/**/*.test.ts   node   (the Kubernetes manifests' checks)
//           <ws>/src/**/*.test.tsx  jsdom  (component tests)
//   e2e     <ws>/e2e/**/*.e2e.ts    node   (browser tests through one shared stack)
//   faults  <ws>/e2e/**/*.faults.ts node   (stop/start processes of the stack: run one at a time)
//   replicas <ws>/e2e/**/*.replicas.ts node (a stack with two instances of every service behind the gateway)
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

/** File name endings of the browser phases, all under `<ws>/e2e/`; test.mjs skips a phase that has none. */
const BROWSER_TEST_FILES = { e2e: '.e2e.ts', faults: '.faults.ts', replicas: '.replicas.ts' };

const KINDS = {
  unit: [
    // infra/k8s, infra/observability and infra/scripts hold manifests, configuration and tools, with their tests beside them.
    { suffix: '', match: ['src/**/*.test.ts', 'k8s/**/*.test.ts', 'observability/**/*.test.ts', 'scripts/**/*.test.ts'], testEnvironment: 'node' },
    {
      suffix: ':dom',
      match: 'src/**/*.test.tsx',
      testEnvironment: 'jsdom',
      setupFiles: ['<rootDir>/infra/jest/setup-jsdom.cjs'],
    },
  ],
  e2e: [{ suffix: ':e2e', match: `e2e/**/*${BROWSER_TEST_FILES.e2e}`, testEnvironment: 'node' }],
  faults: [{ suffix: ':faults', match: `e2e/**/*${BROWSER_TEST_FILES.faults}`, testEnvironment: 'node' }],
  replicas: [{ suffix: ':replicas', match: `e2e/**/*${BROWSER_TEST_FILES.replicas}`, testEnvironment: 'node' }],
};

/**
 * @param {'unit'|'e2e'|'faults'|'replicas'} kind
 * @param {string} [only] a workspace folder (e.g. 'svc-email', 'packages/ui-kit'); all when empty
 */
function projects(kind, only) {
  const all = workspaces();
  if (only && !all.includes(only)) throw new Error(`unknown workspace "${only}"; one of ${all.join(', ')}`);
  if (!KINDS[kind]) throw new Error(`unknown test kind "${kind}"; one of ${Object.keys(KINDS).join(', ')}`);
  return (only ? [only] : all).flatMap((ws) =>
    KINDS[kind].map(({ suffix, match, ...rest }) => ({
      ...common,
      ...rest,
      displayName: `${ws}${suffix}`,
      // roots keeps each project's file crawl to its own folder; imports outside it still resolve.
      roots: [`<rootDir>/${ws}`],
      testMatch: [match].flat().map((m) => `<rootDir>/${ws}/${m}`),
    })),
  );
}

module.exports = { projects, BROWSER_TEST_FILES };
