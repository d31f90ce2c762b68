import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import Stripe from 'stripe';
import type { Contact } from '@act/contracts/src/email-api';
import { startFakeStripe, type FakeStripe } from '@act/testing/fake-stripe';
import { dropDb, MONGODB_URI, startEmail, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

// A paid Stripe Checkout Session that used a promotion code marks the code a step gave that contact as redeemed:
// the session names the code by id, read once through the official library from the fake Stripe with the
// integration's restricted key; without a key the delivery says why nothing was marked.

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(__dirname, '../../../packages/sources/src/stripe/fixtures', `${name}.json`), 'utf8'));

const WHSEC = 'whsec_email_promo_0123456789abcdefABCDEF';

let email: EmailUnderTest;
let fake: FakeStripe;
let client: MongoClient;
beforeAll(async () => {
  fake = await startFakeStripe();
  email = await startEmail('stripe_promo', { SECRETS_KEY: 'stripe-promo-secrets-key', STRIPE_API_BASE: fake.url });
  client = await MongoClient.connect(MONGODB_URI);
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await client?.close();
  await email?.svc.stop();
  await fake?.close();
  if (email) await dropDb(email.db);
});

const admin = (method: string, p: string, body?: unknown) => email.api(method, p, { body });

async function stripeShop(funnelId: string, signing: Record<string, unknown>) {
  const r = await admin('POST', '/api/webhook-integrations', { name: `Shop ${funnelId}`, funnel_id: funnelId });
  expect(r.status).toBe(201);
  expect((await admin('PATCH', `/api/webhook-integrations/${r.body.id}`, { webhook_secret: WHSEC, webhook_source: 'stripe', ...signing })).status).toBe(200);
  const found = (await admin('GET', '/api/webhook-integrations')).body.find((i: { id: number }) => i.id === r.body.id);
  return { id: r.body.id as number, path: new URL(found.webhook_url).pathname };
}

async function post(p: string, body: unknown) {
  const raw = JSON.stringify(body);
  const sig = Stripe.webhooks.generateTestHeaderString({ payload: raw, secret: WHSEC });
  return email.api('POST', p, { raw, headers: { 'content-type': 'application/json', 'Stripe-Signature': sig }, user: null });
}

/** An expired session of its own, then the contact it made and a unique code a step gave it (issued). */
async function shopperWithCode(shop: { id: number; path: string }, sessionId: string, code: string, stepKey: string) {
  const ev = fixture('checkout-session-expired');
  const object = (ev.data as { object: Record<string, unknown> }).object;
  expect((await post(shop.path, { ...ev, id: `evt_${sessionId}`, data: { object: { ...object, id: sessionId } } })).status).toBe(200);
  const list = await admin('GET', `/api/contacts?page=1&pageSize=100&integration_id=${shop.id}`);
  const contact = (list.body.items as Contact[]).find((c) => c.contact_id === sessionId)!;
  expect(contact).toBeDefined();
  // The grant as the incentive step leaves it once its code went out (the step itself is incentives.test.ts's).
  await client.db(email.db).collection('incentive_grants').insertOne({
    contact_ref: contact.id,
    step_key: stepKey,
    kind: 'unique',
    integration_id: shop.id,
    code,
    code_key: code.toUpperCase(),
    state: 'issued',
    note: null,
    created_at: new Date(),
    issued_at: new Date(),
    redeemed_at: null,
    discount_minor: null,
    currency: null,
    order_ref: null,
    order_minor: null,
  });
  return contact;
}

/** The paid session that came back through `recoveredFrom`, with one promotion code (by id) and its discount. */
function paidWith(recoveredFrom: string, promotionCodeId: string, eventId: string) {
  const ev = fixture('checkout-session-completed-recovered');
  const object = (ev.data as { object: Record<string, unknown> }).object;
  return {
    ...ev,
    id: eventId,
    data: { object: { ...object, id: `cs_paid_${eventId}`, recovered_from: recoveredFrom, discounts: [{ coupon: null, promotion_code: promotionCodeId }], total_details: { amount_discount: 880, amount_shipping: 0, amount_tax: 0 } } },
  };
}

const grantOf = (contactRef: number) => client.db(email.db).collection('incentive_grants').findOne({ contact_ref: contactRef });

describe('Stripe promotion codes redeem the codes steps gave', () => {
  it('with a restricted key: the promotion code is read once through the API and the issued code is marked redeemed', async () => {
    const shop = await stripeShop('stripe-promo-1', { sender_api_key: fake.apiKey });
    fake.setPromotionCode('promo_1SpringA', 'spring-7k2q');
    const session = 'cs_test_promo_with_key_000000000000000000000000000000000001';
    const contact = await shopperWithCode(shop, session, 'SPRING-7K2Q', 'email-template:9001');
    const before = fake.requests.length;
    const r = await post(shop.path, paidWith(session, 'promo_1SpringA', 'evt_promo_paid_1'));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ message: 'Purchase recorded', matched: 1 });
    const asked = fake.requests.slice(before);
    expect(asked.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v1/promotion_codes/promo_1SpringA']);
    expect(asked[0].authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(await grantOf(contact.id)).toMatchObject({ redeemed_at: expect.any(Date), discount_minor: 880, currency: 'EUR', order_ref: session, order_minor: 7920 });
    const steps = (await admin('GET', '/api/email/incentive-redemptions')).body as { step_key: string; given: number; redeemed: number }[];
    expect(steps.find((s) => s.step_key === 'email-template:9001')).toMatchObject({ given: 1, redeemed: 1 });
    const [row] = (await admin('GET', '/api/webhook-events?page=1&pageSize=5')).body.items;
    expect(row.verification_reason).toBeNull();
  });

  it('without a key: nothing is marked, and the delivery says the code could not be read', async () => {
    const shop = await stripeShop('stripe-promo-2', {});
    const session = 'cs_test_promo_without_key_0000000000000000000000000000000002';
    const contact = await shopperWithCode(shop, session, 'AUTUMN-4H8Z', 'email-template:9002');
    const before = fake.requests.length;
    const r = await post(shop.path, paidWith(session, 'promo_1AutumnB', 'evt_promo_paid_2'));
    expect(r.body).toMatchObject({ message: 'Purchase recorded', matched: 1 });
    expect(fake.requests.length).toBe(before);
    expect(await grantOf(contact.id)).toMatchObject({ redeemed_at: null });
    const [row] = (await admin('GET', '/api/webhook-events?page=1&pageSize=5')).body.items;
    expect(row.verification_reason).toBe('Promotion code promo_1AutumnB: the integration holds no Stripe key, so the code it stands for could not be read and no issued code was marked redeemed');
  });

  it('a promotion code Stripe does not know: nothing is marked, and the delivery says what Stripe answered', async () => {
    const shop = await stripeShop('stripe-promo-3', { sender_api_key: fake.apiKey });
    const session = 'cs_test_promo_unknown_00000000000000000000000000000000000003';
    const contact = await shopperWithCode(shop, session, 'WINTER-2B6C', 'email-template:9003');
    const r = await post(shop.path, paidWith(session, 'promo_1Unknown', 'evt_promo_paid_3'));
    expect(r.body).toMatchObject({ message: 'Purchase recorded', matched: 1 });
    expect(await grantOf(contact.id)).toMatchObject({ redeemed_at: null });
    const [row] = (await admin('GET', '/api/webhook-events?page=1&pageSize=5')).body.items;
    expect(row.verification_reason).toMatch(/^Promotion code promo_1Unknown \(No such promotion_code: 'promo_1Unknown'\): not read from Stripe/);
  });
});
