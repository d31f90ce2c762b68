/**
 * A cart that changes while the sequence runs, through the service over HTTP and NATS with the fake Twilio: a
 * campaign set to restart starts again from its first step; one left on continue goes on with its next step.
 */
import { randomUUID } from 'node:crypto';
import { call } from '@act/service-kit/testing';
import { Subjects } from '@act/contracts';
import type { SmsCampaign, SmsContact } from '@act/contracts/src/sms-api';
import type { TimelinePart } from '@act/contracts/src/timeline';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, publishEvent, waitFor } from '../test/helpers';

jest.setTimeout(120_000);

const sms = useSmsWithTwilio('cartchange');
const sentTo = (phone: string) => sms.twilio.messages.filter((m) => m.to === phone).map((m) => m.body);

const cart = (total: number) => ({
  items: [],
  more_items: 0,
  subtotal: total,
  discounts: null,
  total,
  currency: 'EUR',
  recovery_url: 'https://pay.example.com/c/recover',
  recovery_expires_at: null,
  updated_at: new Date().toISOString(),
  updated_at_source: 'sender',
});
/** The email side's fact of the contact, with its cart (the SMS side keeps the newer cart). */
const relay = (funnelId: string, contactId: string, phone: string, total: number) =>
  publishEvent(sms.t.natsPrefix, Subjects.contactCreated, {
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
    cart: cart(total),
  });

const steps = [{ message: 'First' }, { message: 'Second', delay_minutes: 8 }, { message: 'Third', delay_minutes: 2 }];

it('a cart changed after the first text restarts a campaign set to restart; a campaign left on continue goes on', async () => {
  const restart = await createFunnel(sms.svc.url, 'cart-restart', steps);
  await createFunnel(sms.svc.url, 'cart-continue', steps);
  const patched = await call(sms.svc.url, 'PATCH', `/api/sms-campaigns/${restart.campaign.id}`, { body: { on_cart_change: 'restart', priority: 5 } });
  expect(patched.status).toBe(200);
  expect(patched.body as SmsCampaign).toMatchObject({ on_cart_change: 'restart', priority: 5 });
  const listed = (await call(sms.svc.url, 'GET', '/api/sms-campaigns')).body as SmsCampaign[];
  expect(listed.find((c) => c.name === 'Campaign cart-continue')).toMatchObject({ on_cart_change: 'continue', priority: 0 });

  // Twilio answers the first texts late: a cart changed while its text is on the way (after the text showed the old
  // cart, before the send is done) is still a change the shopper has not seen.
  sms.twilio.answerAfter(1500);
  await relay('cart-restart', 'cr-1', '+15552091001', 4200);
  await relay('cart-continue', 'cc-1', '+15552091002', 4200);
  // The shopper changes the cart before the second step falls due: here, as soon as Twilio took the first text and
  // before it answered.
  await waitFor(async () => sentTo('+15552091001').length === 1, 20_000);
  await relay('cart-restart', 'cr-1', '+15552091001', 9900);
  await waitFor(async () => sentTo('+15552091002').length === 1, 20_000);
  await relay('cart-continue', 'cc-1', '+15552091002', 9900);
  sms.twilio.answerAfter(0);

  await waitFor(async () => sentTo('+15552091002').length === 3, 30_000);
  expect(sentTo('+15552091002')).toEqual(['First', 'Second', 'Third']);
  await waitFor(async () => sentTo('+15552091001').length === 4, 30_000);
  expect(sentTo('+15552091001')).toEqual(['First', 'First', 'Second', 'Third']);
  // The restart is on the contact's timeline with its reason; the sequence that went on has no such entry.
  const flowEntries = async (contactId: string) => {
    const id = ((await call(sms.svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).find((c) => c.contact_id === contactId)!.id;
    const part = (await call(sms.svc.url, 'GET', `/internal/timeline?contact=${id}&limit=100`)).body as TimelinePart;
    return part.entries.filter((e) => e.status?.startsWith('sequence_')).map(({ title, detail }) => ({ title, detail }));
  };
  expect(await flowEntries('cr-1')).toEqual([
    { title: 'SMS sequence started again from its first text', detail: 'the cart changed: the sequence starts again from its first step' },
  ]);
  expect(await flowEntries('cc-1')).toEqual([]);
});
