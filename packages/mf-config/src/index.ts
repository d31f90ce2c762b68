/**
 * One rspack + Module Federation config builder for the shell (host) and the remotes.
 *
 * Why one helper: every federated app must declare the *same* shared singletons with the same
 * versions, otherwise the MF runtime either warns about mismatches or, worse, loads a second React
 * / router / emotion (see shared/notes/stack.md). Writing the list once here makes that impossible
 * to get wrong per app.
 */
import path from 'node:path';
import fs from 'node:fs';
import { rspack, type Configuration, type RuleSetRule } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';

/** Packages that must exist exactly once at run time across shell and remotes. */
export const SHARED_SINGLETONS = [
  'react',
  'react-dom',
  'react-router',
  '@mui/material',
  '@mui/system',
  '@emotion/react',
  '@emotion/styled',
  'swr',
  '@mui/x-data-grid',
  '@act/ui-kit',
] as const;

/**
 * Deep-import prefixes shared as well. `@mui/icons-material` imports `@mui/material/utils`, and
 * `react-dom/client` is how we mount; a deep import does not match the bare shared key and would
 * silently bundle a second copy (stack notes), so these prefixes get trailing-slash keys.
 * (`@mui/system/` is left out on purpose: only MUI itself deep-imports it, inside the one shared
 * `@mui/material` copy, and the key would split it into a dozen tiny chunks.)
 */
const SHARED_PREFIXES = ['react-dom/', 'react/', '@mui/material/'] as const;

const repoRoot = path.resolve(__dirname, '../../..');

function rootVersion(pkg: string): string {
  // requiredVersion comes from what is actually installed at the workspace root, so every app
  // asks for the very version the others provide.
  const file = path.join(repoRoot, 'node_modules', pkg, 'package.json');
  if (pkg === '@act/ui-kit') {
    return `^${JSON.parse(fs.readFileSync(path.join(repoRoot, 'packages/ui-kit/package.json'), 'utf8')).version}`;
  }
  return `^${JSON.parse(fs.readFileSync(file, 'utf8')).version}`;
}

export function sharedConfig(): Record<string, { singleton: true; requiredVersion: string }> {
  const shared: Record<string, { singleton: true; requiredVersion: string }> = {};
  for (const pkg of SHARED_SINGLETONS) shared[pkg] = { singleton: true, requiredVersion: rootVersion(pkg) };
  for (const prefix of SHARED_PREFIXES) {
    shared[prefix] = { singleton: true, requiredVersion: rootVersion(prefix.slice(0, -1)) };
  }
  return shared;
}

interface BaseOptions {
  /** Module Federation name: a JS identifier (`shell`, `mfe_email`). */
  name: string;
  /** The app's folder (pass `__dirname` of its rspack config). */
  dir: string;
  /** Dev-server port. */
  port: number;
  /** Page title of the generated index.html. */
  title?: string;
  /** Where the dev server proxies `/api` (and, for the shell, `/remotes.json` when not stubbed). */
  apiTarget?: string;
}

export interface HostOptions extends BaseOptions {
  /**
   * Dev-only `/remotes.json` answer. Production reads the deploy-time file served by the gateway;
   * nothing here is compiled into the bundle.
   */
  devRemotes?: Record<string, string>;
}

export interface RemoteOptions extends BaseOptions {
  exposes: Record<string, string>;
}

function isProduction(): boolean {
  return process.env.NODE_ENV === 'production' || process.argv.includes('build');
}

function swcRule(dev: boolean): RuleSetRule {
  return {
    test: /\.(ts|tsx|js|jsx)$/,
    // Workspace packages (ui-kit, contracts) are TS sources: resolved through their symlink they
    // live outside node_modules, so this exclude keeps compiling them.
    exclude: /node_modules/,
    loader: 'builtin:swc-loader',
    options: {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic', development: dev, refresh: false } },
        target: 'es2020',
      },
    },
    type: 'javascript/auto',
  };
}

/**
 * Build-time deploy settings, read from the environment so a team can build a release anywhere without touching
 * the config: `MFE_OUTPUT_DIR` writes the build there instead of `<app>/dist`; `MFE_BUILD_LABEL` is compiled in as
 * `process.env.MFE_BUILD_LABEL` (empty when unset), which an app may show to tell deployed builds apart.
 */
function deployEnv(dir: string) {
  return {
    outputDir: process.env.MFE_OUTPUT_DIR ? path.resolve(process.env.MFE_OUTPUT_DIR) : path.join(dir, 'dist'),
    buildLabel: process.env.MFE_BUILD_LABEL ?? '',
  };
}

function baseConfig(opts: BaseOptions, mode: 'host' | 'remote'): Configuration {
  const prod = isProduction();
  const deploy = deployEnv(opts.dir);
  return {
    mode: prod ? 'production' : 'development',
    context: opts.dir,
    entry: { main: './src/index.ts' },
    // Production maps hold the whole source (sourcesContent): they are written next to the served folder, not in it,
    // and the bundles do not name them; keep them for an error tracker or for reading a stack trace by hand.
    devtool: prod ? 'hidden-source-map' : 'eval-cheap-module-source-map',
    output: {
      path: deploy.outputDir,
      // Remotes are served under a sub-path chosen at deploy time, so they resolve their own
      // location; the shell is always served at the origin root (SPA fallback needs absolute URLs).
      publicPath: mode === 'remote' ? 'auto' : '/',
      uniqueName: opts.name,
      filename: prod ? '[name].[contenthash:8].js' : '[name].js',
      chunkFilename: prod ? '[name].[contenthash:8].js' : '[name].js',
      sourceMapFilename: '../sourcemaps/[file].map',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
      // Icons build on the shared `@mui/material` root instead of a deep import (see the shim).
      alias: Object.fromEntries(
        ['createSvgIcon.mjs', 'createSvgIcon.js'].map((file) => [
          path.join(repoRoot, 'node_modules/@mui/icons-material/utils', file),
          path.join(__dirname, 'shims/createSvgIcon.js'),
        ]),
      ),
    },
    // `import css from '...css?raw'`: a stylesheet as text, for a component that injects its own (no CSS pipeline).
    module: {
      rules: [swcRule(!prod), { resourceQuery: /raw/, type: 'asset/source', use: [{ loader: path.join(__dirname, 'strip-source-map.cjs') }] }],
    },
    optimization: {
      minimize: prod,
      // Only async chunks are split: the initial chunk of a remote must stay the container entry
      // (no runtimeChunk, per the stack notes), and shared singletons get their own chunks anyway.
      splitChunks: { chunks: 'async' },
    },
    performance: { hints: false },
    plugins: [
      new rspack.HtmlRspackPlugin({
        templateParameters: { pageTitle: opts.title ?? 'Abandoned Cart Tracker' },
        template: path.join(__dirname, 'index.html'),
        // Remotes produce a standalone dev page too; it must not grab the remote entry chunk.
        chunks: ['main'],
        // The standalone dev page is served at the dev server's root with history fallback, so its
        // script must load from '/' even on nested paths like /email-templates/5.
        ...(mode === 'remote' && !prod ? { publicPath: '/' } : {}),
      }),
      new rspack.DefinePlugin({
        'process.env.NODE_ENV': JSON.stringify(prod ? 'production' : 'development'),
        'process.env.MFE_BUILD_LABEL': JSON.stringify(deploy.buildLabel),
      }),
    ],
    devServer: {
      port: opts.port,
      host: '127.0.0.1',
      historyApiFallback: true,
      hot: false,
      liveReload: true,
      headers: { 'Access-Control-Allow-Origin': '*' },
      proxy: [{ context: ['/api'], target: opts.apiTarget ?? 'http://127.0.0.1:8080', changeOrigin: false }],
    },
  };
}

/** The host: no remote compiled in; remotes are registered at run time from `/remotes.json`. */
export function createHostConfig(opts: HostOptions): Configuration {
  const config = baseConfig(opts, 'host');
  config.plugins!.push(
    new ModuleFederationPlugin({
      name: opts.name,
      shared: sharedConfig(),
      // With the default 'version-first' strategy every remote entry is fetched at start to
      // negotiate versions, so one dead remote blanks the whole shell (reproduced, stack notes).
      shareStrategy: 'loaded-first',
      dts: false,
    }),
  );
  const devRemotes = opts.devRemotes;
  if (devRemotes) {
    config.devServer = {
      ...config.devServer,
      setupMiddlewares: (middlewares) => [
        {
          name: 'dev-remotes-json',
          path: '/remotes.json',
          middleware: (_req: unknown, res: { setHeader(k: string, v: string): void; end(body: string): void }) => {
            res.setHeader('Content-Type', 'application/json');
            res.end(JSON.stringify(devRemotes));
          },
        },
        ...middlewares,
      ],
    };
  }
  return config;
}

/** A remote: `remoteEntry.js` + `mf-manifest.json`, plus a standalone dev page from `src/index.ts`. */
export function createRemoteConfig(opts: RemoteOptions): Configuration {
  const config = baseConfig(opts, 'remote');
  config.plugins!.push(
    new ModuleFederationPlugin({
      name: opts.name,
      filename: 'remoteEntry.js',
      exposes: opts.exposes,
      manifest: true,
      shared: sharedConfig(),
      shareStrategy: 'loaded-first',
      dts: false,
    }),
  );
  return config;
}
