// A purchase's codes cross to the other side with the purchase: a Shopify order posted to the email integration
// publishes them on funnel.purchase.created (the SMS side marks its own there), and a purchase the SMS side relays
// with an email step's code marks it redeemed here, with its discount, matched by the shopper's address.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { StringCodec, type NatsConnection, type Subscription } from 'nats';
import { Subjects } from '@act/contracts';
import type { FakeResend } from '@act/testing';
import { contactCreated, natsConnect, waitFor, HOOK_TIMEOUT_MS } from '../test/helpers';
import { funnelCampaign, offerTemplate, startSendingEmail, type SendingEmail } from '../test/live-sending';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(__dirname, '../../../packages/sources/src/shopify/fixtures', `${name}.json`), 'utf8'));

let resend: FakeResend;
let email: SendingEmail;
let nc: NatsConnection;
beforeAll(async () => {
  email = await startSendingEmail('relayed_codes');
  resend = email.resend;
  nc = await natsConnect();
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await nc?.close();
  await email?.stop();
});

async function funnel(funnelId: string) {
  const { templateIds, webhookPath } = await funnelCampaign(email, funnelId, { templates: [offerTemplate(funnelId, '<p>Code: [{{discountCode}}]</p>')] });
  return { templateId: templateIds[0]!, webhookPath };
}
const figuresOf = async (templateId: number) =>
  ((await email.api('GET', '/api/email/incentive-redemptions')).body as { step_key: string; redeemed: number }[]).find((s) => s.step_key === `email-template:${templateId}`);

it('an order with codes posted here publishes them with the purchase, for the other side', async () => {
  const { webhookPath } = await funnel('relay-out');
  const sub: Subscription = nc.subscribe(`${email.prefix}${Subjects.purchaseCreated}`);
  const seen: Record<string, unknown>[] = [];
  void (async () => {
    for await (const m of sub) seen.push(JSON.parse(StringCodec().decode(m.data)));
  })();
  const order: Record<string, unknown> = { ...fixture('orders-create'), discount_codes: [{ code: 'SMS-CODE-7', amount: '4.25', type: 'fixed_amount' }] };
  const r = await email.api('POST', webhookPath, {
    raw: JSON.stringify(order),
    user: null,
    headers: { 'content-type': 'application/json', 'X-Shopify-Topic': 'orders/create', 'X-Shopify-Webhook-Id': 'relay-out-1' },
  });
  expect(r.status).toBe(200);
  const event = await waitFor(async () => seen.find((e) => e.funnelId === 'relay-out'), { what: 'the published purchase' });
  expect(event).toMatchObject({ currency: order.currency, discountCodes: [{ code: 'SMS-CODE-7', amount: '4.25' }] });
  sub.unsubscribe();
});

it('a purchase relayed from the SMS side marks the email step’s code it used redeemed, with its discount', async () => {
  const pool = await email.api('POST', '/api/email/incentive-pools', { body: { name: 'Relay in', csv: 'code\nIN-1\nIN-2\n' } });
  expect(pool.status).toBe(201);
  const { templateId } = await funnel('relay-in');
  expect((await email.api('PUT', `/api/email/templates/${templateId}/incentive`, { body: { kind: 'pool', pool_id: (pool.body as { id: string }).id } })).status).toBe(200);
  const shoppers = ['relay.buyer@example.com', 'relay.other@example.com'];
  for (const [i, to] of shoppers.entries())
    expect((await email.api('POST', '/api/webhook', { body: contactCreated(`RI-${i}`, to, 'relay-in', { checkout_url: `https://shop.example.com/c/${i}` }), user: null })).status).toBe(200);
  const sent = await waitFor(async () => (shoppers.every((to) => resend.emailsTo(to).length === 1) ? shoppers.map((to) => resend.emailsTo(to)[0]!) : null), {
    timeoutMs: 30_000,
    what: 'two emails',
  });
  const code = /Code: \[([^\]]*)\]/.exec(sent[0]!.html)![1]!;
  expect(code).toMatch(/^IN-\d$/);
  expect(await figuresOf(templateId)).toEqual({ step_key: `email-template:${templateId}`, given: 2, redeemed: 0, discount: [], revenue: [] });

  // The order was posted to the SMS integration: its contact id is the SMS side's own; the address matches here.
  const eventId = randomUUID();
  const event = {
    eventId,
    source: 'svc-sms',
    occurredAt: new Date().toISOString(),
    funnelId: 'relay-in',
    contactId: 'sms-side-order-9',
    email: 'Relay.Buyer@example.com',
    phone: null,
    amount: 30,
    currency: 'USD',
    purchasedAt: new Date().toISOString(),
    discountCodes: [{ code: code.toLowerCase(), amount: '3.00' }],
  };
  await nc.jetstream().publish(`${email.prefix}${Subjects.purchaseCreated}`, JSON.stringify(event), { msgID: eventId });
  const figures = await waitFor(async () => {
    const f = await figuresOf(templateId);
    return f && f.redeemed > 0 ? f : null;
  }, { timeoutMs: 15_000, what: 'the redemption' });
  expect(figures).toEqual({ step_key: `email-template:${templateId}`, given: 2, redeemed: 1, discount: [{ currency: 'USD', minor: 300 }], revenue: [{ currency: 'USD', minor: 3000 }] });
});
