import type { RunningGateway } from './app';
import { sessionCookie } from './session';
import { fakeUpstream, get, startTestGateway, testConfig, type FakeUpstream } from './testing';

const alice = { id: 7, username: 'alice', role: 'user' };

let auth: FakeUpstream;
let email: FakeUpstream;
let gw: RunningGateway;
let lookups = 0;
const who: Record<string, unknown> = {};

beforeAll(async () => {
  auth = await fakeUpstream('svc-auth', (req, res, echo) => {
    if (req.url === '/internal/session') {
      lookups += 1;
      const sid = /act\.sid=([^;]+)/.exec(String(req.headers.cookie))?.[1] ?? '';
      // Only the session cookie pair is passed on, signed as "nobody" by the gateway.
      expect(req.headers.cookie).toMatch(/^act\.sid=[^;]+; act\.sid\.sig=[^;]+$/);
      expect(echo.identity).toMatchObject({ user: null });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ user: who[sid] ?? null }));
      return true;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"message":"ok"}');
    return true;
  });
  email = await fakeUpstream('svc-email');
  gw = await startTestGateway(
    testConfig(
      { 'svc-auth': auth.url, 'svc-email': email.url, 'svc-sms': email.url },
      { sessionCacheMs: 400, sessionCacheMax: 3 },
    ),
  );
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([auth?.close(), email?.close()]);
});
beforeEach(() => {
  lookups = 0;
});

const cookieFor = (sid: string) => `theme=dark; act.sid=${sid}; act.sid.sig=sig-${sid}`;
const identityOf = async (cookie?: string) =>
  (await get(gw.url + '/api/contacts', { headers: cookie ? { cookie } : {} })).body.identity;

it('reads the session pair out of a Cookie header', () => {
  expect(sessionCookie('a=1; act.sid=xyz; act.sid.sig=abc')).toEqual({ sid: 'xyz', sig: 'abc' });
  expect(sessionCookie('act.sid=xyz')).toBeNull();
  expect(sessionCookie(undefined)).toBeNull();
});

it('forwards the session user, without asking svc-auth when there is no session cookie', async () => {
  who.s1 = alice;
  expect(await identityOf()).toMatchObject({ user: null });
  expect(lookups).toBe(0);
  expect(await identityOf(cookieFor('s1'))).toMatchObject({ user: alice });
  expect(lookups).toBe(1);
});

it('caches per cookie for the configured time, sharing one lookup between concurrent requests', async () => {
  // The cache's clock (Date) is moved by hand, so the 400 ms of caching do not depend on how quickly a loaded
  // machine answers the six calls; timers and I/O run as usual.
  const t0 = Date.now();
  jest.useFakeTimers({
    doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
    now: t0,
  });
  try {
    who.s2 = alice;
    const ids = await Promise.all([1, 2, 3, 4, 5].map(() => identityOf(cookieFor('s2'))));
    for (const id of ids) expect(id.user).toEqual(alice);
    jest.setSystemTime(t0 + 399);
    expect(await identityOf(cookieFor('s2'))).toMatchObject({ user: alice });
    expect(lookups).toBe(1);
    jest.setSystemTime(t0 + 401);
    who.s2 = { ...alice, role: 'admin' };
    expect((await identityOf(cookieFor('s2'))).user.role).toBe('admin');
    expect(lookups).toBe(2);
  } finally {
    jest.useRealTimers();
  }
});

it('drops the entry when a logout or login goes through', async () => {
  who.s3 = alice;
  await identityOf(cookieFor('s3'));
  delete who.s3; // the session ended in svc-auth
  const out = await get(gw.url + '/api/logout', { method: 'POST', headers: { cookie: cookieFor('s3') } });
  expect(out.status).toBe(200);
  expect(await identityOf(cookieFor('s3'))).toMatchObject({ user: null });
  expect(lookups).toBe(2);
});

it('starts afresh after a user-management change', async () => {
  who.s4 = alice;
  await identityOf(cookieFor('s4'));
  delete who.s4;
  await get(gw.url + '/api/users/7', { method: 'DELETE', headers: { cookie: cookieFor('s4') } });
  expect(await identityOf(cookieFor('s4'))).toMatchObject({ user: null });
});

it('stays bounded: the oldest entries go first', async () => {
  for (const sid of ['b1', 'b2', 'b3', 'b4']) {
    who[sid] = alice;
    await identityOf(cookieFor(sid));
  }
  const before = lookups;
  await identityOf(cookieFor('b4'));
  expect(lookups).toBe(before); // still cached
  await identityOf(cookieFor('b1'));
  expect(lookups).toBe(before + 1); // evicted
});
