/**
 * A "Send test delivery" contact is marked by a stored flag, over HTTP against the running svc-email: stored with
 * `test: true`, held (no reminder), in no count, and "Remove test deliveries" removes exactly those. A real delivery
 * whose shopper happens to have the reserved address is a real contact; a contact stored before the flag with that
 * address is a test (the start-up backfill).
 */
import { MongoClient } from 'mongodb';
import { TEST_DELIVERY_HEADER } from '@act/contracts/src/test-delivery';
import type { Contact } from '@act/contracts/src/email-api';
import type { RevenueSummary } from '@act/contracts/src/revenue-api';
import { testDbName } from '@act/service-kit/testing';
import { MONGODB_URI, contactCreated, dropDb, startEmail, waitFor, HOOK_TIMEOUT_MS, type EmailUnderTest } from '../test/helpers';

const db = testDbName('email_test_flag');
let email: EmailUnderTest;
let client: MongoClient;

beforeAll(async () => {
  client = await MongoClient.connect(MONGODB_URI);
  // Stored before the flag existed: no `test` field.
  const at = new Date(Date.now() - 60_000);
  const legacy = { contact_id: 'legacy', email: 'test-delivery+0ld@example.com', email_lower: 'test-delivery+0ld@example.com', phone: null, first_name: null, integration_id: null, created_at: at, remind_at: at, purchased_at: null, sent_at: at, status: 'sent' };
  await client.db(db).collection('contacts').insertMany([
    { id: 900001, ...legacy },
    { id: 900002, ...legacy, contact_id: 'legacy-real', email: 'shopper@shop.test', email_lower: 'shopper@shop.test' },
  ]);
  email = await startEmail('test-flag', { MONGODB_DB: db, RESEND_API_KEY: '', RESEND_FROM: '' });
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await email?.svc.stop();
  await client?.close();
  await dropDb(db);
});

const stored = (contactId: string) => client.db(db).collection('contacts').findOne({ contact_id: contactId }, { projection: { _id: 0, test: 1 } });
const contacts = async () => (await email.api('GET', '/api/contacts')).body as Contact[];
type Log = { contact_id: string; status: string; message: string };
const logsFor = async (contactId: string) => ((await email.api('GET', '/api/email-logs')).body as Log[]).filter((l) => l.contact_id === contactId);

it('stores the flag from the delivery, not from the address; holds, counts and removes by it', async () => {
  const created = await email.api('POST', '/api/webhook-integrations', { body: { name: 'Flag', funnel_id: 'flag', reminder_delay: 1 } });
  const integrationId = (created.body as { id: number }).id;
  const post = (id: string, address: string, test: boolean) =>
    email.api('POST', '/api/webhook', { body: contactCreated(id, address, 'flag'), user: null, headers: test ? { [TEST_DELIVERY_HEADER]: 'n0nce' } : {} });
  // The product's sample; a real shopper on the reserved domain; the header on a real address (it marks nothing).
  for (const [id, address, test] of [['f-test', 'test-delivery+n0nce@example.com', true], ['f-reserved', 'test-delivery+real@example.com', false], ['f-forged', 'buyer@shop.test', true]] as const)
    expect((await post(id, address, test)).status).toBe(200);

  expect(await stored('f-test')).toEqual({ test: true });
  expect(await stored('f-reserved')).toEqual({ test: false });
  expect(await stored('f-forged')).toEqual({ test: false });
  // The contact stored before the flag, by its reserved address; the other one is left as it was.
  await waitFor(async () => (await stored('legacy'))?.test === true, { what: 'the backfill' });
  expect(await stored('legacy-real')).toEqual({});

  // The test contact gets no reminder (held, saying why); the two real ones get theirs.
  const held = await waitFor(async () => ((await logsFor('f-test')).length ? logsFor('f-test') : null), { timeoutMs: 15_000, what: 'the held log' });
  expect(held).toEqual([expect.objectContaining({ status: 'held', message: 'Not sent: reminders held for test-delivery+n0nce@example.com (test delivery)' })]);
  await waitFor(async () => (await logsFor('f-reserved')).length === 1 && (await logsFor('f-forged')).length === 1, { timeoutMs: 15_000, what: 'the real reminders' });
  expect([...(await logsFor('f-reserved')), ...(await logsFor('f-forged'))].map((l) => l.status)).toEqual(['would_send', 'would_send']);

  const byId = new Map((await contacts()).map((c) => [c.contact_id, c.test]));
  expect(Object.fromEntries(byId)).toEqual({ 'f-test': true, 'f-reserved': false, 'f-forged': false, legacy: true, 'legacy-real': false });
  // A page lists the tests and says how many of its total they are, under each filter (the Dashboard's cards take
  // them off): all five rows, two of them tests.
  type Page = { items: Contact[]; total: number; tests: number };
  const page = async (query: string) => (await email.api('GET', `/api/contacts?page=1&pageSize=50${query}`)).body as Page;
  expect(await page('')).toMatchObject({ total: 5, tests: 2 });
  for (const status of ['pending', 'sent', 'purchased', 'unsubscribed']) {
    const p = await page(`&status=${status}`);
    expect([status, p.tests]).toEqual([status, p.items.filter((c) => c.test).length]);
  }
  // Past their reminder time, both tests are `sent` (the sample's reminder held): the Abandoned Carts card counted them.
  expect((await page('&status=sent')).tests).toBe(2);
  // Counted: the two real contacts of the integration, not its test delivery.
  const s = (await email.api('GET', `/api/revenue/summary?days=1&integration_id=${integrationId}`)).body as RevenueSummary;
  expect(s.funnel.contacts).toBe(2);

  const r = await email.api('POST', '/api/test/clear-test-deliveries', { body: {} });
  expect(r.body).toMatchObject({ success: true, cleared: { contacts: 2 } });
  expect((await contacts()).map((c) => c.contact_id).sort()).toEqual(['f-forged', 'f-reserved', 'legacy-real']);
  expect(await logsFor('f-test')).toEqual([]);
}, 60_000);
