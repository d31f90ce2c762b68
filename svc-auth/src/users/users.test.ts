import { call, type ServiceProcess } from '@act/service-kit/testing';
import type { CurrentUserDto } from '@act/contracts/src/auth-api';
import { ADMIN_PASSWORD, asIdentity, login, startAuth } from '../testing';

// Each file starts real service processes (a few seconds each, more on a busy machine).
jest.setTimeout(60_000);

let svc: ServiceProcess;
let admin: CurrentUserDto;
beforeAll(async () => {
  svc = await startAuth('users');
  admin = (await login(svc.url, 'admin', ADMIN_PASSWORD)).user;
});
afterAll(() => svc?.stop());

const asAdmin = () => ({ user: asIdentity(admin) });

describe('users as admin', () => {
  it('creates, lists, edits, resets the password of and deletes a user', async () => {
    const created = await call(svc.url, 'POST', '/api/users', {
      ...asAdmin(),
      body: {
        username: '  alice ',
        password: 'alice-pass',
        email: 'alice@example.com',
        full_name: 'Alice A',
        role: 'user',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      username: 'alice',
      email: 'alice@example.com',
      full_name: 'Alice A',
      role: 'user',
      created_by: admin.id,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const alice = created.body;

    const list = await call(svc.url, 'GET', '/api/users', asAdmin());
    expect(list.status).toBe(200);
    expect(list.body.map((u: { username: string }) => u.username)).toEqual(['admin', 'alice']);
    expect(list.text).not.toMatch(/password/i);

    const edited = await call(svc.url, 'PATCH', `/api/users/${alice.id}`, {
      ...asAdmin(),
      body: { email: '', full_name: '  ', role: 'admin' },
    });
    expect(edited).toMatchObject({ status: 200, body: { id: alice.id, email: null, full_name: null, role: 'admin' } });

    const reset = await call(svc.url, 'POST', `/api/users/${alice.id}/reset-password`, {
      ...asAdmin(),
      body: { password: 'new-alice-pass' },
    });
    expect(reset).toMatchObject({ status: 200, body: { message: 'Password reset successfully' } });
    await expect(login(svc.url, 'alice', 'alice-pass')).rejects.toThrow(/401/);
    const { user } = await login(svc.url, 'alice', 'new-alice-pass');
    expect(user.role).toBe('admin');

    const deleted = await call(svc.url, 'DELETE', `/api/users/${alice.id}`, asAdmin());
    expect(deleted).toMatchObject({ status: 200, body: { message: 'User deleted successfully' } });
    expect(
      (await call(svc.url, 'GET', '/api/users', asAdmin())).body.map((u: { username: string }) => u.username),
    ).toEqual(['admin']);
  });

  it('applies the spec rules with its messages', async () => {
    const create = (body: object) => call(svc.url, 'POST', '/api/users', { ...asAdmin(), body });
    const valid = { username: 'bob', password: 'bob-pass', email: '', full_name: '', role: 'user' };
    expect(await create({ ...valid, username: '' })).toMatchObject({
      status: 400,
      body: { error: 'Username is required' },
    });
    expect(await create({ ...valid, username: 'ab' })).toMatchObject({
      status: 400,
      body: { error: 'Username must be at least 3 characters' },
    });
    expect(await create({ ...valid, password: undefined })).toMatchObject({
      status: 400,
      body: { error: 'Password is required' },
    });
    expect(await create({ ...valid, password: '12345' })).toMatchObject({
      status: 400,
      body: { error: 'Password must be at least 6 characters' },
    });
    expect(await create({ ...valid, email: 'not-an-email' })).toMatchObject({
      status: 400,
      body: { error: 'Please enter a valid email address' },
    });
    expect(await create({ ...valid, role: undefined })).toMatchObject({
      status: 400,
      body: { error: 'Role is required' },
    });
    expect(await create({ ...valid, role: 'root' })).toMatchObject({ status: 400 });

    const ok = await create(valid);
    expect(ok).toMatchObject({ status: 201, body: { email: null, full_name: null } });
    expect(await create({ ...valid, password: 'another-pass' })).toMatchObject({
      status: 409,
      body: { error: 'Username already exists' },
    });
    // The same name in another case or Unicode form is the same username; a look-alike of one is refused too.
    for (const username of [valid.username.toUpperCase(), valid.username.normalize('NFKC').replace(/./g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))])
      expect([username, (await create({ ...valid, username })).body]).toEqual([username, { error: 'Username already exists' }]);
    expect((await create({ ...valid, username: 'аdmin' })).body).toEqual({
      error: 'Username looks like an existing one: choose a clearly different name',
    });
    expect((await create({ ...valid, username: 'Αdmin' })).status).toBe(409); // Greek capital alpha

    const id = ok.body.id;
    expect(
      await call(svc.url, 'PATCH', `/api/users/${id}`, { ...asAdmin(), body: { email: 'x@', role: 'user' } }),
    ).toMatchObject({ status: 400, body: { error: 'Please enter a valid email address' } });
    expect(
      await call(svc.url, 'PATCH', `/api/users/${id}`, { ...asAdmin(), body: { email: 'b@example.com' } }),
    ).toMatchObject({ status: 400, body: { error: 'Role is required' } });
    expect(
      await call(svc.url, 'POST', `/api/users/${id}/reset-password`, { ...asAdmin(), body: { password: '' } }),
    ).toMatchObject({ status: 400, body: { error: 'Password is required' } });
    expect(
      await call(svc.url, 'POST', `/api/users/${id}/reset-password`, { ...asAdmin(), body: { password: 'short' } }),
    ).toMatchObject({ status: 400, body: { error: 'Password must be at least 6 characters' } });
    expect(
      await call(svc.url, 'POST', `/api/users/${id}/reset-password`, {
        ...asAdmin(),
        body: { password: 'longer-one', confirmPassword: 'other-one' },
      }),
    ).toMatchObject({ status: 400, body: { error: 'Passwords do not match' } });
    // Unknown keys are dropped: the username cannot be changed through an edit.
    expect(
      await call(svc.url, 'PATCH', `/api/users/${id}`, { ...asAdmin(), body: { username: 'mallory', role: 'user' } }),
    ).toMatchObject({ status: 200, body: { username: 'bob' } });
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect(await call(svc.url, 'PATCH', '/api/users/9999', { ...asAdmin(), body: { role: 'user' } })).toMatchObject({
      status: 404,
      body: { error: 'User not found' },
    });
    expect(
      await call(svc.url, 'POST', '/api/users/9999/reset-password', { ...asAdmin(), body: { password: 'secret-1' } }),
    ).toMatchObject({ status: 404, body: { error: 'User not found' } });
    expect(await call(svc.url, 'DELETE', '/api/users/9999', asAdmin())).toMatchObject({
      status: 404,
      body: { error: 'User not found' },
    });
    expect((await call(svc.url, 'DELETE', '/api/users/abc', asAdmin())).status).toBe(400);
  });

  it('refuses an admin changing their own role or deleting themselves', async () => {
    expect(
      await call(svc.url, 'PATCH', `/api/users/${admin.id}`, { ...asAdmin(), body: { role: 'user' } }),
    ).toMatchObject({ status: 400, body: { error: 'You cannot change your own role' } });
    expect(await call(svc.url, 'DELETE', `/api/users/${admin.id}`, asAdmin())).toMatchObject({
      status: 400,
      body: { error: 'You cannot delete your own account' },
    });
    // Editing their own other fields (role unchanged) is fine.
    expect(
      await call(svc.url, 'PATCH', `/api/users/${admin.id}`, {
        ...asAdmin(),
        body: { full_name: 'The Admin', role: 'admin' },
      }),
    ).toMatchObject({ status: 200, body: { full_name: 'The Admin', role: 'admin' } });
  });
});

describe('users as a non-admin', () => {
  it('refuses every user-management call with 403, and signed-out calls with 401', async () => {
    const carol = (
      await call(svc.url, 'POST', '/api/users', {
        ...asAdmin(),
        body: { username: 'carol', password: 'carol-pass', role: 'user' },
      })
    ).body;
    const asCarol = { user: asIdentity(carol) };
    const calls: [string, string, object?][] = [
      ['GET', '/api/users'],
      ['POST', '/api/users', { username: 'dave', password: 'dave-pass', role: 'admin' }],
      ['PATCH', `/api/users/${carol.id}`, { role: 'admin' }],
      ['POST', `/api/users/${admin.id}/reset-password`, { password: 'hijacked' }],
      ['DELETE', `/api/users/${admin.id}`],
    ];
    for (const [method, path, body] of calls) {
      expect(await call(svc.url, method, path, { ...asCarol, body })).toMatchObject({
        status: 403,
        body: { error: 'Admin access required' },
      });
      expect(await call(svc.url, method, path, { user: null, body })).toMatchObject({
        status: 401,
        body: { error: 'Authentication required' },
      });
    }
    await login(svc.url, 'admin', ADMIN_PASSWORD); // the admin password was not reset
  });
});

describe('sessions of changed users', () => {
  it("a deleted user's session stops resolving, and a reset password ends the old sessions", async () => {
    const erin = (
      await call(svc.url, 'POST', '/api/users', {
        ...asAdmin(),
        body: { username: 'erin', password: 'erin-pass', role: 'user' },
      })
    ).body;
    const frank = (
      await call(svc.url, 'POST', '/api/users', {
        ...asAdmin(),
        body: { username: 'frank', password: 'frank-pass', role: 'user' },
      })
    ).body;
    const erinSession = (await login(svc.url, 'erin', 'erin-pass')).cookie;
    const frankSession = (await login(svc.url, 'frank', 'frank-pass')).cookie;
    const who = (cookie: string) => call(svc.url, 'GET', '/internal/session', { user: null, headers: { cookie } });
    expect((await who(erinSession)).body).toEqual({ user: { id: erin.id, username: 'erin', role: 'user' } });

    // A role change shows at the next lookup.
    await call(svc.url, 'PATCH', `/api/users/${erin.id}`, { ...asAdmin(), body: { role: 'admin' } });
    expect((await who(erinSession)).body.user.role).toBe('admin');

    await call(svc.url, 'DELETE', `/api/users/${erin.id}`, asAdmin());
    expect((await who(erinSession)).body).toEqual({ user: null });
    expect((await call(svc.url, 'GET', '/api/user', { user: null, headers: { cookie: erinSession } })).body).toEqual({
      authenticated: false,
    });

    await call(svc.url, 'POST', `/api/users/${frank.id}/reset-password`, {
      ...asAdmin(),
      body: { password: 'frank-new-pass' },
    });
    expect((await who(frankSession)).body).toEqual({ user: null });
  });
});

describe('look-alike usernames (UTS #39 skeletons, default-ignorable code points removed)', () => {
  const LOOKALIKE = { error: 'Username looks like an existing one: choose a clearly different name' };
  const create = (username: string) =>
    call(svc.url, 'POST', '/api/users', { ...asAdmin(), body: { username, password: 'look-pass', role: 'user' } });

  it('refuses names that show as an existing one', async () => {
    const cases: [string, string][] = [
      ['adm\u0131n', 'dotless ı (U+0131)'],
      ['ad\u00admin', 'soft hyphen (U+00AD), shown as "admin"'],
      ['\u0430dmin', 'Cyrillic а (U+0430)'],
      ['ad\u200dmin', 'zero-width joiner (U+200D)'],
      ['admin\ufe0f', 'variation selector (U+FE0F)'],
      ['\u0430dm\u0131n\u00ad', 'several at once'],
    ];
    for (const [username, what] of cases) {
      const r = await create(username);
      expect([what, r.status, r.body]).toEqual([what, 409, LOOKALIKE]);
    }
    // Full-width letters are the same name once NFKC is applied: refused as taken.
    expect((await create('\uff41\uff44\uff4d\uff49\uff4e')).body).toEqual({ error: 'Username already exists' });
  });

  it('compares with every existing name, not only admin, and leaves clearly different names alone', async () => {
    expect(await create('gr\u0435ta')).toMatchObject({ status: 201 }); // with a Cyrillic е: the first one is fine
    expect((await create('greta')).body).toEqual(LOOKALIKE);
    expect((await create('gre\u200bta')).body).toEqual(LOOKALIKE); // zero-width space
    expect(await create('gretchen')).toMatchObject({ status: 201 });
    expect(await create('admiral')).toMatchObject({ status: 201 });
  });
});
