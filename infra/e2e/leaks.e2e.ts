// What an outsider can read without signing in: the frontends' source maps (they hold the whole
// source) are neither served nor named by the bundles, and the public /readyz says ready or not, nothing about which
// service or dependency; the detail is on the gateway's internal port.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readStack } from './stack';

const stack = readStack();
const ROOT = path.resolve(__dirname, '../..');
const SERVED = ['shell', 'mfe-email', 'mfe-sms'];

describe('no source maps in the served folders', () => {
  it.each(SERVED)('%s/dist has no .map file and no bundle names one', (app) => {
    const dist = path.join(ROOT, app, 'dist');
    const files = readdirSync(dist);
    expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(0);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    const naming = files.filter((f) => f.endsWith('.js') && /sourceMappingURL=/.test(readFileSync(path.join(dist, f), 'utf8')));
    expect(naming).toEqual([]);
    // The maps exist for whoever runs the build (an error tracker, a stack trace read by hand).
    expect(existsSync(path.join(ROOT, app, 'sourcemaps'))).toBe(true);
  });

  it('asking for a map by its usual name through the gateway is a 404', async () => {
    const dist = path.join(ROOT, 'mfe-email', 'dist');
    const js = readdirSync(dist).find((f) => f.endsWith('.js') && f !== 'remoteEntry.js')!;
    for (const url of [`/remotes/mfe-email/${js}.map`, `/${readdirSync(path.join(ROOT, 'shell', 'dist')).find((f) => f.endsWith('.js'))}.map`]) {
      const res = await fetch(`${stack.url}${url}`);
      expect([url, res.status]).toEqual([url, 404]);
    }
  });
});

describe('readiness', () => {
  it('public /readyz: ready or not; the internal port: every service with its checks', async () => {
    const open = await fetch(`${stack.url}/readyz`);
    expect(open.status).toBe(200);
    expect(await open.json()).toEqual({ status: 'ready' });
    const internal = await fetch(`http://127.0.0.1:${stack.ports['gateway-internal']}/readyz`);
    const body = (await internal.json()) as { services: Record<string, { ready: boolean; checks?: Record<string, boolean> }> };
    expect(Object.keys(body.services).sort()).toEqual(['svc-auth', 'svc-email', 'svc-sms']);
    for (const s of Object.values(body.services)) expect(s).toMatchObject({ ready: true, checks: { mongo: true } });
  });
});
