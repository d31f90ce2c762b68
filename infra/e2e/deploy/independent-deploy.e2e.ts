// Independent deploys, shown for real:
// 1. The SMS team ships a new mfe-sms without anyone touching the shell: mfe-sms is served by a static host of its
//    own (CORS on, as any CDN), the gateway's /remotes.json points MFE_SMS_MANIFEST at it, a new build (with a
//    visible build label) replaces the served folder, and a reload of the running shell shows it; the shell's
//    files are byte for byte and mtime for mtime what they were.
// 2. Each workspace's own tests run alone: every workspace's `npm test` is test.mjs with its own --workspace, and
//    one of them really runs alone.
// A private gateway is started against the e2e stack's services (other e2e files use the shared one in parallel,
// and restarting it under them would break their pages).
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http, { type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, readStack, signIn } from '../browser';

const ROOT = path.resolve(__dirname, '../../..');
const stack = readStack();

/** Every file under `dir` with its sha256 and mtime. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else
        out[path.relative(dir, p)] =
          `${createHash('sha256').update(readFileSync(p)).digest('hex')} ${statSync(p).mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.html': 'text/html',
  '.map': 'application/json',
  '.css': 'text/css',
};

/** A static host for one remote, like a CDN bucket: CORS on, entry files never cached; `root` can be swapped. */
function remoteHost(initialRoot: string): Promise<{ server: Server; url: string; deploy(root: string): void }> {
  let root = initialRoot;
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '');
    const file = path.join(root, rel);
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (!file.startsWith(root + path.sep) || !existsSync(file) || !statSync(file).isFile())
      return res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
    });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${port}`, deploy: (next) => void (root = next) });
    }),
  );
}

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    let output = '';
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('independent deploy of mfe-sms', () => {
  let browser: Browser;
  let host: Awaited<ReturnType<typeof remoteHost>>;
  let gateway: ChildProcess | null = null;
  let gatewayUrl = '';
  let gatewayOutput = '';
  const buildDir = mkdtempSync(path.join(os.tmpdir(), 'act-mfe-sms-deploy-'));

  beforeAll(async () => {
    if (!process.env.IDENTITY_SECRET)
      throw new Error('IDENTITY_SECRET is not in the environment: run through npm test / test:e2e');
    // Today's deploy of the SMS remote is the build the shared stack serves.
    host = await remoteHost(path.join(ROOT, 'mfe-sms/dist'));
    const port = await freePort();
    gatewayUrl = `http://127.0.0.1:${port}`;
    gateway = spawn(
      process.execPath,
      ['--import', path.join(ROOT, 'node_modules/tsx/dist/loader.mjs'), 'src/index.ts'],
      {
        cwd: path.join(ROOT, 'gateway'),
        env: {
          ...process.env,
          PORT: String(port),
          AUTH_URL: `http://127.0.0.1:${stack.ports['svc-auth']}`,
          EMAIL_URL: `http://127.0.0.1:${stack.ports['svc-email']}`,
          SMS_URL: `http://127.0.0.1:${stack.ports['svc-sms']}`,
          MFE_SMS_MANIFEST: `${host.url}/mf-manifest.json`,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    gateway.stdout!.on('data', (d) => (gatewayOutput += d));
    gateway.stderr!.on('data', (d) => (gatewayOutput += d));
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ok = await fetch(`${gatewayUrl}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (gateway.exitCode !== null || Date.now() > deadline)
        throw new Error(`private gateway did not start:\n${gatewayOutput}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    browser = await launchBrowser();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    if (gateway && gateway.exitCode === null) {
      const exited = new Promise((r) => gateway!.once('exit', r));
      gateway.kill('SIGTERM');
      await exited;
    }
    await new Promise((r) => host?.server.close(r));
    rmSync(buildDir, { recursive: true, force: true });
  });

  it('a rebuilt mfe-sms served again shows up in the running shell on reload; the shell is not rebuilt', async () => {
    const shellDist = path.join(ROOT, 'shell/dist');
    const shellBefore = fingerprint(shellDist);
    const remotes = await (await fetch(`${gatewayUrl}/remotes.json`)).json();
    expect(remotes.mfe_sms).toBe(`${host.url}/mf-manifest.json`);

    const page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    await signIn(page, 'admin', stack.adminPassword, gatewayUrl);
    await page.goto(`${gatewayUrl}/sms-campaigns`);
    await page.getByRole('heading', { name: 'SMS Campaigns', exact: true }).waitFor();
    expect(await page.getByText(/^SMS build /).count()).toBe(0);

    // The SMS team's release: its own build, with a label, into a folder of its own.
    const label = `release-${Date.now().toString(36)}`;
    const build = await run(path.join(ROOT, 'node_modules/.bin/rspack'), ['build'], {
      cwd: path.join(ROOT, 'mfe-sms'),
      env: { ...process.env, MFE_OUTPUT_DIR: buildDir, MFE_BUILD_LABEL: label, NODE_ENV: 'production' },
    });
    expect({ code: build.code, tail: build.code === 0 ? '' : build.output.slice(-2000) }).toEqual({
      code: 0,
      tail: '',
    });
    expect(existsSync(path.join(buildDir, 'mf-manifest.json'))).toBe(true);
    host.deploy(buildDir);

    // The same shell, reloaded: the remote is fetched again from its manifest and shows the new build.
    await page.reload();
    await page.getByRole('heading', { name: 'SMS Campaigns', exact: true }).waitFor();
    await page.getByText(`SMS build ${label}`).waitFor();
    await page.goto(`${gatewayUrl}/sms-logs`);
    await page.getByText(`SMS build ${label}`).waitFor();
    await page.context().close();

    expect(fingerprint(shellDist)).toEqual(shellBefore);
  }, 240_000);
});

describe("each workspace's own tests", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the one list of workspaces, shared with jest's config
  const { workspaces } = require('../../scripts/lib/workspaces.cjs') as { workspaces: () => string[] };

  it('every workspace has `npm test` = test.mjs with its own --workspace', () => {
    const scripts = Object.fromEntries(
      workspaces().map((ws) => [
        ws,
        JSON.parse(readFileSync(path.join(ROOT, ws, 'package.json'), 'utf8')).scripts?.test ?? null,
      ]),
    );
    const expected = Object.fromEntries(
      workspaces().map((ws) => [
        ws,
        `node ${path.relative(path.join(ROOT, ws), path.join(ROOT, 'infra/scripts/test.mjs'))} --workspace=${ws}`,
      ]),
    );
    expect(scripts).toEqual(expected);
  });

  it('`npm test -w packages/service-kit` runs that workspace alone and passes', async () => {
    const { code, output } = await run('npm', ['test', '-w', 'packages/service-kit'], { cwd: ROOT, env: process.env });
    expect({ code, tail: code === 0 ? '' : output.slice(-3000) }).toEqual({ code: 0, tail: '' });
    expect(output).toMatch(/\[test\] unit \(packages\/service-kit\)/);
    expect(output).toMatch(/PASS packages\/service-kit/);
    // No other workspace's project ran.
    expect(output.match(/^(PASS|FAIL) (\S+)/gm)?.filter((l) => !l.includes('packages/service-kit'))).toEqual([]);
    expect(output).toMatch(/\n[1-9]\d* passed, 0 failed/);
  }, 180_000);
});
