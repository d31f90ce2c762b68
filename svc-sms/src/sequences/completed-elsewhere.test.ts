/**
 * The sender says the checkout was completed elsewhere, through the service over HTTP with the fake Twilio: one
 * shopper (one phone) left two checkouts in one shop; the second is a duplicate of the phone's first, and the sender
 * then reports a purchase naming the second. The first one's sequence, due for its next text, ends instead, and its
 * timeline says which checkout was paid. A shopper with one checkout gets the whole sequence.
 */
import { call } from '@act/service-kit/testing';
import type { SmsContact } from '@act/contracts/src/sms-api';
import type { TimelinePart } from '@act/contracts/src/timeline';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, postContact, waitFor } from '../test/helpers';

jest.setTimeout(120_000);

const sms = useSmsWithTwilio('elsewhere');
const sentTo = (phone: string) => sms.twilio.messages.filter((m) => m.to === phone).map((m) => m.body);
const contactOf = async (contactId: string) =>
  ((await call(sms.svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).find((c) => c.contact_id === contactId)!;

it("ends a sequence when the sender reports the shopper's other checkout paid, and says so on the timeline", async () => {
  await createFunnel(sms.svc.url, 'ce-shop', [{ message: 'First' }, { message: 'Second', delay_minutes: 8 }]);
  await postContact(sms.svc.url, 'ce-shop', 'co-B', '+15552093001');
  await postContact(sms.svc.url, 'ce-shop', 'co-C', '+15552093002');
  await waitFor(async () => sentTo('+15552093001').length === 1 && sentTo('+15552093002').length === 1, 20_000);
  // The same phone's other checkout: a duplicate of the first, never texted.
  await postContact(sms.svc.url, 'ce-shop', 'co-A', '+15552093001');
  await waitFor(async () => (await contactOf('co-A')).status === 'skipped_duplicate', 20_000);
  // The sender's purchase names checkout co-A (a Shopify order's checkout_token, a Stripe session, a WooCommerce order).
  const r = await call(sms.svc.url, 'POST', '/api/sms/webhook', { user: null, body: { event: 'purchase_created', funnel_id: 'ce-shop', contact: { id: 'co-A' } } });
  expect(r.body).toMatchObject({ status: 'ok', updated: 1 });

  await waitFor(async () => sentTo('+15552093002').length === 2, 30_000);
  await waitFor(async () => (await contactOf('co-B')).next_send_at === null, 15_000);
  expect(sentTo('+15552093001')).toEqual(['First']);
  expect(sentTo('+15552093002')).toEqual(['First', 'Second']);
  // Not a purchase of its own: the first checkout keeps its status.
  expect((await contactOf('co-B')).status).toBe('sent');
  const part = (await call(sms.svc.url, 'GET', `/internal/timeline?contact=${(await contactOf('co-B')).id}&limit=100`)).body as TimelinePart;
  const ended = part.entries.filter((e) => e.status === 'sequence_exited');
  expect(ended).toHaveLength(1);
  expect(ended[0]).toMatchObject({ title: 'SMS sequence ended' });
  expect(ended[0]!.detail).toMatch(/^checkout completed elsewhere \(the sender reported checkout co-A paid at \d{4}-\d\d-\d\dT[\d:.]+Z\)$/);
});
