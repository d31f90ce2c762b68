// Only admins undo an admin's signing: a plain user cannot pause, delete or move a signed integration, nor create or
// point another integration at its funnel (each would have the funnel's deliveries taken unsigned again, on the
// email side by falling back to the default integration); 403, nothing changed, unsigned deliveries still refused.
// An admin may, and the change is audited.
import { testAdmin, testUser } from '@act/service-kit/testing';
import {
  collectAuditRecords,
  contactCreated,
  dropDb,
  startEmail,
  waitFor,
  type AuditCollector,
  type EmailUnderTest,
  HOOK_TIMEOUT_MS,
} from '../test/helpers';

let email: EmailUnderTest;
let audit: AuditCollector;

beforeAll(async () => {
  email = await startEmail('signadmin', { SECRETS_KEY: 'signing-admin-secrets-key', INTEGRATION_CACHE_MS: '0' });
  audit = await collectAuditRecords(email.prefix);
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await audit?.stop();
  await email?.svc.stop();
  if (email) await dropDb(email.db);
});

const asUser = (method: string, path: string, body?: unknown) => email.api(method, path, { user: testUser, body });
const asAdmin = (method: string, path: string, body?: unknown) => email.api(method, path, { user: testAdmin, body });
const unsigned = (id: string) => email.api('POST', '/api/webhook', { user: null, body: contactCreated(id, `${id}@example.com`, 'signed-shop') });
const FORBIDDEN = { status: 403, body: { error: expect.stringMatching(/^Admin access required/) } };

it('a plain user cannot turn a signed integration\'s signing off by any route; an admin can, audited', async () => {
  const { seen } = audit;
  const made = await asAdmin('POST', '/api/webhook-integrations', { name: 'Signed shop', funnel_id: 'signed-shop' });
  expect(made.status).toBe(201);
  const id = made.body.id as number;
  expect((await asAdmin('PATCH', `/api/webhook-integrations/${id}`, { webhook_secret: 'signed-shop-secret-0123456789' })).status).toBe(200);
  expect((await unsigned('before-1')).status).toBe(401);
  const other = await asUser('POST', '/api/webhook-integrations', { name: 'Other', funnel_id: 'other-shop' });
  expect(other.status).toBe(201);
  // The audit records arrive over NATS: the ones made so far are in before the mark, so none is taken for a refusal's.
  await waitFor(async () => seen.find((x) => x.target_id === String(other.body.id)), { what: 'the creation record of Other' });

  const mark = seen.length;
  expect(await asUser('PATCH', `/api/webhook-integrations/${id}`, { active: false })).toMatchObject(FORBIDDEN);
  expect(await asUser('PATCH', `/api/webhook-integrations/${id}`, { webhook_secret: null })).toMatchObject(FORBIDDEN);
  expect(await asUser('PATCH', `/api/webhook-integrations/${id}`, { funnel_id: 'moved-away' })).toMatchObject(FORBIDDEN);
  expect(await asUser('DELETE', `/api/webhook-integrations/${id}`)).toMatchObject(FORBIDDEN);
  expect(await asUser('POST', '/api/webhook-integrations', { name: 'Twin', funnel_id: 'signed-shop' })).toMatchObject(FORBIDDEN);
  expect(await asUser('PATCH', `/api/webhook-integrations/${other.body.id}`, { funnel_id: 'signed-shop' })).toMatchObject(FORBIDDEN);

  // Nothing changed: still active, signed, on its funnel, and unsigned deliveries are still refused.
  const list = (await asUser('GET', '/api/webhook-integrations')).body as { id: number; funnel_id: string; active: boolean; signing: { has_secret: boolean } }[];
  expect(list.find((i) => i.id === id)).toMatchObject({ active: true, funnel_id: 'signed-shop', signing: { has_secret: true } });
  expect(list.filter((i) => i.funnel_id === 'signed-shop')).toHaveLength(1);
  expect((await unsigned('after-1')).status).toBe(401);
  // Positive control: a user may still edit what does not touch signing.
  expect((await asUser('PATCH', `/api/webhook-integrations/${id}`, { name: 'Signed shop (renamed)' })).status).toBe(200);
  await waitFor(async () => seen.slice(mark).find((x) => x.target_id === String(id) && x.change.after?.name === 'Signed shop (renamed)'), { what: 'the rename record' });
  // The refused attempts left no record.
  expect(seen.slice(mark).filter((x) => x.actor?.username === testUser.username && x.status !== 200)).toEqual([]);
  expect(seen.slice(mark).filter((x) => x.change.after?.active === false || x.change.after === null)).toEqual([]);

  // An admin may pause it (audited), and then deliveries fall to the default integration, unsigned: the admin's call.
  expect((await asAdmin('PATCH', `/api/webhook-integrations/${id}`, { active: false })).status).toBe(200);
  const paused = await waitFor(async () => seen.find((x) => x.route === 'PATCH /api/webhook-integrations/:id' && x.target_id === String(id) && x.change.after?.active === false), { what: 'the pause record' });
  expect(paused).toMatchObject({ actor: { username: testAdmin.username, role: 'admin' }, change: { before: { active: true }, after: { active: false } } });
  expect((await asAdmin('DELETE', `/api/webhook-integrations/${id}`)).status).toBe(200);
  const deleted = await waitFor(async () => seen.find((x) => x.route === 'DELETE /api/webhook-integrations/:id' && x.target_id === String(id)), { what: 'the delete record' });
  expect(deleted.change).toMatchObject({ before: { funnel_id: 'signed-shop' }, after: null });
});
