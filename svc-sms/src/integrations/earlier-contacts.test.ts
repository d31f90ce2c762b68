/**
 * A contact that came in with a phone (through the email side) before an SMS integration existed for its funnel is
 * picked up when one is created, within PICKUP_WINDOW_DAYS; older ones and ones without a phone are not.
 */
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { MongoClient } from 'mongodb';
import type { SmsContact } from '@act/contracts/src/sms-api';
import { Subjects } from '@act/contracts';
import { call, waitUntilConsumersDrained } from '@act/service-kit/testing';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, publishEvent, waitFor } from '../test/helpers';
import { PICKUP_WINDOW_DAYS } from './earlier-contacts';

jest.setTimeout(120_000);

const sms = useSmsWithTwilio('earlier');
let nc: NatsConnection;
beforeAll(async () => {
  nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
});
afterAll(async () => {
  await nc?.close();
});

const contactEvent = (contactId: string, phone: string | null) => ({
  eventId: randomUUID(),
  source: 'svc-email',
  occurredAt: new Date().toISOString(),
  funnelId: 'later',
  contactId,
  email: `${contactId}@example.com`,
  phone,
  firstName: 'Early',
  createdAt: new Date().toISOString(),
});
const contacts = async () => ((await call(sms.svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).filter((c) => c.funnel_id === 'later');

it('picks up the earlier contacts of its funnel when the SMS integration is created, and texts them', async () => {
  await publishEvent(sms.t.natsPrefix, Subjects.contactCreated, contactEvent('early-1', '+15552080001'));
  await publishEvent(sms.t.natsPrefix, Subjects.contactCreated, contactEvent('early-2', null));
  await waitUntilConsumersDrained(await nc.jetstreamManager(), `${sms.t.natsPrefix}FUNNEL`);
  expect(await contacts()).toEqual([]);
  // One kept longer ago than the window: not picked up.
  const client = await MongoClient.connect(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017');
  try {
    await client.db(sms.t.db).collection('sms_earlier_contacts').insertOne({ funnel_id: 'later', contact_id: 'too-old', phone: '+15552080009', email: null, first_name: null, checkout_url: null, trusted: true, received_at: new Date(Date.now() - (PICKUP_WINDOW_DAYS + 1) * 86_400_000) });
  } finally {
    await client.close();
  }
  await createFunnel(sms.svc.url, 'later', [{ message: 'Hi {first_name}' }]);
  const picked = await contacts();
  expect(picked.map((c) => c.contact_id)).toEqual(['early-1']);
  await waitFor(async () => sms.twilio.messages.some((m) => m.to === '+15552080001'), 15_000);
  expect(sms.twilio.messages.find((m) => m.to === '+15552080001')?.body).toBe('Hi Early');
});

it("never texts a test delivery's contact the email side relays, while a real one of the same funnel is texted", async () => {
  await publishEvent(sms.t.natsPrefix, Subjects.contactCreated, { ...contactEvent('td-1', '+14155550100'), email: 'test-delivery+0a1b2c3d@example.com', test: true });
  await publishEvent(sms.t.natsPrefix, Subjects.contactCreated, contactEvent('real-2', '+15552080002'));
  // The positive control: the real contact's text goes out after its delay ("minutes" are seconds here).
  await waitFor(async () => sms.twilio.messages.some((m) => m.to === '+15552080002'), 15_000);
  const td = await waitFor(async () => (await contacts()).find((c) => c.contact_id === 'td-1'), 5_000);
  expect(td).toMatchObject({ phone: '+14155550100', next_send_at: null, test: true });
  await new Promise((r) => setTimeout(r, 2_000));
  expect(sms.twilio.messages.some((m) => m.to === '+14155550100')).toBe(false);
});

it("a picked-up contact keeps what the sender said of its checkout: the cart's link, the consent hold", async () => {
  const cart = (link: string) => ({
    items: [],
    more_items: 0,
    subtotal: null,
    discounts: null,
    total: 4250,
    currency: 'USD',
    recovery_url: link,
    recovery_expires_at: null,
    updated_at: new Date().toISOString(),
    updated_at_source: 'sender',
  });
  await publishEvent(sms.t.natsPrefix, Subjects.contactCreated, { ...contactEvent('kept-held', '+15552080011'), funnelId: 'later-cart', cart: cart('https://shop.example/c/held'), remindersHeld: 'The shopper did not agree to promotional messages' });
  await publishEvent(sms.t.natsPrefix, Subjects.contactCreated, { ...contactEvent('kept-open', '+15552080012'), funnelId: 'later-cart', cart: cart('https://shop.example/c/open') });
  await waitUntilConsumersDrained(await nc.jetstreamManager(), `${sms.t.natsPrefix}FUNNEL`);
  // A row kept with its link alone, as stored before the kept contacts held their cart.
  const client = await MongoClient.connect(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017');
  try {
    await client.db(sms.t.db).collection('sms_earlier_contacts').insertOne({ funnel_id: 'later-cart', contact_id: 'kept-link', phone: '+15552080013', email: null, first_name: null, checkout_url: 'https://shop.example/c/link-only', trusted: true, received_at: new Date() });
  } finally {
    await client.close();
  }
  await createFunnel(sms.svc.url, 'later-cart', [{ message: 'Back to your cart: {checkout_url}' }]);
  const picked = Object.fromEntries((await call(sms.svc.url, 'GET', '/api/sms-contacts')).body.filter((c: SmsContact) => c.funnel_id === 'later-cart').map((c: SmsContact) => [c.contact_id, c]));
  expect(picked['kept-held']).toMatchObject({ reminders_held: 'The shopper did not agree to promotional messages', cart: { recovery_url: 'https://shop.example/c/held', total: 4250 } });
  expect(picked['kept-open']).toMatchObject({ reminders_held: null, cart: { recovery_url: 'https://shop.example/c/open' } });
  expect(picked['kept-link']).toMatchObject({ cart: { recovery_url: 'https://shop.example/c/link-only', total: null } });
  await waitFor(async () => ['+15552080012', '+15552080013'].every((to) => sms.twilio.messages.some((m) => m.to === to)), 15_000);
  expect(sms.twilio.messages.find((m) => m.to === '+15552080012')?.body).toBe('Back to your cart: https://shop.example/c/open');
  expect(sms.twilio.messages.find((m) => m.to === '+15552080013')?.body).toBe('Back to your cart: https://shop.example/c/link-only');
  await new Promise((r) => setTimeout(r, 2_000));
  expect(sms.twilio.messages.some((m) => m.to === '+15552080011')).toBe(false);
});
