// The production build: each backend compiles to one JavaScript file that plain node runs (no tsx, no TypeScript),
// with only npm packages left to node_modules. svc-auth is started from its build and signs the admin in.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, testDbName } from '@act/service-kit/testing';

const ROOT = path.resolve(__dirname, '../..');
const BACKENDS = ['gateway', 'svc-auth', 'svc-email', 'svc-sms'];
let child: ChildProcess | null = null;
afterAll(() => void child?.kill('SIGTERM'));

it('compiles every backend to dist/index.js with our own packages inside and npm packages outside', () => {
  const out = execFileSync(process.execPath, [path.join(ROOT, 'infra/scripts/build-services.mjs')], { encoding: 'utf8' });
  for (const ws of BACKENDS) expect(out).toContain(`${ws}/dist/index.js`);
  for (const ws of BACKENDS) {
    const js = readFileSync(path.join(ROOT, ws, 'dist/index.js'), 'utf8');
    const required = [...js.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!);
    expect(required.filter((r) => r.startsWith('@act/') || r.startsWith('.') || r === 'tsx' || r === 'typescript')).toEqual([]);
    expect(required).toContain('koa');
  }
});

it('runs svc-auth from its build under plain node in production mode', async () => {
  const port = await freePort();
  let output = '';
  child = spawn(process.execPath, ['--enable-source-maps', 'dist/index.js'], {
    cwd: path.join(ROOT, 'svc-auth'),
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      MONGODB_URI: process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017',
      MONGODB_DB: testDbName('compiled_auth'),
      NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      IDENTITY_SECRET: 'compiled-build-identity-secret-000000',
      SESSION_SECRET: 'compiled-build-session-secret-000000',
      ADMIN_PASSWORD: 'compiled-admin-pass',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const deadline = Date.now() + 30_000;
  let ready = 0;
  while (Date.now() < deadline && ready !== 200) {
    ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status, () => 0);
    if (ready !== 200) await new Promise((r) => setTimeout(r, 200));
  }
  expect({ ready, output: ready === 200 ? '' : output }).toEqual({ ready: 200, output: '' });
  // Signed in as a browser behind the gateway would be (anonymous identity), against the compiled service.
  const { signIdentity } = await import('@act/service-kit');
  const res = await fetch(`http://127.0.0.1:${port}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-act-identity': signIdentity(null, 'compiled-build-identity-secret-000000'), 'x-forwarded-for': '10.9.9.9' },
    body: JSON.stringify({ username: 'admin', password: 'compiled-admin-pass' }),
  });
  expect(res.status).toBe(200);
});
