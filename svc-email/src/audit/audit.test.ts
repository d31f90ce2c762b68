// svc-email's part of the audit log (issue 18): each staff change leaves an audit.recorded event on the bus (svc-auth
// gathers them), with who, from where and what, secrets left out; refused calls and public calls leave none.
import type { NatsConnection, Subscription } from 'nats';
import { testAdmin, testUser } from '@act/service-kit/testing';
import type { AuditRecord } from '@act/contracts/src/audit';
import { contactCreated, dropDb, natsConnect, startEmail, waitFor, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

let email: EmailUnderTest;
let nc: NatsConnection;
let sub: Subscription;
const seen: AuditRecord[] = [];

beforeAll(async () => {
  email = await startEmail('audit');
  nc = await natsConnect();
  // Core NATS sees what JetStream stores on the subject: enough to read the events this instance publishes.
  sub = nc.subscribe(`${email.prefix}audit.recorded`);
  void (async () => {
    for await (const m of sub) seen.push(JSON.parse(m.string()));
  })();
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  sub?.unsubscribe();
  await nc?.close();
  await email?.svc.stop();
  if (email) await dropDb(email.db);
});

const ADDRESS = '192.0.2.44';
const as = (user = testAdmin) => ({ user, headers: { 'x-forwarded-for': ADDRESS } });
const recorded = (match: (r: AuditRecord) => boolean, what: string) =>
  waitFor(async () => seen.find(match) ?? null, { timeoutMs: 10_000, what });

it('records provider settings with the key and secret left out', async () => {
  const key = 're_live_key_that_must_not_be_logged_123';
  const r = await email.api('POST', '/api/resend/config', { ...as(), body: { apiKey: key, from: 'Shop <shop@example.com>' } });
  expect(r.status).toBe(200);
  const rec = await recorded((x) => x.action === 'resend.config', 'resend config record');
  expect(rec).toMatchObject({
    service: 'svc-email',
    actor: { id: testAdmin.id, username: testAdmin.username, role: 'admin' },
    ip: ADDRESS,
    route: 'POST /api/resend/config',
    status: 200,
    change: { after: { apiKey: '[set]', from: 'Shop <shop@example.com>' } },
  });
  expect(JSON.stringify(seen)).not.toContain(key);
});

it('records an integration created and its secret set, mark-purchased and clear-data, by who did them', async () => {
  const created = await email.api('POST', '/api/webhook-integrations', { ...as(testUser), body: { name: 'Audited', funnel_id: 'audited' } });
  expect(created.status).toBe(201);
  await recorded((x) => x.action === 'webhook-integration.create' && x.target_id === String(created.body.id) && x.actor?.username === testUser.username, 'integration create');
  const secret = 'whsec_integration_secret_not_for_logs';
  expect((await email.api('PATCH', `/api/webhook-integrations/${created.body.id}`, { ...as(), body: { webhook_secret: secret } })).status).toBe(200);
  const patched = await recorded((x) => x.action === 'webhook-integration.update' && x.target_id === String(created.body.id), 'integration update');
  expect(patched.change.after).toEqual({ webhook_secret: '[set]' });
  expect(JSON.stringify(seen)).not.toContain(secret);

  const other = await email.api('POST', '/api/webhook-integrations', { ...as(), body: { name: 'Unsigned', funnel_id: 'audited-unsigned' } });
  expect(other.status).toBe(201);
  expect((await email.api('POST', '/api/webhook', { body: contactCreated('AUD-1', 'audited@example.com', 'audited-unsigned'), user: null })).status).toBe(200);
  const marked = await email.api('POST', '/api/contacts/mark-purchased', { ...as(), body: { contact_id: 'AUD-1' } });
  expect(marked.status).toBe(200);
  await recorded((x) => x.action === 'contact.mark-purchased', 'mark purchased');
  expect((await email.api('POST', '/api/test/clear-data', as(testUser))).status).toBe(200);
  await recorded((x) => x.action === 'test.clear-data' && x.actor?.username === testUser.username, 'clear data');
});

it('records nothing for a refused change or a public call (positive control after them)', async () => {
  const before = seen.length;
  expect((await email.api('POST', '/api/webhook-integrations', { ...as(), body: { name: '' } })).status).toBe(400);
  expect((await email.api('POST', '/api/resend/config', { ...as(testUser), body: { apiKey: 'x' } })).status).toBe(403);
  expect((await email.api('POST', '/api/webhook', { body: contactCreated('AUD-2', 'public@example.com'), user: null })).status).toBe(200);
  const control = await email.api('POST', '/api/webhook-integrations', { ...as(), body: { name: 'Control', funnel_id: 'audit-control' } });
  expect(control.status).toBe(201);
  await recorded((x) => x.target_id === String(control.body.id), 'control');
  expect(seen.slice(before).map((x) => x.action)).toEqual(['webhook-integration.create']);
});
