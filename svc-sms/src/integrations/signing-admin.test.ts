// Only admins undo an admin's signing: a plain user cannot pause, delete or move a signed SMS integration, nor create
// or point or activate another integration at its funnel (an unsigned twin would take the funnel's deliveries once
// the signed one is paused); 403, nothing changed, unsigned deliveries still refused. An admin may, audited.
import { call, testAdmin, testUser, type ServiceProcess } from '@act/service-kit/testing';
import type { SmsIntegration } from '@act/contracts/src/sms-api';
import {
  collectAuditRecords,
  dropDb,
  dropStream,
  postContact,
  smsTestEnv,
  startSms,
  waitFor,
  type AuditCollector,
  type SmsTestEnv,
} from '../test/helpers';

jest.setTimeout(120_000);

let svc: ServiceProcess;
let t: SmsTestEnv;
let audit: AuditCollector;

beforeAll(async () => {
  t = smsTestEnv('signadmin', null, { SECRETS_KEY: 'sms-signing-admin-key', SMS_INTEGRATION_CACHE_MS: '0' });
  svc = await startSms(t);
  audit = await collectAuditRecords(t.natsPrefix);
});
afterAll(async () => {
  await audit?.stop();
  await svc?.stop();
  if (t) {
    await dropStream(t.natsPrefix);
    await dropDb(t.db);
  }
});

const asUser = (method: string, path: string, body?: unknown) => call(svc.url, method, path, { user: testUser, body });
const asAdmin = (method: string, path: string, body?: unknown) => call(svc.url, method, path, { user: testAdmin, body });
const FORBIDDEN = { status: 403, body: { error: expect.stringMatching(/^Admin access required/) } };
const integration = { name: 'Signed SMS', funnel_id: 'sms-signed', reminder_delay: 600, active: true };

it("a plain user cannot turn a signed integration's signing off by any route; an admin can, audited", async () => {
  const { seen } = audit;
  const made = await asAdmin('POST', '/api/sms-webhook-integrations', integration);
  expect(made.status).toBe(201);
  const id = made.body.id as number;
  expect((await asAdmin('PATCH', `/api/sms-webhook-integrations/${id}`, { webhook_secret: 'sms-signed-secret-0123456789' })).status).toBe(200);
  expect((await postContact(svc.url, 'sms-signed', 'b-1', '+15552060001')).status).toBe(401);
  const other = await asUser('POST', '/api/sms-webhook-integrations', { ...integration, name: 'Other', funnel_id: 'sms-other', active: false });
  expect(other.status).toBe(201);
  // The audit records arrive over NATS: the ones made so far are in before the mark, so none is taken for a refusal's.
  await waitFor(async () => seen.find((x) => x.target_id === String(other.body.id)));

  const mark = seen.length;
  expect(await asUser('PATCH', `/api/sms-webhook-integrations/${id}`, { active: false })).toMatchObject(FORBIDDEN);
  expect(await asUser('PATCH', `/api/sms-webhook-integrations/${id}`, { webhook_secret: null })).toMatchObject(FORBIDDEN);
  expect(await asUser('PATCH', `/api/sms-webhook-integrations/${id}`, { funnel_id: 'moved-away' })).toMatchObject(FORBIDDEN);
  expect(await asUser('DELETE', `/api/sms-webhook-integrations/${id}`)).toMatchObject(FORBIDDEN);
  // A twin, even paused (it would be activated once the signed one is paused), and one moved onto the funnel.
  expect(await asUser('POST', '/api/sms-webhook-integrations', { ...integration, name: 'Twin', active: false })).toMatchObject(FORBIDDEN);
  expect(await asUser('PATCH', `/api/sms-webhook-integrations/${other.body.id}`, { funnel_id: 'sms-signed' })).toMatchObject(FORBIDDEN);

  const list = (await asUser('GET', '/api/sms-webhook-integrations')).body as SmsIntegration[];
  expect(list.find((i) => i.id === id)).toMatchObject({ active: true, funnel_id: 'sms-signed', signing: { has_secret: true } });
  expect(list.filter((i) => i.funnel_id === 'sms-signed')).toHaveLength(1);
  expect((await postContact(svc.url, 'sms-signed', 'b-2', '+15552060002')).status).toBe(401);
  // Positive control: a user may still edit what does not touch signing.
  expect((await asUser('PATCH', `/api/sms-webhook-integrations/${id}`, { name: 'Signed SMS (renamed)' })).status).toBe(200);
  await waitFor(async () => seen.slice(mark).find((x) => x.target_id === String(id) && x.change.after?.name === 'Signed SMS (renamed)'));
  expect(seen.slice(mark).filter((x) => x.change.after?.active === false || x.change.after === null)).toEqual([]);

  // An admin may pause it, then make a twin, then delete the signed one: each audited.
  expect((await asAdmin('PATCH', `/api/sms-webhook-integrations/${id}`, { active: false })).status).toBe(200);
  const paused = await waitFor(async () => seen.find((x) => x.route === 'PATCH /api/sms-webhook-integrations/:id' && x.target_id === String(id) && x.change.after?.active === false));
  expect(paused).toMatchObject({ actor: { username: testAdmin.username, role: 'admin' }, change: { before: { active: true }, after: { active: false } } });
  const twin = await asAdmin('POST', '/api/sms-webhook-integrations', { ...integration, name: 'Twin' });
  expect(twin.status).toBe(201);
  await waitFor(async () => seen.find((x) => x.route === 'POST /api/sms-webhook-integrations' && x.target_id === String(twin.body.id)));
  expect((await asAdmin('DELETE', `/api/sms-webhook-integrations/${id}`)).status).toBe(200);
  const deleted = await waitFor(async () => seen.find((x) => x.route === 'DELETE /api/sms-webhook-integrations/:id' && x.target_id === String(id)));
  expect(deleted.change).toMatchObject({ before: { funnel_id: 'sms-signed' }, after: null });
});
