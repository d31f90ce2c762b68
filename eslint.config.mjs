// One lint setup for every workspace: typescript-eslint on .ts/.tsx, plain ESLint on the .js/.mjs/.cjs
// scripts and configs, with the globals each kind of file really has.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import jestPlugin from 'eslint-plugin-jest';
import regexpPlugin from 'eslint-plugin-regexp';

export default tseslint.config(
  // Generated or installed output, and the Java stand-in.
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      '.run/**',
      'test-results/**',
      'bench/results/**',
      'infra/mongo/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_name` marks a parameter or binding kept on purpose (Koa's `next`, a tuple slot).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // ReDoS: a pattern whose matching time grows faster than its input lets one request hold a service's only
    // thread (docs/security.md). Everywhere: backtracking inside one match attempt (`/^(a+)+$/`, the naive
    // email pattern `/^[^\s@]+@[^\s@]+\.[^\s@]+$/` on "a@....@").
    plugins: { regexp: regexpPlugin },
    rules: { 'regexp/no-super-linear-backtracking': 'error' },
  },
  {
    // And in the code that serves requests: quadratic time from an unanchored pattern retried at every start
    // position (`/\/+$/` on a long run of slashes). Tests, scripts and benches read our own output, not input.
    files: ['packages/**', 'svc-*/**', 'gateway/**', 'mfe-*/**', 'shell/**'],
    ignores: ['packages/testing/**', '**/*.test.{ts,tsx}', '**/e2e/**', '**/scripts/**', '**/*.config.{js,cjs,mjs,ts}'],
    rules: { 'regexp/no-super-linear-move': 'error' },
  },
  { files: ['**/*.{js,mjs,cjs}'], languageOptions: { globals: globals.node } },
  {
    // No "type": "module" anywhere: .js and .cjs files are CommonJS (jest.config.js, rspack configs).
    files: ['**/*.{js,cjs}'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['shell/**/*.{ts,tsx}', 'mfe-*/**/*.{ts,tsx}', 'packages/ui-kit/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['**/*.test.{ts,tsx}', '**/e2e/**/*.ts', 'infra/jest/**'],
    languageOptions: { globals: { ...globals.jest, ...globals.node } },
    plugins: { jest: jestPlugin },
    rules: {
      // A focused test silently drops every other one from CI.
      'jest/no-focused-tests': 'error',
      // A switched-off test needs its reason next to it: `// eslint-disable-next-line jest/no-disabled-tests -- why`.
      'jest/no-disabled-tests': 'error',
    },
  },
);
