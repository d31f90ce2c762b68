import { call, type ServiceProcess } from '@act/service-kit/testing';
import { ADMIN_PASSWORD, cookieHeader, freshAddress, login, startAuth } from '../testing';

// Each file starts real service processes (a few seconds each, more on a busy machine).
jest.setTimeout(60_000);

let svc: ServiceProcess;
beforeAll(async () => {
  svc = await startAuth('auth');
});
afterAll(() => svc?.stop());

const asBrowser = (extra: Record<string, string> = {}) => ({
  user: null,
  headers: { 'x-forwarded-for': freshAddress(), ...extra },
});

describe('bootstrap admin', () => {
  it('signs in with ADMIN_PASSWORD and answers the current-user shape without any password field', async () => {
    const res = await call(svc.url, 'POST', '/api/login', {
      ...asBrowser(),
      body: { username: 'admin', password: ADMIN_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      authenticated: true,
      id: expect.any(Number),
      username: 'admin',
      email: null,
      full_name: null,
      role: 'admin',
      created_by: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(res.text).not.toMatch(/password/i);
  });

  it('is never recreated: a restart with another ADMIN_PASSWORD keeps the first one', async () => {
    const db = `t_auth_restart_${process.pid}_${Date.now().toString(36)}`;
    const first = await startAuth('x', { MONGODB_DB: db, ADMIN_PASSWORD: 'first-password' });
    await first.stop();
    const second = await startAuth('x', { MONGODB_DB: db, ADMIN_PASSWORD: 'second-password' });
    try {
      expect(
        (
          await call(second.url, 'POST', '/api/login', {
            ...asBrowser(),
            body: { username: 'admin', password: 'first-password' },
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await call(second.url, 'POST', '/api/login', {
            ...asBrowser(),
            body: { username: 'admin', password: 'second-password' },
          })
        ).status,
      ).toBe(401);
    } finally {
      await second.stop();
    }
  });

  it('without ADMIN_PASSWORD prints a random password once, clearly marked, and it works', async () => {
    const db = `t_auth_random_${process.pid}_${Date.now().toString(36)}`;
    const first = await startAuth('x', { MONGODB_DB: db, ADMIN_PASSWORD: '' });
    let password: string;
    try {
      const match = /INITIAL ADMIN PASSWORD \(shown once\): admin \/ (\S+) \*\*\*/.exec(first.output());
      expect(match).not.toBeNull();
      password = match![1];
      expect(
        (await call(first.url, 'POST', '/api/login', { ...asBrowser(), body: { username: 'admin', password } })).status,
      ).toBe(200);
    } finally {
      await first.stop();
    }
    const second = await startAuth('x', { MONGODB_DB: db, ADMIN_PASSWORD: '' });
    try {
      expect(second.output()).not.toContain('INITIAL ADMIN PASSWORD');
    } finally {
      await second.stop();
    }
  });
});

describe('login', () => {
  it('refuses wrong credentials with 401 and the message the sign-in toast shows', async () => {
    const wrong = await call(svc.url, 'POST', '/api/login', {
      ...asBrowser(),
      body: { username: 'admin', password: 'nope-nope' },
    });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'Invalid username or password' } });
    const unknown = await call(svc.url, 'POST', '/api/login', {
      ...asBrowser(),
      body: { username: 'ghost', password: 'whatever' },
    });
    expect(unknown).toMatchObject({ status: 401, body: { error: 'Invalid username or password' } });
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it('requires both fields', async () => {
    expect(await call(svc.url, 'POST', '/api/login', { ...asBrowser(), body: { password: 'x' } })).toMatchObject({
      status: 400,
      body: { error: 'Username is required' },
    });
    expect(
      await call(svc.url, 'POST', '/api/login', { ...asBrowser(), body: { username: 'admin', password: '' } }),
    ).toMatchObject({ status: 400, body: { error: 'Password is required' } });
    expect(
      await call(svc.url, 'POST', '/api/login', { ...asBrowser(), body: { username: { $ne: 1 }, password: 'x' } }),
    ).toMatchObject({ status: 400 });
    expect(await call(svc.url, 'POST', '/api/login', { ...asBrowser(), raw: '{bad' })).toMatchObject({
      status: 400,
      body: { error: 'Invalid JSON body' },
    });
  });

  it('answers 429 after 5 failures of one username from one address, for that address only', async () => {
    const created = await call(svc.url, 'POST', '/api/users', {
      body: { username: 'victim', password: 'victim-pass', role: 'user' },
    });
    expect([created.status, created.status === 201 ? null : created.text]).toEqual([201, null]);
    const attacker = freshAddress();
    const from = (address: string, password: string) =>
      call(svc.url, 'POST', '/api/login', {
        user: null,
        headers: { 'x-forwarded-for': address },
        body: { username: 'victim', password },
      });
    for (let i = 0; i < 5; i++) expect((await from(attacker, `wrong-${i}`)).status).toBe(401);
    expect(await from(attacker, 'victim-pass')).toMatchObject({
      status: 429,
      body: { error: 'Too many failed login attempts. Please wait a minute and try again.' },
    });
    // The owner, elsewhere, is not locked out by it.
    expect((await from(freshAddress(), 'victim-pass')).status).toBe(200);
  });

  it('cannot lock an account from many addresses: past 5 failures each attempt waits longer, the right password still gets in', async () => {
    await call(svc.url, 'POST', '/api/users', { body: { username: 'Target', password: 'target-pass', role: 'user' } });
    // Any case, and NFKC forms, count as the same username (full-width "ＴＡＲＧＥＴ").
    const names = ['target', 'TARGET', 'Target', '\uff34\uff21\uff32\uff27\uff25\uff34'];
    for (let i = 0; i < 8; i++) {
      const r = await call(svc.url, 'POST', '/api/login', { ...asBrowser(), body: { username: names[i % names.length], password: 'nope' } });
      expect(r.status).toBe(401);
    }
    // 8 failures, 5 allowed: the next attempt waits 250 x 2^3 = 2 s before its password is checked.
    const started = Date.now();
    const right = await call(svc.url, 'POST', '/api/login', { ...asBrowser(), body: { username: 'target', password: 'target-pass' } });
    const waited = Date.now() - started;
    expect([right.status, right.body.username]).toEqual([200, 'Target']);
    expect(waited).toBeGreaterThanOrEqual(1_900);
    expect((await call(svc.url, 'POST', '/api/login', { ...asBrowser(), body: { username: 'TARGET', password: 'target-pass' } })).status).toBe(200);
  });

  it('answers 429 after 5 failures in a minute from one address, whatever the usernames', async () => {
    const address = freshAddress();
    for (let i = 0; i < 5; i++) {
      const res = await call(svc.url, 'POST', '/api/login', {
        user: null,
        headers: { 'x-forwarded-for': address },
        body: { username: `nobody${i}`, password: 'wrong-pw' },
      });
      expect(res.status).toBe(401);
    }
    const blocked = await call(svc.url, 'POST', '/api/login', {
      user: null,
      headers: { 'x-forwarded-for': address },
      body: { username: 'someone', password: 'wrong-pw' },
    });
    expect(blocked.status).toBe(429);
  });
});

describe('session cookie and current user', () => {
  let fresh: ServiceProcess;
  beforeAll(async () => {
    // Its own process: the throttling tests above lock the admin account on the shared one.
    fresh = await startAuth('auth_cookie');
  });
  afterAll(() => fresh?.stop());

  it('sets act.sid HttpOnly, SameSite=Lax, signed, 7 days, not Secure over plain HTTP', async () => {
    const res = await call(fresh.url, 'POST', '/api/login', {
      ...asBrowser(),
      body: { username: 'admin', password: ADMIN_PASSWORD },
    });
    const cookies = res.headers.getSetCookie();
    const sid = cookies.find((c) => c.startsWith('act.sid='))!;
    expect(sid).toBeDefined();
    expect(cookies.some((c) => c.startsWith('act.sid.sig='))).toBe(true);
    expect(sid).toMatch(/;\s*httponly/i);
    expect(sid).toMatch(/;\s*samesite=lax/i);
    expect(sid).toMatch(/;\s*path=\//i);
    expect(sid).not.toMatch(/;\s*secure/i);
    const expires = new Date(/expires=([^;]+)/i.exec(sid)![1]).getTime();
    expect(expires - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);
    expect(expires - Date.now()).toBeLessThan(7.1 * 24 * 3600_000);
  });

  it('marks the cookie Secure when the gateway says the request came over HTTPS', async () => {
    const res = await call(fresh.url, 'POST', '/api/login', {
      ...asBrowser({ 'x-forwarded-proto': 'https' }),
      body: { username: 'admin', password: ADMIN_PASSWORD },
    });
    expect(res.status).toBe(200);
    for (const c of res.headers.getSetCookie()) expect(c).toMatch(/;\s*secure/i);
  });

  it('GET /api/user: authenticated false when signed out, the user when signed in, rolling the cookie', async () => {
    expect(await call(fresh.url, 'GET', '/api/user', { user: null })).toMatchObject({
      status: 200,
      body: { authenticated: false },
    });
    const { cookie, user } = await login(fresh.url, 'admin', ADMIN_PASSWORD);
    const me = await call(fresh.url, 'GET', '/api/user', { user: null, headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body).toEqual(user);
    expect(me.headers.getSetCookie().some((c) => c.startsWith('act.sid='))).toBe(true);
    // A forged (unsigned) cookie is no session.
    const forged = cookie.replace(/act\.sid\.sig=[^;]+/, 'act.sid.sig=AAAA');
    expect((await call(fresh.url, 'GET', '/api/user', { user: null, headers: { cookie: forged } })).body).toEqual({
      authenticated: false,
    });
  });

  it('gives a new session id at login (no fixation) and ends the session at logout', async () => {
    const { cookie } = await login(fresh.url, 'admin', ADMIN_PASSWORD);
    const again = await call(fresh.url, 'POST', '/api/login', {
      ...asBrowser({ cookie }),
      body: { username: 'admin', password: ADMIN_PASSWORD },
    });
    const newCookie = cookieHeader(again.headers);
    expect(newCookie).toMatch(/act\.sid=/);
    expect(newCookie.match(/act\.sid=([^;]+)/)![1]).not.toBe(cookie.match(/act\.sid=([^;]+)/)![1]);
    // The pre-login id no longer resolves.
    expect((await call(fresh.url, 'GET', '/api/user', { user: null, headers: { cookie } })).body).toEqual({
      authenticated: false,
    });

    const out = await call(fresh.url, 'POST', '/api/logout', { user: null, headers: { cookie: newCookie } });
    expect(out).toMatchObject({ status: 200, body: { message: 'Logged out' } });
    expect(out.headers.getSetCookie().find((c) => c.startsWith('act.sid='))).toMatch(/expires=Thu, 01 Jan 1970/);
    expect((await call(fresh.url, 'GET', '/api/user', { user: null, headers: { cookie: newCookie } })).body).toEqual({
      authenticated: false,
    });
  });

  it('GET /internal/session tells the gateway who the cookie belongs to', async () => {
    const { cookie, user } = await login(fresh.url, 'admin', ADMIN_PASSWORD);
    const res = await call(fresh.url, 'GET', '/internal/session', { user: null, headers: { cookie } });
    expect(res).toMatchObject({ status: 200, body: { user: { id: user.id, username: 'admin', role: 'admin' } } });
    expect(Object.keys(res.body.user).sort()).toEqual(['id', 'role', 'username']);
    // Reading the identity does not roll (write) the session.
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await call(fresh.url, 'GET', '/internal/session', { user: null })).body).toEqual({ user: null });
  });
});

describe('gateway identity', () => {
  it('refuses calls without or with a bad signed header, public ones included', async () => {
    for (const [method, path] of [
      ['GET', '/api/user'],
      ['POST', '/api/login'],
      ['GET', '/internal/session'],
      ['GET', '/api/users'],
    ]) {
      const bare = await fetch(svc.url + path, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'POST' ? '{}' : undefined,
      });
      expect(bare.status).toBe(401);
      expect(await bare.json()).toEqual({ error: 'Unauthorized: missing or invalid gateway identity' });
    }
    const forged = await fetch(svc.url + '/api/users', {
      headers: { 'x-act-identity': 'eyJ1c2VyIjpudWxsfQ.deadbeef' },
    });
    expect(forged.status).toBe(401);
    expect((await fetch(svc.url + '/healthz')).status).toBe(200);
  });
});
