import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import Stripe from 'stripe';
import { call, type ServiceProcess } from '@act/service-kit/testing';
import type { SmsContact } from '@act/contracts/src/sms-api';
import { startFakeStripe, type FakeStripe } from '@act/testing/fake-stripe';
import { dropDb, dropStream, smsTestEnv, startSms, type SmsTestEnv } from '../test/helpers';

// The SMS side's Stripe purchase with a promotion code: read once through the official library from the fake Stripe
// with the integration's key, then the code a step of this side gave the contact is marked redeemed.

jest.setTimeout(120_000);

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(__dirname, '../../../packages/sources/src/stripe/fixtures', `${name}.json`), 'utf8'));

const WHSEC = 'whsec_sms_promo_0123456789abcdefABCDEF';

let t: SmsTestEnv;
let svc: ServiceProcess;
let fake: FakeStripe;
let client: MongoClient;
beforeAll(async () => {
  fake = await startFakeStripe();
  t = smsTestEnv('stripe_promo', null, { SECRETS_KEY: 'sms-stripe-promo-key', STRIPE_API_BASE: fake.url });
  svc = await startSms(t);
  client = await MongoClient.connect(t.env.MONGODB_URI);
});
afterAll(async () => {
  await client?.close();
  await svc?.stop();
  await fake?.close();
  await dropStream(t.natsPrefix);
  await dropDb(t.db);
});

const api = (method: string, p: string, body?: unknown) => call(svc.url, method, p, { body });
async function post(p: string, body: unknown) {
  const raw = JSON.stringify(body);
  const sig = Stripe.webhooks.generateTestHeaderString({ payload: raw, secret: WHSEC });
  return call(svc.url, 'POST', p, { raw, headers: { 'content-type': 'application/json', 'Stripe-Signature': sig }, user: null });
}

it('a paid session naming a promotion code marks the code this side gave the contact redeemed', async () => {
  const r = await api('POST', '/api/sms-webhook-integrations', { name: 'Shop sms-promo', funnel_id: 'sms-promo-1' });
  expect(r.status).toBe(201);
  expect((await api('PATCH', `/api/sms-webhook-integrations/${r.body.id}`, { webhook_secret: WHSEC, sender_api_key: fake.apiKey })).status).toBe(200);
  const shop = { id: r.body.id as number, path: new URL(r.body.webhook_url).pathname };
  const session = 'cs_test_sms_promo_00000000000000000000000000000000000000001';
  const expired = fixture('checkout-session-expired');
  const expiredObject = (expired.data as { object: Record<string, unknown> }).object;
  expect((await post(shop.path, { ...expired, id: `evt_${session}`, data: { object: { ...expiredObject, id: session } } })).status).toBe(200);
  const contact = ((await api('GET', '/api/sms-contacts')).body as SmsContact[]).find((c) => c.integration_id === shop.id && c.contact_id === session)!;
  expect(contact).toBeDefined();
  // The grant as the SMS incentive step leaves it once its code went out.
  const grants = client.db(t.db).collection('incentive_grants');
  await grants.insertOne({ contact_ref: contact.id, step_key: 'sms-template:9101', kind: 'unique', integration_id: shop.id, code: 'TEXT-5M3P', code_key: 'TEXT-5M3P', state: 'issued', note: null, created_at: new Date(), issued_at: new Date(), redeemed_at: null, discount_minor: null, currency: null, order_ref: null, order_minor: null });
  fake.setPromotionCode('promo_1TextC', 'text-5m3p');

  const paid = fixture('checkout-session-completed-recovered');
  const paidObject = (paid.data as { object: Record<string, unknown> }).object;
  const before = fake.requests.length;
  const done = await post(shop.path, { ...paid, id: 'evt_sms_promo_paid', data: { object: { ...paidObject, id: 'cs_sms_promo_paid', recovered_from: session, discounts: [{ coupon: null, promotion_code: 'promo_1TextC' }] } } });
  expect(done.status).toBe(200);
  expect(fake.requests.slice(before).map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v1/promotion_codes/promo_1TextC']);
  expect(await grants.findOne({ contact_ref: contact.id })).toMatchObject({ redeemed_at: expect.any(Date), discount_minor: 880, currency: 'EUR' });
});
