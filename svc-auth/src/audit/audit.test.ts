// The audit log through svc-auth's own HTTP API, against the stand-in and NATS: its staff actions are recorded
// through the outbox and gathered back by its consumer, as the email and SMS sides' records are.
import { call, type ServiceProcess } from '@act/service-kit/testing';
import type { AuditPage, AuditRecord } from '@act/contracts/src/audit';
import type { CurrentUserDto } from '@act/contracts/src/auth-api';
import { ADMIN_PASSWORD, asIdentity, login, startAuth } from '../testing';

jest.setTimeout(60_000);

let svc: ServiceProcess;
let admin: CurrentUserDto;
beforeAll(async () => {
  svc = await startAuth('audit');
  admin = (await login(svc.url, 'admin', ADMIN_PASSWORD)).user;
});
afterAll(() => svc?.stop());

const ADDRESS = '203.0.113.9';
const asAdmin = (extra: Record<string, unknown> = {}) => ({ user: asIdentity(admin), headers: { 'x-forwarded-for': ADDRESS }, ...extra });

async function auditPage(query = ''): Promise<AuditPage> {
  const r = await call(svc.url, 'GET', `/api/audit-log${query}`, asAdmin());
  expect(r.status).toBe(200);
  return r.body as AuditPage;
}

/** Records arrive over NATS: poll until one matches. */
async function waitForRecord(match: (r: AuditRecord) => boolean, query = '?pageSize=100'): Promise<AuditRecord> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = (await auditPage(query)).items.find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error('audit record did not arrive');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('audit log', () => {
  it('records a user created by an admin: who, from where, what, the fields without the password', async () => {
    const created = await call(svc.url, 'POST', '/api/users', asAdmin({ body: { username: 'auditee', password: 'very-secret-pw', role: 'user' } }));
    expect(created.status).toBe(201);
    const rec = await waitForRecord((r) => r.action === 'user.create' && r.target_id === String(created.body.id));
    expect(rec).toMatchObject({
      service: 'svc-auth',
      actor: { id: admin.id, username: 'admin', role: 'admin' },
      ip: ADDRESS,
      route: 'POST /api/users',
      status: 201,
      target_kind: 'user',
      change: { after: { username: 'auditee', role: 'user', password: '[set]' } },
    });
    expect(JSON.stringify(rec)).not.toContain('very-secret-pw');

    // A role change keeps the value before and after; a password reset says only that one was set.
    expect((await call(svc.url, 'PATCH', `/api/users/${created.body.id}`, asAdmin({ body: { role: 'admin' } }))).status).toBe(200);
    const changed = await waitForRecord((r) => r.action === 'user.update' && r.target_id === String(created.body.id));
    expect(changed.change).toEqual({ before: { role: 'user' }, after: { role: 'admin' } });
    expect((await call(svc.url, 'POST', `/api/users/${created.body.id}/reset-password`, asAdmin({ body: { password: 'another-secret-pw' } }))).status).toBe(200);
    const reset = await waitForRecord((r) => r.action === 'user.reset-password');
    expect(reset.change).toEqual({ before: { password: '[set]' }, after: { password: '[changed]' } });
    expect(JSON.stringify(reset)).not.toContain('another-secret-pw');
  });

  it('records profile changes with before and after, a password change as [changed] only; an unchanged save is not recorded', async () => {
    const me = await call(svc.url, 'POST', '/api/users', asAdmin({ body: { username: 'profiled', password: 'profile-pw-1', role: 'user', full_name: 'Old Name' } }));
    expect(me.status).toBe(201);
    const self = { user: { id: me.body.id as number, username: 'profiled', role: 'user' as const }, headers: { 'x-forwarded-for': ADDRESS } };
    expect((await call(svc.url, 'PATCH', '/api/profile', { ...self, body: { full_name: 'New Name' } })).status).toBe(200);
    const profile = await waitForRecord((r) => r.route === 'PATCH /api/profile' && r.target_id === String(me.body.id));
    expect(profile).toMatchObject({ actor: { username: 'profiled' }, target_kind: 'user', change: { before: { full_name: 'Old Name' }, after: { full_name: 'New Name' } } });

    expect((await call(svc.url, 'POST', '/api/profile/change-password', { ...self, body: { currentPassword: 'profile-pw-1', newPassword: 'profile-pw-2', confirmPassword: 'profile-pw-2' } })).status).toBe(200);
    const pw = await waitForRecord((r) => r.route === 'POST /api/profile/change-password' && r.target_id === String(me.body.id));
    expect(pw.change).toEqual({ before: { password: '[set]' }, after: { password: '[changed]' } });
    expect(JSON.stringify(pw)).not.toContain('profile-pw');

    // Saved unchanged, then a positive control: only the control is recorded.
    expect((await call(svc.url, 'PATCH', '/api/profile', { ...self, body: { full_name: 'New Name' } })).status).toBe(200);
    expect((await call(svc.url, 'PATCH', '/api/profile', { ...self, body: { full_name: 'Control Name' } })).status).toBe(200);
    await waitForRecord((r) => r.route === 'PATCH /api/profile' && r.change.after?.full_name === 'Control Name');
    const mine = (await auditPage('?pageSize=100&user=profiled')).items.filter((r) => r.route === 'PATCH /api/profile');
    expect(mine.map((r) => r.change.after)).toEqual([{ full_name: 'Control Name' }, { full_name: 'New Name' }]);
  });

  it('records failed and successful sign-ins with the name tried, never the password', async () => {
    const bad = await call(svc.url, 'POST', '/api/login', { user: null, headers: { 'x-forwarded-for': '198.51.100.7' }, body: { username: 'admin', password: 'wrong-guess-1' } });
    expect(bad.status).toBe(401);
    const failed = await waitForRecord((r) => r.action === 'login.failed' && r.ip === '198.51.100.7');
    expect(failed).toMatchObject({ actor: { username: 'admin', id: null }, status: 401, change: { after: { username: 'admin' } } });
    expect(JSON.stringify(failed)).not.toContain('wrong-guess-1');
    await login(svc.url, 'admin', ADMIN_PASSWORD);
    await waitForRecord((r) => r.action === 'login.succeeded' && r.actor?.id === admin.id);
  });

  it('a refused change leaves no record (a positive control after it is recorded)', async () => {
    const dup = await call(svc.url, 'POST', '/api/users', asAdmin({ body: { username: 'admin', password: 'whatever-pw', role: 'user' } }));
    expect(dup.status).toBe(409);
    const control = await call(svc.url, 'POST', '/api/users', asAdmin({ body: { username: 'control-user', password: 'control-pw-1', role: 'user' } }));
    expect(control.status).toBe(201);
    await waitForRecord((r) => r.target_id === String(control.body.id));
    const all = (await auditPage('?pageSize=100&action=user.create')).items;
    expect(all.filter((r) => r.status >= 400)).toEqual([]);
  });

  it('filters, pages on the server, exports CSV, and only for admins; nothing edits or deletes a record', async () => {
    const byAction = await auditPage('?action=login.failed&pageSize=25');
    expect(byAction.items.length).toBeGreaterThan(0);
    expect(byAction.items.every((r) => r.action === 'login.failed')).toBe(true);
    const byUser = await auditPage('?user=ADMIN&service=svc-auth');
    expect(byUser.items.every((r) => r.actor?.username === 'admin')).toBe(true);
    const future = await auditPage(`?from=${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}`);
    expect(future).toMatchObject({ items: [], total: 0 });
    const paged = await auditPage('?pageSize=25&page=1');
    expect(paged.total).toBeGreaterThanOrEqual(paged.items.length);
    expect(await call(svc.url, 'GET', '/api/audit-log?pageSize=7', asAdmin())).toMatchObject({ status: 400, body: { error: 'Page size must be one of 25, 50, 100' } });
    expect(await call(svc.url, 'GET', '/api/audit-log?from=yesterday', asAdmin())).toMatchObject({ status: 400 });
    expect(await call(svc.url, 'GET', '/api/audit-log?service=svc-evil', asAdmin())).toMatchObject({ status: 400 });

    const csv = await call(svc.url, 'GET', '/api/audit-log/export.csv?action=user.create', asAdmin());
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe('At,Service,User,Role,Address,Action,Route,Status,Target,Target ID,Before,After');
    expect(lines.slice(1).every((l) => l.includes(',user.create,'))).toBe(true);
    expect(lines.length).toBeGreaterThan(2);

    const operator = { id: 999, username: 'operator', role: 'user' as const };
    expect((await call(svc.url, 'GET', '/api/audit-log', { user: operator })).status).toBe(403);
    expect((await call(svc.url, 'GET', '/api/audit-log/export.csv', { user: operator })).status).toBe(403);
    const one = paged.items[0]!;
    for (const method of ['DELETE', 'PATCH', 'PUT']) {
      const r = await call(svc.url, method, `/api/audit-log/${one.id}`, asAdmin({ body: {} }));
      expect([method, r.status]).toEqual([method, expect.any(Number)]);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    expect((await auditPage('?pageSize=100')).items.find((r) => r.id === one.id)).toEqual(one);
  });
});
