import { call, type ServiceProcess } from '@act/service-kit/testing';
import type { CurrentUserDto } from '@act/contracts/src/auth-api';
import { ADMIN_PASSWORD, asIdentity, login, startAuth } from '../testing';

// Each file starts real service processes (a few seconds each, more on a busy machine).
jest.setTimeout(60_000);

let svc: ServiceProcess;
let admin: CurrentUserDto;
beforeAll(async () => {
  svc = await startAuth('profile');
  admin = (await login(svc.url, 'admin', ADMIN_PASSWORD)).user;
});
afterAll(() => svc?.stop());

async function newUser(username: string, password = `${username}-pass`) {
  const res = await call(svc.url, 'POST', '/api/users', {
    user: asIdentity(admin),
    body: { username, password, role: 'user' },
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe('PATCH /api/profile', () => {
  it('updates full_name and email and answers the current user', async () => {
    const gina = await newUser('gina');
    const res = await call(svc.url, 'PATCH', '/api/profile', {
      user: asIdentity(gina),
      body: { full_name: ' Gina G ', email: 'gina@example.com', role: 'admin', username: 'x' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      authenticated: true,
      id: gina.id,
      username: 'gina',
      full_name: 'Gina G',
      email: 'gina@example.com',
      role: 'user',
    });
    expect(new Date(res.body.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(gina.updated_at).getTime());

    const cleared = await call(svc.url, 'PATCH', '/api/profile', {
      user: asIdentity(gina),
      body: { full_name: '', email: '' },
    });
    expect(cleared.body).toMatchObject({ full_name: null, email: null });
  });

  it('checks the email shape and needs a signed-in user', async () => {
    const hal = await newUser('hal');
    expect(
      await call(svc.url, 'PATCH', '/api/profile', { user: asIdentity(hal), body: { email: 'hal-at-example' } }),
    ).toMatchObject({ status: 400, body: { error: 'Please enter a valid email address' } });
    expect(await call(svc.url, 'PATCH', '/api/profile', { user: null, body: { email: 'a@b.co' } })).toMatchObject({
      status: 401,
      body: { error: 'Authentication required' },
    });
  });
});

describe('POST /api/profile/change-password', () => {
  it('applies the spec rules with its messages', async () => {
    const ivy = await newUser('ivy');
    const change = (body: object) =>
      call(svc.url, 'POST', '/api/profile/change-password', { user: asIdentity(ivy), body });
    const valid = { currentPassword: 'ivy-pass', newPassword: 'ivy-new-pass', confirmPassword: 'ivy-new-pass' };
    expect(await change({ ...valid, currentPassword: '' })).toMatchObject({
      status: 400,
      body: { error: 'Current password is required' },
    });
    expect(await change({ ...valid, newPassword: '' })).toMatchObject({
      status: 400,
      body: { error: 'New password is required' },
    });
    expect(await change({ ...valid, newPassword: '12345', confirmPassword: '12345' })).toMatchObject({
      status: 400,
      body: { error: 'Password must be at least 6 characters' },
    });
    expect(await change({ ...valid, confirmPassword: '' })).toMatchObject({
      status: 400,
      body: { error: 'Please confirm your new password' },
    });
    expect(await change({ ...valid, confirmPassword: 'something-else' })).toMatchObject({
      status: 400,
      body: { error: 'Passwords do not match' },
    });
    expect(await change({ ...valid, currentPassword: 'not-my-password' })).toMatchObject({
      status: 400,
      body: { error: 'Current password is incorrect' },
    });
  });

  it('changes the password, keeps the current session and ends the others', async () => {
    const jay = await newUser('jay');
    const here = (await login(svc.url, 'jay', 'jay-pass')).cookie;
    const elsewhere = (await login(svc.url, 'jay', 'jay-pass')).cookie;
    const res = await call(svc.url, 'POST', '/api/profile/change-password', {
      user: asIdentity(jay),
      headers: { cookie: here },
      body: { currentPassword: 'jay-pass', newPassword: 'jay-new-pass', confirmPassword: 'jay-new-pass' },
    });
    expect(res).toMatchObject({ status: 200, body: { message: 'Password changed successfully' } });
    await expect(login(svc.url, 'jay', 'jay-pass')).rejects.toThrow(/401/);
    await login(svc.url, 'jay', 'jay-new-pass');
    const me = (cookie: string) => call(svc.url, 'GET', '/api/user', { user: null, headers: { cookie } });
    expect((await me(here)).body).toMatchObject({ authenticated: true, username: 'jay' });
    expect((await me(elsewhere)).body).toEqual({ authenticated: false });
  });
});
