/**
 * Rules recorded on a contact at intake and enforced by the sequence's steps: a contact whose reminders are held (the
 * shopper declined promotional messages) gets no text; past the sender's recovery deadline the contact's own link is
 * replaced by the integration's fallback, or the step is logged skipped when there is none. Through the service over
 * HTTP and NATS (the email side's relayed contact carries the cart and the hold), with the fake Twilio.
 */
import { randomUUID } from 'node:crypto';
import { call } from '@act/service-kit/testing';
import { Subjects } from '@act/contracts';
import type { SmsContact, SmsLog } from '@act/contracts/src/sms-api';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, publishEvent, sleep, waitFor } from '../test/helpers';
import { RECOVERY_LINK_EXPIRED } from './steps';

jest.setTimeout(120_000);

const sms = useSmsWithTwilio('holds');
const sentTo = (phone: string) => sms.twilio.messages.filter((m) => m.to === phone).map((m) => m.body);
const logsOf = async (phone: string) =>
  ((await call(sms.svc.url, 'GET', '/api/sms-logs')).body as SmsLog[]).filter((l) => l.phone === phone);
const contactOf = async (contactId: string) =>
  ((await call(sms.svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).find((c) => c.contact_id === contactId);

const cart = (expiresAt: string | null) => ({
  items: [],
  more_items: 0,
  subtotal: 4200,
  discounts: null,
  total: 4200,
  currency: 'EUR',
  recovery_url: 'https://pay.example.com/c/recover',
  recovery_expires_at: expiresAt,
  updated_at: new Date().toISOString(),
  updated_at_source: 'sender',
});
const relayed = (funnelId: string, contactId: string, phone: string, extra: Record<string, unknown> = {}) => ({
  eventId: randomUUID(),
  source: 'svc-email',
  occurredAt: new Date().toISOString(),
  funnelId,
  contactId,
  email: `${contactId}@example.com`,
  phone,
  firstName: 'Ann',
  checkoutUrl: 'https://pay.example.com/c/recover',
  createdAt: new Date().toISOString(),
  ...extra,
});
const past = () => new Date(Date.now() - 60_000).toISOString();
const future = () => new Date(Date.now() + 86_400_000).toISOString();

it('a contact whose reminders are held gets no text, while a contact of the same funnel is texted', async () => {
  await createFunnel(sms.svc.url, 'held', [{ message: 'Hi {first_name}' }]);
  await publishEvent(sms.t.natsPrefix, Subjects.contactCreated, {
    ...relayed('held', 'h-1', '+15552090101'),
    remindersHeld: 'The shopper declined promotional messages at checkout',
  });
  await publishEvent(sms.t.natsPrefix, Subjects.contactCreated, relayed('held', 'h-2', '+15552090102'));
  await waitFor(async () => sentTo('+15552090102').length === 1, 15_000);
  const held = await waitFor(async () => {
    const c = await contactOf('h-1');
    return c && c.next_send_at === null ? c : null;
  }, 15_000);
  expect(held).toMatchObject({ reminders_held: 'The shopper declined promotional messages at checkout', status: 'abandoned' });
  await sleep(1_500);
  expect(sentTo('+15552090101')).toEqual([]);
  expect(await logsOf('+15552090101')).toEqual([]);
});

it("past the recovery deadline the integration's fallback link is texted; a contact before it keeps its own link", async () => {
  const { integration } = await createFunnel(sms.svc.url, 'expired-fallback', [{ message: 'Your cart: {checkout_url}' }]);
  const patched = await call(sms.svc.url, 'PATCH', `/api/sms-webhook-integrations/${integration.id}`, {
    body: { checkout_fallback_url: 'https://shop.example/cart' },
  });
  expect(patched.status).toBe(200);
  await publishEvent(sms.t.natsPrefix, Subjects.contactCreated, { ...relayed('expired-fallback', 'x-1', '+15552090201'), cart: cart(past()) });
  await publishEvent(sms.t.natsPrefix, Subjects.contactCreated, { ...relayed('expired-fallback', 'x-2', '+15552090202'), cart: cart(future()) });
  await waitFor(async () => sentTo('+15552090201').length === 1 && sentTo('+15552090202').length === 1, 15_000);
  expect(sentTo('+15552090201')).toEqual(['Your cart: https://shop.example/cart']);
  expect(sentTo('+15552090202')).toEqual(['Your cart: https://pay.example.com/c/recover']);
});

it('past the recovery deadline with no fallback link the step is logged skipped with the reason, and the next one sent', async () => {
  await createFunnel(sms.svc.url, 'expired-none', [{ message: 'Your cart: {checkout_url}' }, { message: 'Still there?', delay_minutes: 1 }]);
  await publishEvent(sms.t.natsPrefix, Subjects.contactCreated, { ...relayed('expired-none', 'y-1', '+15552090301'), cart: cart(past()) });
  await waitFor(async () => sentTo('+15552090301').length === 1, 20_000);
  expect(sentTo('+15552090301')).toEqual(['Still there?']);
  const skipped = (await logsOf('+15552090301')).find((l) => l.status === 'skipped_no_link');
  expect(skipped?.error_message).toBe(RECOVERY_LINK_EXPIRED);
});
