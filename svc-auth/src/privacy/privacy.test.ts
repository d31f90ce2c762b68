// The privacy requests' API on svc-auth alone (no email or SMS side running: requests stay pending, durable on the
// bus; where a test needs their answers, it publishes them as the two services would). The whole path is tested
// through the stack (shell/e2e/privacy.e2e.ts, infra/e2e/privacy-erase.e2e.ts and the faults suite).
import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import { MongoClient } from 'mongodb';
import { call, testDbName, type ServiceProcess } from '@act/service-kit/testing';
import type { CurrentUserDto } from '@act/contracts/src/auth-api';
import type { AuditPage } from '@act/contracts/src/audit';
import { PRIVACY_SERVICES, type PrivacyExport, type PrivacyRequestView } from '@act/contracts/src/privacy';
import { ADMIN_PASSWORD, asIdentity, login, startAuth } from '../testing';

jest.setTimeout(60_000);

let svc: ServiceProcess;
const DB = testDbName('privacy');
let admin: CurrentUserDto;
beforeAll(async () => {
  svc = await startAuth('privacy', { MONGODB_DB: DB });
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
    [{ email: 'a@example.com', kind: 'erase-everything' }, 'Kind must be export or erase'],
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

const natsPrefix = `${process.env.NATS_PREFIX ?? ''}t${process.pid}privacy_`.replace(/[^A-Za-z0-9_]/g, '_');
/** Both services' answers to a request, as they publish them. */
async function answerFromBoth(requestId: number, counts: Record<string, number>, records: Record<string, unknown[]> = {}) {
  const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  try {
    for (const service of PRIVACY_SERVICES) {
      const result = { status: 'done', finished_at: new Date().toISOString(), counts, truncated: [], error: null };
      const payload = { eventId: randomUUID(), source: service, occurredAt: new Date().toISOString(), requestId, service, result, records };
      await nc.jetstream().publish(`${natsPrefix}privacy.completed`, JSON.stringify(payload));
    }
  } finally {
    await nc.close();
  }
}
async function until<T>(fn: () => Promise<T | null | undefined | false>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
const auditText = async () => JSON.stringify(((await call(svc.url, 'GET', '/api/audit-log?pageSize=100', asAdmin())).body as AuditPage).items);

it('an erase, once both sides are done, leaves the person nowhere in svc-auth: requests, exports, audit log', async () => {
  const email = 'gone.person@example.com';
  const phone = '+1 415 555 0177';
  const exp = (await call(svc.url, 'POST', '/api/privacy-requests', asAdmin({ email, phone }))).body as PrivacyRequestView;
  await answerFromBoth(exp.id, { contacts: 1 }, { contacts: [{ email }] });
  await until(async () => ((await call(svc.url, 'GET', `/api/privacy-requests/${exp.id}`, asAdmin())).body as PrivacyRequestView).status === 'done', 'the export');
  expect(JSON.stringify((await call(svc.url, 'GET', `/api/privacy-requests/${exp.id}/export.json`, asAdmin())).body)).toContain(email);
  // The export request's own audit record names the person in clear (until the erase).
  await until(async () => (await auditText()).includes(email), 'the export\'s audit record');

  const r = await call(svc.url, 'POST', '/api/privacy-requests', asAdmin({ kind: 'erase', email, phone }));
  expect(r.status).toBe(201);
  const erase = r.body as PrivacyRequestView;
  expect(erase).toMatchObject({ kind: 'erase', email, status: 'pending', erased_ref: null });
  // The erase's own audit record holds the erased forms only.
  await until(async () => (await auditText()).includes('@erased.invalid'), 'the erase\'s audit record');
  expect((await call(svc.url, 'GET', `/api/privacy-requests/${erase.id}/export.json`, asAdmin())).status).toBe(404);

  await answerFromBoth(erase.id, { contacts: 1, suppression_entries: 1 });
  const done = await until(async () => {
    const v = (await call(svc.url, 'GET', `/api/privacy-requests/${erase.id}`, asAdmin())).body as PrivacyRequestView;
    return v.status === 'done' && v.erased_ref ? v : null;
  }, 'the erase to finish');
  expect(done).toMatchObject({ email: null, phone: null, erased_ref: expect.stringMatching(/^[0-9a-f]{12}$/) });
  expect((await call(svc.url, 'GET', `/api/privacy-requests/${exp.id}`, asAdmin())).body).toMatchObject({ email: null, phone: null, erased_ref: done.erased_ref });
  const doc = (await call(svc.url, 'GET', `/api/privacy-requests/${exp.id}/export.json`, asAdmin())).body as PrivacyExport;
  expect(doc.data).toEqual({ 'svc-email': {}, 'svc-sms': {} });
  const list = JSON.stringify((await call(svc.url, 'GET', '/api/privacy-requests', asAdmin())).body);
  const audit = await auditText();
  for (const text of [list, audit]) {
    expect(text).not.toContain(email);
    expect(text).not.toMatch(/415\D{0,3}555\D{0,3}0177/);
  }
  // Both requests are still in the audit log, with the person in erased form.
  expect(audit.match(/POST \/api\/privacy-requests/g)?.length).toBeGreaterThanOrEqual(2);
});

it('an erase reaches the person in a recorded before value (found by the mentions index, not a scan)', async () => {
  const email = 'Before.Value@Example.com';
  const phone = '(415) 555-0199';
  // svc-auth's own records: a user whose address was changed away (the old one is only in the before value), then
  // a deletion of a user with the address (before value).
  const made = await call(svc.url, 'POST', '/api/users', asAdmin({ username: 'before-value', password: 'before-pw-1', role: 'user', email }));
  expect(made.status).toBe(201);
  expect((await call(svc.url, 'PATCH', `/api/users/${made.body.id}`, asAdmin({ email: 'someone.else@example.com', role: 'user' }))).status).toBe(200);
  // Another service's record naming the number in a before value, as svc-sms would publish it.
  const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  try {
    const record = {
      eventId: randomUUID(), source: 'svc-sms', occurredAt: new Date().toISOString(), at: new Date().toISOString(), service: 'svc-sms',
      actor: { id: admin.id, username: 'admin', role: 'admin' }, ip: null, action: 'sms-contact.update', route: 'PATCH /api/sms-contacts/:id',
      status: 200, target_kind: 'sms-contact', target_id: '7', change: { before: { phone: '+14155550199' }, after: { phone: null } },
    };
    await nc.jetstream().publish(`${natsPrefix}audit.recorded`, JSON.stringify(record));
  } finally {
    await nc.close();
  }
  await until(async () => {
    const text = await auditText();
    return text.includes('"before":{"email":"Before.Value@Example.com"}') && text.includes('+14155550199');
  }, 'the records naming the person in before values');
  // A record kept from before the mentions index (no `mentions` yet, stored after this instance's backfill ran).
  const mongo = await MongoClient.connect(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017');
  try {
    await mongo.db(DB).collection('audit_log').insertOne({
      id: 'legacy-before-value', at: new Date(), service: 'svc-email', actor: { id: admin.id, username: 'admin', role: 'admin' }, ip: null,
      action: 'email-unsubscribe.remove', route: 'POST /api/email-unsubscribes/remove', status: 200, target_kind: 'email-unsubscribe', target_id: '5',
      change: { before: { email: 'before.value@example.com' }, after: null },
    });
  } finally {
    await mongo.close();
  }
  const unrelated = 'xbefore.value@example.com';
  const control = await call(svc.url, 'POST', '/api/users', asAdmin({ username: 'unrelated-before', password: 'before-pw-2', role: 'user', email: unrelated }));
  expect(control.status).toBe(201);
  await until(async () => (await auditText()).includes(unrelated), 'the unrelated record');

  const r = await call(svc.url, 'POST', '/api/privacy-requests', asAdmin({ kind: 'erase', email: email.toLowerCase(), phone }));
  expect(r.status).toBe(201);
  await answerFromBoth((r.body as PrivacyRequestView).id, { contacts: 0 });
  await until(async () => ((await call(svc.url, 'GET', `/api/privacy-requests/${r.body.id}`, asAdmin())).body as PrivacyRequestView).erased_ref, 'the erase');
  const items = ((await call(svc.url, 'GET', '/api/audit-log?pageSize=100', asAdmin())).body as AuditPage).items;
  const text = JSON.stringify(items);
  expect(text).not.toMatch(/(?<![\w.+-])before\.value@example\.com/i);
  expect(text).not.toContain('+14155550199');
  const update = items.find((x) => x.action === 'user.update' && x.target_id === String(made.body.id))!;
  expect(update.change.before).toEqual({ email: expect.stringMatching(/^erased-[0-9a-f]{32}@erased\.invalid$/) });
  expect(update.change.after).toEqual({ email: 'someone.else@example.com' });
  const legacy = items.find((x) => x.id === 'legacy-before-value')!;
  expect(legacy.change.before).toEqual({ email: expect.stringMatching(/^erased-[0-9a-f]{32}@erased\.invalid$/) });
  const sms = items.find((x) => x.action === 'sms-contact.update')!;
  expect(sms.change.before).toEqual({ phone: expect.stringMatching(/^erased-[0-9a-f]{32}$/) });
  // An address that merely ends with the person's stays, and the records are answered without their index keys.
  expect(text).toContain(unrelated);
  expect(items.every((x) => !('mentions' in x))).toBe(true);
});
