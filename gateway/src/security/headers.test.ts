import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunningGateway } from '../app';
import { fakeUpstream, get, startTestGateway, testConfig, type FakeUpstream } from '../testing';
import { remoteOrigins } from './headers';

let dir: string;
let email: FakeUpstream;
let plain: RunningGateway;
let secure: RunningGateway;
const CDN = 'https://cdn.example.com';

/** CSP directive name → its sources. */
function csp(header: string | null): Record<string, string[]> {
  expect(header).toBeTruthy();
  return Object.fromEntries(
    header!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'gw-headers-'));
  const shell = path.join(dir, 'shell');
  const remote = path.join(dir, 'mfe-email');
  mkdirSync(shell, { recursive: true });
  mkdirSync(remote, { recursive: true });
  writeFileSync(path.join(shell, 'index.html'), '<!doctype html><script defer src="/main.js"></script><div id="root"></div>');
  writeFileSync(path.join(remote, 'remoteEntry.js'), 'var mfe_email;');
  email = await fakeUpstream('svc-email');
  const upstreams = { 'svc-auth': email.url, 'svc-email': email.url, 'svc-sms': email.url };
  const dirs = { shellDir: shell, remoteDirs: { 'mfe-email': remote, 'mfe-sms': path.join(dir, 'none') } };
  [plain, secure] = await Promise.all([
    startTestGateway(
      testConfig(upstreams, {
        ...dirs,
        remotes: { mfe_email: '/remotes/mfe-email/mf-manifest.json', mfe_sms: `${CDN}/mfe-sms/mf-manifest.json` },
        publicUrl: 'http://127.0.0.1:8080',
      }),
    ),
    startTestGateway(testConfig(upstreams, { ...dirs, publicUrl: 'https://carts.example.com' })),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), secure?.close(), email?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('security headers', () => {
  it('the shell page has a strict Content-Security-Policy: scripts from us and the remotes only, never inline', async () => {
    const res = await get(plain.url + '/contacts');
    expect(res.status).toBe(200);
    const policy = csp(res.headers.get('content-security-policy'));
    expect(policy['default-src']).toEqual(["'self'"]);
    expect(policy['script-src']).toEqual(["'self'", CDN]);
    expect(policy['script-src-attr']).toEqual(["'none'"]);
    expect(policy['connect-src']).toEqual(["'self'", CDN]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['base-uri']).toEqual(["'self'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    // emotion's runtime <style> elements (and the preview frame's email styles); never for scripts.
    expect(policy['style-src']).toEqual(["'self'", "'unsafe-inline'", CDN]);
    for (const [name, sources] of Object.entries(policy))
      if (name.startsWith('script-src')) expect([name, sources]).not.toEqual([name, expect.arrayContaining(["'unsafe-inline'"])]);
    expect(Object.values(policy).flat()).not.toContain("'unsafe-eval'");
  });

  it('cannot be framed, is never content-sniffed, keeps its referrer on its own origin', async () => {
    for (const p of ['/', '/remotes.json', '/remotes/mfe-email/remoteEntry.js', '/api/contacts', '/healthz', '/nope.js']) {
      const res = await get(plain.url + p);
      expect([p, res.headers.get('x-frame-options')]).toEqual([p, 'DENY']);
      expect([p, res.headers.get('x-content-type-options')]).toEqual([p, 'nosniff']);
      expect([p, res.headers.get('referrer-policy')]).toEqual([p, 'same-origin']);
      expect([p, csp(res.headers.get('content-security-policy'))['frame-ancestors']]).toEqual([p, ["'none'"]]);
    }
  });

  it('the /api answers the proxy writes carry them too, alongside the service’s own headers', async () => {
    const res = await get(plain.url + '/api/contacts');
    expect(res.status).toBe(200);
    expect(res.body.url).toBe('/api/contacts');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('sends HSTS (and upgrade-insecure-requests) only when PUBLIC_URL is https', async () => {
    const http = await get(plain.url + '/');
    expect(http.headers.get('strict-transport-security')).toBeNull();
    expect(csp(http.headers.get('content-security-policy'))).not.toHaveProperty('upgrade-insecure-requests');
    for (const p of ['/', '/api/contacts']) {
      const https = await get(secure.url + p);
      expect([p, https.headers.get('strict-transport-security')]).toEqual([p, 'max-age=31536000; includeSubDomains']);
    }
    expect(csp((await get(secure.url + '/')).headers.get('content-security-policy'))).toHaveProperty('upgrade-insecure-requests');
  });

  it('remote assets stay loadable from another origin (CORS and a cross-origin resource policy)', async () => {
    const res = await get(plain.url + '/remotes/mfe-email/remoteEntry.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect((await get(plain.url + '/')).headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });
});

describe('remoteOrigins', () => {
  it('takes the origin of every absolute manifest URL once; relative ones are the gateway itself', () => {
    expect(remoteOrigins({ mfe_email: '/remotes/mfe-email/mf-manifest.json', mfe_sms: '/remotes/mfe-sms/mf-manifest.json' })).toEqual([]);
    expect(
      remoteOrigins({ mfe_email: 'https://a.example.com:8443/e/mf-manifest.json', mfe_sms: 'https://a.example.com:8443/s/mf-manifest.json' }),
    ).toEqual(['https://a.example.com:8443']);
  });
});
