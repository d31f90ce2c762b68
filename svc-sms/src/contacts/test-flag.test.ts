/**
 * A "Send test delivery" contact is marked by a stored flag, over HTTP against the running svc-sms (no Twilio): stored
 * with `test: true` from its own webhook (header and reserved phone) or the email side's event (its `test`), never
 * scheduled, in no count, and "Remove test deliveries" removes exactly those. A real delivery whose shopper happens
 * to have the reserved phone is a real contact; a contact stored before the flag with that phone is a test.
 */
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { Subjects } from '@act/contracts';
import { TEST_DELIVERY_HEADER, TEST_DELIVERY_PHONE } from '@act/contracts/src/test-delivery';
import type { ProviderStatusResponse } from '@act/contracts/src/provider-status';
import type { RevenueSummary } from '@act/contracts/src/revenue-api';
import type { SmsContact, SmsContactPage } from '@act/contracts/src/sms-api';
import { call, type ServiceProcess } from '@act/service-kit/testing';
import { createFunnel, dropDb, dropStream, postContact, publishEvent, smsTestEnv, startSms, waitFor, type SmsTestEnv } from '../test/helpers';

jest.setTimeout(120_000);

let svc: ServiceProcess;
let t: SmsTestEnv;
let client: MongoClient;
beforeAll(async () => {
  t = smsTestEnv('testflag', null);
  client = await MongoClient.connect(t.env.MONGODB_URI!);
  // Stored before the flag existed: no `test` field, a step due.
  const at = new Date(Date.now() - 60_000);
  const legacy = { funnel_id: 'old', integration_id: null, first_name: null, email: null, checkout_url: null, status: 'pending', remind_at: at, next_at: at, step: 0, sent_count: 0, last_sent_at: null, purchased_at: null, created_at: at, updated_at: at };
  await client.db(t.db).collection('sms_contacts').insertMany([
    { id: 900001, contact_id: 'legacy', phone: TEST_DELIVERY_PHONE, ...legacy },
    { id: 900002, contact_id: 'legacy-real', phone: '+15552090009', ...legacy },
  ]);
  svc = await startSms(t);
});
afterAll(async () => {
  await svc?.stop();
  await client?.close();
  await dropStream(t.natsPrefix);
  await dropDb(t.db);
});

const stored = (contactId: string) => client.db(t.db).collection('sms_contacts').findOne({ contact_id: contactId }, { projection: { _id: 0, test: 1, next_at: 1 } });
const contacts = async () => (await call(svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[];
const waiting = async () => ((await call(svc.url, 'GET', '/api/sms/provider-status')).body as ProviderStatusResponse).waiting;
const event = (contactId: string, phone: string, test?: boolean) => ({
  eventId: randomUUID(),
  source: 'svc-email',
  occurredAt: new Date().toISOString(),
  funnelId: 'flag',
  contactId,
  email: `${contactId}@example.com`,
  phone,
  createdAt: new Date().toISOString(),
  ...(test !== undefined ? { test } : {}),
});

it('stores the flag from the delivery, not from the phone; never schedules, counts or keeps a test', async () => {
  await createFunnel(svc.url, 'flag', [{ message: 'Hi' }]);
  // The backfill: the legacy test loses its step, the legacy real contact keeps its own.
  await waitFor(async () => (await stored('legacy'))?.test === true);
  expect(await stored('legacy')).toEqual({ test: true, next_at: null });
  expect(await stored('legacy-real')).toEqual({ next_at: expect.any(Date) });

  const sample = { email: 'test-delivery+f1a9@example.com' };
  expect((await postContact(svc.url, 'flag', 's-test', TEST_DELIVERY_PHONE, sample, { [TEST_DELIVERY_HEADER]: 'f1a9' })).status).toBe(200);
  // The reserved phone without the header, and the header on a real phone: real contacts both.
  expect((await postContact(svc.url, 'flag', 's-reserved', TEST_DELIVERY_PHONE, { email: 'someone@shop.test' })).status).toBe(200);
  expect((await postContact(svc.url, 'flag', 's-forged', '+15552090001', {}, { [TEST_DELIVERY_HEADER]: 'f1a9' })).status).toBe(200);
  // Relayed by the email side: its flag decides.
  await publishEvent(t.natsPrefix, Subjects.contactCreated, event('e-test', TEST_DELIVERY_PHONE, true));
  await publishEvent(t.natsPrefix, Subjects.contactCreated, event('e-real', TEST_DELIVERY_PHONE, false));
  await waitFor(async () => (await stored('e-real')) !== null && (await stored('e-test')) !== null);

  expect(await stored('s-test')).toEqual({ test: true, next_at: null });
  expect(await stored('e-test')).toEqual({ test: true, next_at: null });
  for (const id of ['s-reserved', 's-forged', 'e-real']) expect(await stored(id)).toEqual({ test: false, next_at: expect.any(Date) });

  const byId = Object.fromEntries((await contacts()).map((c) => [c.contact_id, [c.test, c.next_send_at !== null]]));
  expect(byId).toEqual({
    's-test': [true, false],
    'e-test': [true, false],
    's-reserved': [false, true],
    's-forged': [false, true],
    'e-real': [false, true],
    legacy: [true, false],
    'legacy-real': [false, true],
  });
  // The SMS Contacts page lists the seven rows, tests badged; its four cards count the four real contacts only.
  const page = (await call(svc.url, 'GET', '/api/sms-contacts?page=1&pageSize=50')).body as SmsContactPage;
  expect(page.total).toBe(7);
  expect(page.items.filter((c) => c.test)).toHaveLength(3);
  expect(page.summary).toEqual({ total: 4, pending: 4, purchased: 0, sent: 0, tests: 3 });
  const pendingRows = (await call(svc.url, 'GET', '/api/sms-contacts?page=1&pageSize=50&status=pending')).body as SmsContactPage;
  expect([pendingRows.total, pendingRows.summary.pending]).toEqual([7, 4]);
  // Waiting for Twilio once due ("minutes" are seconds here): the four real contacts, no test.
  await waitFor(async () => (await waiting()) === 4, 15_000);
  // Counted: the four real contacts of the seven, not the three tests.
  const summary = (await call(svc.url, 'GET', '/api/sms/revenue/summary?days=1')).body as RevenueSummary;
  expect(summary.funnel.contacts).toBe(4);

  const r = await call(svc.url, 'POST', '/api/sms-webhook-integrations/clear-test-deliveries', {});
  expect(r.body).toMatchObject({ success: true, cleared: { contacts: 3 } });
  expect((await contacts()).map((c) => c.contact_id).sort()).toEqual(['e-real', 'legacy-real', 's-forged', 's-reserved']);
});
