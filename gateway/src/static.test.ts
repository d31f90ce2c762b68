import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunningGateway } from './app';
import { cacheControlFor } from './static';
import { deadUrl, get, startTestGateway, testConfig } from './testing';

let dir: string;
let gw: RunningGateway;
const INDEX = '<!doctype html><title>Abandoned Cart Tracker</title><div id="root"></div>';
const BIG_JS = `console.log(${JSON.stringify('x'.repeat(5000))});`;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'gw-static-'));
  const shell = path.join(dir, 'shell');
  const email = path.join(dir, 'mfe-email');
  mkdirSync(path.join(shell, 'static/js'), { recursive: true });
  mkdirSync(email, { recursive: true });
  writeFileSync(path.join(shell, 'index.html'), INDEX);
  writeFileSync(path.join(shell, 'static/js/main.3f2a9c1b.js'), BIG_JS);
  writeFileSync(path.join(shell, 'favicon.ico'), 'icon');
  writeFileSync(path.join(email, 'remoteEntry.js'), 'var mfe_email;');
  writeFileSync(path.join(email, 'mf-manifest.json'), '{"name":"mfe_email"}');
  writeFileSync(path.join(email, '__federation_expose_routes.a1b2c3d4.js'), 'export {}');
  const dead = await deadUrl();
  gw = await startTestGateway(
    testConfig(
      { 'svc-auth': dead, 'svc-email': dead, 'svc-sms': dead },
      {
        shellDir: shell,
        remoteDirs: { 'mfe-email': email, 'mfe-sms': path.join(dir, 'mfe-sms-not-built') },
        remotes: {
          mfe_email: '/remotes/mfe-email/mf-manifest.json',
          mfe_sms: 'https://cdn.example.com/mfe-sms/mf-manifest.json',
        },
      },
    ),
  );
});
afterAll(async () => {
  await gw?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('shell', () => {
  it('serves index.html at / and for client-side routes, never cached', async () => {
    for (const p of ['/', '/contacts', '/email-templates/12', '/users', '/unsubscribe?email=a%40b.co']) {
      const res = await get(gw.url + p);
      expect(res.status).toBe(200);
      expect(res.text).toBe(INDEX);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      // The current-user request the shell makes first, fetched while its bundle loads.
      expect(res.headers.get('link')).toBe('</api/user>; rel=preload; as=fetch; crossorigin=use-credentials');
    }
  });

  it('keeps hashed assets for a year, gzipped; a missing asset is a 404, not the app', async () => {
    const res = await fetch(gw.url + '/static/js/main.3f2a9c1b.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    // fetch decodes gzip itself; the header says it was compressed on the wire.
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.text()).toBe(BIG_JS);
    expect((await get(gw.url + '/static/js/missing.12345678.js')).status).toBe(404);
    expect((await get(gw.url + '/favicon.ico')).headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 304 to a revalidation', async () => {
    const first = await fetch(gw.url + '/');
    await first.text();
    // Raw http: fetch adds Cache-Control: no-cache to conditional requests, which rightly defeats freshness.
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(gw.url + '/', { headers: { 'if-modified-since': first.headers.get('last-modified')! } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        })
        .on('error', reject);
    });
    expect(status).toBe(304);
  });

  it('does not serve outside its folder', async () => {
    const res = await get(gw.url + '/..%2f..%2fetc%2fpasswd');
    expect([400, 403, 404]).toContain(res.status);
    expect(res.text).not.toContain('root:');
  });
});

describe('remotes', () => {
  it('serves remote assets with CORS; entry files revalidated, hashed chunks cached', async () => {
    const entry = await get(gw.url + '/remotes/mfe-email/remoteEntry.js');
    expect(entry).toMatchObject({ status: 200, text: 'var mfe_email;' });
    expect(entry.headers.get('access-control-allow-origin')).toBe('*');
    expect(entry.headers.get('cache-control')).toBe('no-cache');
    const manifest = await get(gw.url + '/remotes/mfe-email/mf-manifest.json');
    expect(manifest).toMatchObject({ status: 200, body: { name: 'mfe_email' } });
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    const chunk = await get(gw.url + '/remotes/mfe-email/__federation_expose_routes.a1b2c3d4.js');
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('a missing file is 404 JSON and an unbuilt remote 503 JSON, with CORS and no SPA fallback', async () => {
    const missing = await get(gw.url + '/remotes/mfe-email/nope.js');
    expect(missing).toMatchObject({ status: 404, body: { error: 'Not found' } });
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    const unbuilt = await get(gw.url + '/remotes/mfe-sms/remoteEntry.js');
    expect(unbuilt).toMatchObject({ status: 503, body: { error: 'mfe-sms unavailable' } });
    expect((await get(gw.url + '/remotes/unknown/remoteEntry.js')).status).toBe(404);
  });

  it("a remote named like one of Object.prototype's members is a plain 404, not a 500", async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])
      expect([name, (await get(`${gw.url}/remotes/${name}/x`)).status]).toEqual([name, 404]);
  });

  it('GET /remotes.json gives the deploy-time config, never cached', async () => {
    const res = await get(gw.url + '/remotes.json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      mfe_email: '/remotes/mfe-email/mf-manifest.json',
      mfe_sms: 'https://cdn.example.com/mfe-sms/mf-manifest.json',
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('without any build', () => {
  it('answers a plain message instead of crashing', async () => {
    const dead = await deadUrl();
    const bare = await startTestGateway(testConfig({ 'svc-auth': dead, 'svc-email': dead, 'svc-sms': dead }));
    try {
      const res = await get(bare.url + '/contacts');
      expect(res.status).toBe(503);
      expect(res.text).toMatch(/not built/);
      expect((await get(bare.url + '/remotes/mfe-email/remoteEntry.js')).status).toBe(503);
      expect((await get(bare.url + '/healthz')).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});

it('names cache policies by file', () => {
  expect(cacheControlFor('/x/index.html')).toBe('no-cache');
  expect(cacheControlFor('/x/remoteEntry.js')).toBe('no-cache');
  expect(cacheControlFor('/x/123.4f5e6d7c.js')).toBe('public, max-age=31536000, immutable');
  expect(cacheControlFor('/x/logo.svg')).toBe('no-cache');
});
