import { request } from 'node:http';
import { signIdentity, identitySecret } from '@act/service-kit';
import type { RunningGateway } from './app';
import { freePort } from '@act/service-kit/testing';
import { deadUrl, fakeUpstream, get, startTestGateway, testConfig, type FakeUpstream } from './testing';

let auth: FakeUpstream;
let email: FakeUpstream;
let sms: FakeUpstream;
let gw: RunningGateway;

beforeAll(async () => {
  auth = await fakeUpstream('svc-auth', (req, res) => {
    if (req.url === '/internal/session') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ user: null }));
      return true;
    }
    if (req.url === '/api/login') {
      res.writeHead(200, {
        'content-type': 'application/json',
        'set-cookie': ['act.sid=abc; path=/; httponly', 'act.sid.sig=def; path=/; httponly'],
      });
      res.end('{}');
      return true;
    }
  });
  email = await fakeUpstream('svc-email');
  sms = await fakeUpstream('svc-sms');
  gw = await startTestGateway(testConfig({ 'svc-auth': auth.url, 'svc-email': email.url, 'svc-sms': sms.url }));
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([auth, email, sms].map((u) => u?.close()));
});

/** A raw request through the gateway whose body `send` writes (in parts, or never whole); resolves with the answer. */
function rawRequest(path: string, headers: Record<string, string>, send: (req: ReturnType<typeof request>) => void) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(gw.url + path, { method: 'POST', headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    send(req);
  });
}

describe('routing', () => {
  it.each([
    ['/api/users/3', 'svc-auth'],
    ['/api/profile', 'svc-auth'],
    ['/api/sms-campaigns/2', 'svc-sms'],
    ['/api/twilio/config', 'svc-sms'],
    ['/api/contacts?status=pending', 'svc-email'],
    ['/api/no-such-thing', 'svc-email'],
  ])('%s goes to %s with path and query intact', async (path, service) => {
    const res = await get(gw.url + path);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ service, url: path, method: 'GET' });
  });

  it('streams request bodies through and passes Set-Cookie back', async () => {
    const body = JSON.stringify({ type: 'contact.created', data: { email: 'a@b.co' } });
    const res = await get(gw.url + '/api/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.body).toMatchObject({ service: 'svc-email', method: 'POST', body });
    const login = await get(gw.url + '/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(login.headers.getSetCookie()).toEqual([
      'act.sid=abc; path=/; httponly',
      'act.sid.sig=def; path=/; httponly',
    ]);
  });
});

describe('streaming', () => {
  it('passes a chunked body (no declared length) through whole, and no hop-by-hop header', async () => {
    const echo = await rawRequest('/api/webhook', { 'content-type': 'application/json', 'keep-alive': 'timeout=5', te: 'trailers' }, (req) => {
      req.write('{"part":');
      setTimeout(() => req.end('"two"}'), 50);
    });
    expect(echo.status).toBe(200);
    const seen = JSON.parse(echo.body);
    expect(seen.body).toBe('{"part":"two"}');
    expect(seen.headers['keep-alive']).toBeUndefined();
    expect(seen.headers.te).toBeUndefined();
    expect(seen.headers['x-forwarded-host']).toBe(new URL(gw.url).host);
  });

  it('aborts the call to the service when the client goes away', async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((r) => (upstreamClosed = r));
    let upstreamReached!: () => void;
    const reached = new Promise<void>((r) => (upstreamReached = r));
    const slow = await fakeUpstream('svc-email', (_req, res) => {
      res.once('close', () => upstreamClosed());
      upstreamReached();
      return true; // never answers
    });
    const gw2 = await startTestGateway(
      testConfig({ 'svc-auth': auth.url, 'svc-email': slow.url, 'svc-sms': sms.url }, { proxyTimeoutMs: 30_000 }),
    );
    try {
      const req = request(gw2.url + '/api/webhook', { method: 'POST' });
      req.on('error', () => undefined);
      req.end('{}');
      // Gone once the call has reached the service (not after 200 ms, which a loaded machine may not have used to
      // forward it yet: the service would never see a call to close).
      await reached;
      req.destroy();
      const kept = new Promise((_, reject) => setTimeout(() => reject(new Error('the call to the service was kept open')), 5_000));
      await Promise.race([closed, kept]);
    } finally {
      await gw2.close();
      await slow.close();
    }
  });
});

describe('identity header', () => {
  it("signs the identity itself and never forwards the client's", async () => {
    const forged = signIdentity({ id: 1, username: 'admin', role: 'admin' }, 'guessed-secret');
    const realLooking = signIdentity({ id: 1, username: 'admin', role: 'admin' }, identitySecret());
    for (const header of [forged, realLooking]) {
      const res = await get(gw.url + '/api/contacts', { headers: { 'x-act-identity': header } });
      expect(res.body.identityHeader).not.toBe(header);
      expect(res.body.identity).toMatchObject({ user: null, iat: expect.any(Number) });
    }
  });

  it('public webhook paths are signed "nobody" without asking svc-auth, even with a cookie', async () => {
    const before = auth.requests.length;
    for (const path of ['/api/webhook', '/api/sms/webhook', '/api/twilio/webhooks', '/api/unsubscribe']) {
      const res = await get(gw.url + path, {
        method: 'POST',
        headers: { cookie: 'act.sid=x; act.sid.sig=y' },
        body: '{}',
      });
      expect(res.body.identity).toMatchObject({ user: null });
    }
    expect(auth.requests.slice(before).filter((r) => r.url === '/internal/session')).toHaveLength(0);
  });

  it('replaces client X-Forwarded-* with what the gateway saw', async () => {
    const res = await get(gw.url + '/api/contacts', {
      headers: { 'x-forwarded-for': '6.6.6.6', 'x-forwarded-proto': 'https' },
    });
    expect(res.body.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(res.body.headers['x-forwarded-proto']).toBe('http');
  });
});

describe('limits and failures', () => {
  it('refuses a declared body over 1 MB with 413 JSON before proxying', async () => {
    const before = email.requests.length;
    const status = await rawRequest('/api/webhook', { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) }, (req) => {
      req.write('{"a":"');
      // Never sends the rest: the answer must come from the declared length alone.
    });
    expect(status.status).toBe(413);
    expect(JSON.parse(status.body)).toEqual({ error: 'Request body too large' });
    expect(email.requests.length).toBe(before);
  });

  it('answers 503 "<service> unavailable" at once when a service is down, not after a timeout', async () => {
    const dead = await deadUrl();
    // The session lookup waits at most min(proxy timeout, 5 s): each answer coming sooner than that was not a
    // timeout but the refused connection. (No tighter figure: a loaded machine must not fail this; see bench/.)
    const SHORTEST_TIMEOUT_MS = 5_000;
    const gw2 = await startTestGateway(
      testConfig({ 'svc-auth': dead, 'svc-email': dead, 'svc-sms': dead }, { proxyTimeoutMs: 60_000 }),
    );
    const timed = async (path: string, init: Parameters<typeof get>[1]) => {
      const started = Date.now();
      const res = await get(gw2.url + path, init);
      return { status: res.status, body: res.body, soonerThanATimeout: Date.now() - started < SHORTEST_TIMEOUT_MS };
    };
    try {
      expect(await timed('/api/webhook', { method: 'POST', body: '{}' })).toMatchObject({
        status: 503,
        body: { error: 'svc-email unavailable' },
        soonerThanATimeout: true,
      });
      expect(await timed('/api/sms/webhook', { method: 'POST', body: '{}' })).toMatchObject({
        status: 503,
        body: { error: 'svc-sms unavailable' },
        soonerThanATimeout: true,
      });
      expect(await timed('/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).toMatchObject({
        status: 503,
        body: { error: 'svc-auth unavailable' },
        soonerThanATimeout: true,
      });
      // A session lookup that cannot reach svc-auth is a 503 too, not a signed-out request.
      expect(await timed('/api/contacts', { headers: { cookie: 'act.sid=a; act.sid.sig=b' } })).toMatchObject({
        status: 503,
        body: { error: 'svc-auth unavailable' },
        soonerThanATimeout: true,
      });
    } finally {
      await gw2.close();
    }
  }, 60_000);

  it('answers 503 when a service does not answer within the proxy timeout', async () => {
    const slow = await fakeUpstream('svc-email', () => true); // never answers
    const gw2 = await startTestGateway(
      testConfig({ 'svc-auth': auth.url, 'svc-email': slow.url, 'svc-sms': sms.url }, { proxyTimeoutMs: 300 }),
    );
    try {
      const started = Date.now();
      expect(await get(gw2.url + '/api/contacts')).toMatchObject({
        status: 503,
        body: { error: 'svc-email unavailable' },
      });
      // It waited for the 300 ms timeout (a lower bound holds on any machine); a gateway that never gave up
      // would fail this test by jest's timeout instead of by a wall-clock figure.
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      await gw2.close();
      await slow.close();
    }
  });
});

describe('health', () => {
  it("/healthz is the gateway's own; /readyz aggregates the services': ready or not in public, detail on the internal port", async () => {
    expect(await get(gw.url + '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    // The fakes answer /readyz with 200 (their echo), so all are ready.
    expect(await get(gw.url + '/readyz')).toEqual(expect.objectContaining({ status: 200, body: { status: 'ready' } }));

    const gw2 = await startTestGateway(
      testConfig({ 'svc-auth': auth.url, 'svc-email': await deadUrl(), 'svc-sms': sms.url }, { internalPort: await freePort() }),
    );
    try {
      // Public: nothing about which service or dependency is down.
      expect(await get(gw2.url + '/readyz')).toEqual(expect.objectContaining({ status: 503, body: { status: 'not ready' } }));
      const notReady = await get(gw2.internalUrl + '/readyz');
      expect(notReady).toMatchObject({
        status: 503,
        body: {
          status: 'not ready',
          services: { 'svc-auth': { ready: true }, 'svc-email': { ready: false, error: 'ECONNREFUSED' } },
        },
      });
      // The internal port serves nothing else (no /api, no pages).
      expect((await get(gw2.internalUrl + '/api/contacts')).status).toBe(404);
    } finally {
      await gw2.close();
    }
  });
});
