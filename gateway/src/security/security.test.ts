import { request } from 'node:http';
import type { RunningGateway } from '../app';
import { fakeUpstream, get, startTestGateway, testConfig, type FakeUpstream } from '../testing';
import { clientAddress, clientProto, parseTrustedHops } from './client-address';

let auth: FakeUpstream;
let email: FakeUpstream;
let sms: FakeUpstream;
let gw: RunningGateway;
const PUBLIC = 'https://carts.example.com';

beforeAll(async () => {
  auth = await fakeUpstream('svc-auth', (req, res) => {
    if (req.url === '/internal/session') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ user: { id: 1, username: 'admin', role: 'admin' } }));
      return true;
    }
  });
  email = await fakeUpstream('svc-email');
  sms = await fakeUpstream('svc-sms');
  gw = await startTestGateway(
    testConfig({ 'svc-auth': auth.url, 'svc-email': email.url, 'svc-sms': sms.url }, { publicUrl: PUBLIC }),
  );
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([auth, email, sms].map((u) => u?.close()));
});

const cookie = 'act.sid=abc; act.sid.sig=def';
const post = (path: string, headers: Record<string, string>, body = '{"name":"x"}') =>
  get(gw.url + path, { method: 'POST', headers: { cookie, ...headers }, body });

describe('CSRF: state-changing browser calls', () => {
  it('refuses a form post (text/plain, urlencoded, multipart) with a cookie, before any service sees it', async () => {
    const before = email.requests.length + auth.requests.filter((r) => r.url !== '/internal/session').length;
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await post('/api/sms-campaigns', { 'content-type': type });
      expect([res.status, res.body]).toEqual([415, { error: 'Content-Type must be application/json' }]);
      expect((await post('/api/users', { 'content-type': type })).status).toBe(415);
    }
    expect(email.requests.length + auth.requests.filter((r) => r.url !== '/internal/session').length).toBe(before);
    expect(sms.requests).toHaveLength(0);
  });

  it("refuses another origin (another port of the same host too) and a cross-site Sec-Fetch-Site, with a clear 403", async () => {
    const host = new URL(gw.url).host;
    for (const origin of ['http://evil.example', `http://${host.split(':')[0]}:1`, 'null', 'https://carts.example.com.evil.example']) {
      const res = await post('/api/sms-campaigns', { 'content-type': 'application/json', origin });
      expect([origin, res.status, res.body?.error]).toEqual([
        origin,
        403,
        'Cross-site request refused: this call must come from the app itself',
      ]);
    }
    for (const site of ['cross-site', 'same-site']) {
      const res = await post('/api/campaigns', { 'content-type': 'application/json', 'sec-fetch-site': site });
      expect(res.status).toBe(403);
    }
    const del = await get(`${gw.url}/api/users/2`, { method: 'DELETE', headers: { cookie, origin: 'http://evil.example' } });
    expect(del.status).toBe(403);
    expect(sms.requests).toHaveLength(0);
  });

  it("passes the app's own calls: PUBLIC_URL's origin, the origin the browser addressed, same-origin fetches, scripts", async () => {
    const own: Record<string, string>[] = [
      { origin: PUBLIC },
      { origin: gw.url },
      { 'sec-fetch-site': 'same-origin' },
      {}, // curl and scripts send neither header
    ];
    for (const extra of own) {
      const res = await post('/api/sms-campaigns', { 'content-type': 'application/json; charset=utf-8', ...extra });
      expect(res.status).toBe(200);
      expect(res.body.body).toBe('{"name":"x"}');
    }
    // A bodyless action (logout, clear, process) needs no Content-Type.
    const bodyless = await get(`${gw.url}/api/logout`, { method: 'POST', headers: { cookie, origin: PUBLIC } });
    expect(bodyless.status).toBe(200);
    // Reads are never refused, whatever page asks.
    expect((await get(`${gw.url}/api/sms-campaigns`, { headers: { cookie, origin: 'http://evil.example' } })).status).toBe(200);
  });

  it('leaves the public endpoints to their own rules (senders, Twilio, mail clients post forms from anywhere)', async () => {
    for (const path of ['/api/webhook', '/api/sms/webhook', '/api/twilio/webhooks/status', '/api/unsubscribe/one-click']) {
      const res = await get(gw.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect([path, res.status]).toEqual([path, 200]);
    }
  });
});

describe('methods /api does not answer', () => {
  const raw = (method: string, path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(gw.url + path, { method }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end();
    });

  it('answers TRACE, PROPFIND, SEARCH and other methods with 405, never a 500, without reaching a service', async () => {
    const before = email.requests.length;
    for (const method of ['TRACE', 'PROPFIND', 'SEARCH', 'MKCOL', 'LOCK', 'PURGE']) {
      const res = await raw(method, '/api/contacts');
      expect([method, res.status, JSON.parse(res.body)]).toEqual([method, 405, { error: `Method ${method} is not allowed` }]);
    }
    expect(email.requests.length).toBe(before);
  });
});

describe('the client address behind proxies (TRUST_PROXY)', () => {
  const req = (xff: string | undefined, peer = '10.0.0.9', proto?: string) =>
    ({
      headers: { ...(xff === undefined ? {} : { 'x-forwarded-for': xff }), ...(proto ? { 'x-forwarded-proto': proto } : {}) },
      socket: { remoteAddress: peer },
    }) as unknown as import('node:http').IncomingMessage;

  it('takes the rightmost hop no trusted proxy vouches for, ignoring what the client wrote to the left', () => {
    expect(clientAddress(req('1.1.1.1, 2.2.2.2'), 0)).toBe('10.0.0.9');
    // One load balancer (10.0.0.9) appended the address it saw: 203.0.113.7; "1.1.1.1" was the client's own claim.
    expect(clientAddress(req('1.1.1.1, 203.0.113.7'), 1)).toBe('203.0.113.7');
    expect(clientAddress(req('1.1.1.1,198.51.100.2, 203.0.113.7'), 2)).toBe('198.51.100.2');
    // Fewer entries than trusted hops: the leftmost there is.
    expect(clientAddress(req(undefined), 2)).toBe('10.0.0.9');
    expect(clientProto(req('x', '10.0.0.9', 'http, https'), 1)).toBe('https');
    expect(clientProto(req('x', '10.0.0.9', 'https'), 0)).toBe('http');
  });

  it('reads TRUST_PROXY as false, true or a count, and refuses anything else at start', () => {
    expect([undefined, 'false', '0', 'off', 'true', '1', '2'].map(parseTrustedHops)).toEqual([0, 0, 0, 0, 1, 1, 2]);
    expect(() => parseTrustedHops('10.0.0.1')).toThrow(/TRUST_PROXY must be/);
  });

  it('sends the services one address: a rotated X-Forwarded-For does not change it', async () => {
    const behind = await startTestGateway(
      testConfig({ 'svc-auth': auth.url, 'svc-email': email.url, 'svc-sms': sms.url }, { trustedHops: 1 }),
    );
    const direct = gw;
    try {
      const seen: string[] = [];
      for (const spoof of ['1.1.1.1', '2.2.2.2', '3.3.3.3, 4.4.4.4']) {
        const res = await get(`${behind.url}/api/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `${spoof}, 203.0.113.7` },
          body: '{}',
        });
        seen.push(res.body.headers['x-forwarded-for']);
        const plain = await get(`${direct.url}/api/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': spoof },
          body: '{}',
        });
        expect(plain.body.headers['x-forwarded-for']).toBe('127.0.0.1');
      }
      expect(seen).toEqual(['203.0.113.7', '203.0.113.7', '203.0.113.7']);
    } finally {
      await behind.close();
    }
  });
});
