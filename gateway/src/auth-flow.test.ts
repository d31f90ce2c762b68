import { startServiceProcess, testDbName, type ServiceProcess } from '@act/service-kit/testing';
import type { RunningGateway } from './app';
import { fakeUpstream, get, startTestGateway, testConfig, type FakeUpstream } from './testing';

// Each file starts real service processes (a few seconds each, more on a busy machine).
jest.setTimeout(60_000);

const ADMIN_PASSWORD = 'gateway-admin-pw';
let auth: ServiceProcess;
let email: FakeUpstream;
let sms: FakeUpstream;
let gw: RunningGateway;

beforeAll(async () => {
  auth = await startServiceProcess('svc-auth', {
    MONGODB_URI: process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017',
    MONGODB_DB: testDbName('gw_flow'),
    ADMIN_PASSWORD,
    SESSION_SECRET: 'gateway-flow-secret',
  });
  email = await fakeUpstream('svc-email');
  sms = await fakeUpstream('svc-sms');
  gw = await startTestGateway(testConfig({ 'svc-auth': auth.url, 'svc-email': email.url, 'svc-sms': sms.url }));
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([email?.close(), sms?.close(), auth?.stop()]);
});

const json = (body: unknown, cookie?: string) => ({
  headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
  body: JSON.stringify(body),
});
const cookieOf = (h: Headers) =>
  h
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

async function signIn(username: string, password: string) {
  const res = await get(gw.url + '/api/login', { method: 'POST', ...json({ username, password }) });
  expect(res.status).toBe(200);
  return { cookie: cookieOf(res.headers), user: res.body };
}

it('signs in through the gateway and carries the identity to the other services', async () => {
  const wrong = await get(gw.url + '/api/login', { method: 'POST', ...json({ username: 'admin', password: 'nope' }) });
  expect(wrong).toMatchObject({ status: 401, body: { error: 'Invalid username or password' } });

  expect(await get(gw.url + '/api/user')).toMatchObject({ status: 200, body: { authenticated: false } });

  const login = await get(gw.url + '/api/login', {
    method: 'POST',
    ...json({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  expect(login).toMatchObject({ status: 200, body: { authenticated: true, username: 'admin', role: 'admin' } });
  const sid = login.headers.getSetCookie().find((c) => c.startsWith('act.sid='))!;
  expect(sid).toMatch(/httponly/i);
  expect(sid).toMatch(/samesite=lax/i);
  expect(sid).not.toMatch(/;\s*secure/i);
  const cookie = cookieOf(login.headers);

  expect(await get(gw.url + '/api/user', { headers: { cookie } })).toMatchObject({
    status: 200,
    body: { authenticated: true, id: login.body.id, username: 'admin' },
  });

  const contacts = await get(gw.url + '/api/contacts', { headers: { cookie } });
  expect(contacts.body).toMatchObject({
    service: 'svc-email',
    identity: { user: { id: login.body.id, username: 'admin', role: 'admin' } },
  });
  const smsCall = await get(gw.url + '/api/sms-campaigns', { headers: { cookie } });
  expect(smsCall.body.identity.user).toEqual({ id: login.body.id, username: 'admin', role: 'admin' });

  const users = await get(gw.url + '/api/users', { headers: { cookie } });
  expect(users.status).toBe(200);
  expect(users.body.map((u: { username: string }) => u.username)).toEqual(['admin']);

  const out = await get(gw.url + '/api/logout', { method: 'POST', headers: { cookie } });
  expect(out).toMatchObject({ status: 200, body: { message: 'Logged out' } });
  // No 5-second window after logout: the gateway dropped its cached answer.
  expect((await get(gw.url + '/api/contacts', { headers: { cookie } })).body.identity.user).toBeNull();
  expect((await get(gw.url + '/api/users', { headers: { cookie } })).status).toBe(401);
});

it('a plain user is refused user management; a deleted user is signed out at once', async () => {
  const admin = await signIn('admin', ADMIN_PASSWORD);
  const created = await get(gw.url + '/api/users', {
    method: 'POST',
    ...json(
      { username: 'olga', password: 'olga-pass', email: 'olga@example.com', full_name: 'Olga', role: 'user' },
      admin.cookie,
    ),
  });
  expect(created).toMatchObject({ status: 201, body: { username: 'olga', role: 'user', created_by: admin.user.id } });

  const olga = await signIn('olga', 'olga-pass');
  expect(await get(gw.url + '/api/users', { headers: { cookie: olga.cookie } })).toMatchObject({
    status: 403,
    body: { error: 'Admin access required' },
  });
  const profile = await get(gw.url + '/api/profile', {
    method: 'PATCH',
    ...json({ full_name: 'Olga O', email: 'olga@example.org' }, olga.cookie),
  });
  expect(profile).toMatchObject({
    status: 200,
    body: { authenticated: true, full_name: 'Olga O', email: 'olga@example.org' },
  });
  expect((await get(gw.url + '/api/contacts', { headers: { cookie: olga.cookie } })).body.identity.user).toMatchObject({
    username: 'olga',
    role: 'user',
  });

  expect(
    (await get(gw.url + `/api/users/${created.body.id}`, { method: 'DELETE', headers: { cookie: admin.cookie } }))
      .status,
  ).toBe(200);
  expect((await get(gw.url + '/api/contacts', { headers: { cookie: olga.cookie } })).body.identity.user).toBeNull();
  expect((await get(gw.url + '/api/user', { headers: { cookie: olga.cookie } })).body).toEqual({
    authenticated: false,
  });
});

it('marks the cookie Secure behind an HTTPS terminator only when told to trust it', async () => {
  const untrusted = await get(gw.url + '/api/login', {
    method: 'POST',
    ...json({ username: 'admin', password: ADMIN_PASSWORD }),
    headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
  });
  expect(untrusted.headers.getSetCookie().find((c) => c.startsWith('act.sid='))).not.toMatch(/;\s*secure/i);

  const behindTls = await startTestGateway(
    testConfig({ 'svc-auth': auth.url, 'svc-email': email.url, 'svc-sms': sms.url }, { trustedHops: 1 }),
  );
  try {
    const res = await get(behindTls.url + '/api/login', {
      method: 'POST',
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
      headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
    });
    expect(res.status).toBe(200);
    for (const c of res.headers.getSetCookie()) expect(c).toMatch(/;\s*secure/i);
  } finally {
    await behindTls.close();
  }
});
