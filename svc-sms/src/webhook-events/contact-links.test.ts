/**
 * SMS Webhook Events rows name the contact they produced or named (`contact_ref`, the row's link to its contact
 * page), in the plain list and in the paged one: a contact delivery and its purchase both name the contact; a
 * delivery that named no one still known has none. Over HTTP against the real service.
 */
import { call, type ServiceProcess } from '@act/service-kit/testing';
import type { SmsContact, SmsWebhookEvent, SmsWebhookEventPage } from '@act/contracts/src/sms-api';
import { createFunnel, dropDb, dropStream, postContact, smsTestEnv, startSms, type SmsTestEnv } from '../test/helpers';

jest.setTimeout(120_000);

let svc: ServiceProcess;
let t: SmsTestEnv;

beforeAll(async () => {
  t = smsTestEnv('event-contacts', null);
  svc = await startSms(t);
  await createFunnel(svc.url, 'links', [{ message: 'Hi {first_name}', delay_minutes: 600 }], 600);
});
afterAll(async () => {
  await svc?.stop();
  await dropStream(t.natsPrefix);
  await dropDb(t.db);
});

it('a contact delivery and its purchase link to the contact; an invalid delivery to none', async () => {
  expect((await postContact(svc.url, 'links', 'lk-1', '+14155550181')).status).toBe(200);
  expect((await call(svc.url, 'POST', '/api/sms/webhook', { user: null, body: { event_type: 'purchase_created', funnel_id: 'links', contact_id: 'lk-1', amount: 20, currency: 'USD' } })).status).toBe(200);
  expect((await call(svc.url, 'POST', '/api/sms/webhook', { user: null, body: { event: 'contact_created', funnel_id: 'links' } })).status).toBe(400);
  const contact = ((await call(svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).find((c) => c.contact_id === 'lk-1')!;

  const plain = (await call(svc.url, 'GET', '/api/sms-webhook-events')).body as SmsWebhookEvent[];
  const paged = ((await call(svc.url, 'GET', '/api/sms-webhook-events?page=1&pageSize=25')).body as SmsWebhookEventPage).items;
  for (const rows of [plain, paged])
    expect(rows.map((e) => [e.type, e.contact_ref])).toEqual([
      ['invalid', null],
      ['purchase', contact.id],
      ['contact', contact.id],
    ]);
});
