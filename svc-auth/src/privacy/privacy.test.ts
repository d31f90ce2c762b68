// The privacy requests' API on svc-auth alone (no email or SMS side running: requests stay pending, durable on the
// bus); the answers from both sides are tested through the whole stack (shell/e2e/privacy.e2e.ts and the faults suite).
import { call, type ServiceProcess } from '@act/service-kit/testing';
import type { CurrentUserDto } from '@act/contracts/src/auth-api';
import { ADMIN_PASSWORD, asIdentity, login, startAuth } from '../testing';

jest.setTimeout(60_000);

let svc: ServiceProcess;
let admin: CurrentUserDto;
beforeAll(async () => {
  svc = await startAuth('privacy');
  admin = (await login(svc.url, 'admin', ADMIN_PASSWORD)).user;
});
afterAll(() => svc?.stop());

const asAdmin = (body?: unknown) => ({ user: asIdentity(admin), body });

it('refuses a request without a way to find the person, or with a malformed one, with a clear message', async () => {
  const cases: [unknown, string][] = [
    [{}, 'Enter an email address or a phone number'],
    [{ email: '  ' }, 'Enter an email address or a phone number'],
    [{ email: 'not-an-address' }, 'Enter a valid email address'],
    [{ phone: '12-34' }, 'Enter a phone number with at least 7 digits'],
    [{ email: { toString: 1 } }, 'The request body has a value of the wrong type'],
    [{ email: 'a@example.com', kind: 'erase-everything' }, 'Kind must be export'],
  ];
  for (const [body, error] of cases) {
    const r = await call(svc.url, 'POST', '/api/privacy-requests', asAdmin(body));
    expect([body, r.status, r.body]).toEqual([body, 400, { error }]);
  }
});

it('creates a pending request per service, lists and reads it; admins only', async () => {
  const r = await call(svc.url, 'POST', '/api/privacy-requests', asAdmin({ email: ' Someone@Example.com ', phone: '+1 415 555 0101' }));
  expect(r.status).toBe(201);
  expect(r.body).toMatchObject({
    kind: 'export',
    email: 'someone@example.com',
    phone: '+1 415 555 0101',
    requested_by: 'admin',
    status: 'pending',
    services: { 'svc-email': { status: 'pending' }, 'svc-sms': { status: 'pending' } },
  });
  expect((await call(svc.url, 'GET', '/api/privacy-requests', asAdmin())).body.map((x: { id: number }) => x.id)).toContain(r.body.id);
  expect((await call(svc.url, 'GET', `/api/privacy-requests/${r.body.id}`, asAdmin())).body.id).toBe(r.body.id);
  expect((await call(svc.url, 'GET', '/api/privacy-requests/999999', asAdmin())).status).toBe(404);
  expect((await call(svc.url, 'GET', '/api/privacy-requests/abc', asAdmin())).status).toBe(400);
  const operator = { id: 999, username: 'operator', role: 'user' as const };
  expect((await call(svc.url, 'GET', '/api/privacy-requests', { user: operator })).status).toBe(403);
  expect((await call(svc.url, 'POST', '/api/privacy-requests', { user: operator, body: { email: 'x@example.com' } })).status).toBe(403);
});
