import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Stripe from 'stripe';
import { call, type ServiceProcess } from '@act/service-kit/testing';
import type { SmsContact } from '@act/contracts/src/sms-api';
import { startFakeStripe, type FakeStripe } from '@act/testing/fake-stripe';
import { dropDb, dropStream, smsTestEnv, startSms, type SmsTestEnv } from '../test/helpers';

jest.setTimeout(120_000);

/** Fixtures of the sources package, written from Stripe's and WooCommerce's documented shapes. */
const fixture = (source: string, name: string): Record<string, unknown> =>
  JSON.parse(
    readFileSync(path.join(__dirname, '../../../packages/sources/src', source, 'fixtures', `${name}.json`), 'utf8'),
  );

const WHSEC = 'whsec_sms_test_0123456789abcdefABCDEF';
const WC_SECRET = 'wc-sms-secret-0123456789';

let t: SmsTestEnv;
let svc: ServiceProcess;
let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
  t = smsTestEnv('stripe_woo', null, { SECRETS_KEY: 'sms-stripe-woo-key', STRIPE_API_BASE: fake.url });
  svc = await startSms(t);
});
afterAll(async () => {
  await svc?.stop();
  await fake?.close();
  await dropStream(t.natsPrefix);
  await dropDb(t.db);
});

const api = (method: string, p: string, body?: unknown) => call(svc.url, method, p, { body });
const post = (p: string, raw: string, headers: Record<string, string>) =>
  call(svc.url, 'POST', p, { raw, headers: { 'content-type': 'application/json', ...headers }, user: null });

async function newIntegration(funnelId: string, signing: Record<string, unknown> = {}) {
  const r = await api('POST', '/api/sms-webhook-integrations', { name: `Shop ${funnelId}`, funnel_id: funnelId });
  expect(r.status).toBe(201);
  if (Object.keys(signing).length)
    expect((await api('PATCH', `/api/sms-webhook-integrations/${r.body.id}`, signing)).status).toBe(200);
  return { id: r.body.id as number, path: new URL(r.body.webhook_url).pathname };
}

async function contactOf(integrationId: number, contactId: string): Promise<SmsContact | undefined> {
  const r = await api('GET', '/api/sms-contacts');
  return (r.body as SmsContact[]).find((c) => c.integration_id === integrationId && c.contact_id === contactId);
}

async function lastEvent() {
  return (await api('GET', '/api/sms-webhook-events?page=1&pageSize=25')).body.items[0];
}

function stripeDelivery(body: unknown, secret = WHSEC, timestamp = Math.floor(Date.now() / 1000)) {
  const raw = JSON.stringify(body);
  return { raw, headers: { 'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload: raw, secret, timestamp }) } };
}

describe('Stripe Checkout on the SMS side', () => {
  it('an expired session with a phone is an SMS contact with its cart (line items fetched once) and recovery link', async () => {
    const shop = await newIntegration('sms-stripe-1', { webhook_secret: WHSEC, sender_api_key: fake.apiKey });
    const ev = fixture('stripe', 'checkout-session-expired');
    const sessionId = (ev.data as { object: { id: string } }).object.id;
    fake.setLineItems(sessionId, [
      { description: 'Sencha, 100 g', quantity: 2, unit_amount: 1450, currency: 'eur', product: { id: 'prod_s', name: 'Sencha' } },
    ]);
    const before = fake.requests.length;
    const d = stripeDelivery(ev);
    expect(await post(shop.path, d.raw, d.headers)).toMatchObject({ status: 200, body: { message: 'SMS contact created' } });
    const c = await contactOf(shop.id, sessionId);
    expect(c).toMatchObject({ phone: '+33612345670', first_name: 'Léa', reminders_held: null });
    expect(c!.cart).toMatchObject({ currency: 'EUR', total: 7920, recovery_expires_at: '2025-12-27T12:00:00.000Z' });
    expect(c!.cart!.items.map((i) => [i.name, i.quantity, i.unit_price])).toEqual([['Sencha, 100 g', 2, 1450]]);
    expect(fake.requests.length - before).toBe(1);

    const done = stripeDelivery(fixture('stripe', 'checkout-session-completed-recovered'));
    expect((await post(shop.path, done.raw, done.headers)).body).toMatchObject({ updated: 1 });
    expect((await contactOf(shop.id, sessionId))?.status).toBe('purchased');
  });

  it('consent: an opted-out shopper with a phone is held and says why', async () => {
    const shop = await newIntegration('sms-stripe-2', { webhook_secret: WHSEC });
    const ev = fixture('stripe', 'checkout-session-expired-opt-out');
    const obj = (ev.data as { object: Record<string, unknown> }).object;
    const withPhone = { ...ev, data: { object: { ...obj, customer_details: { ...(obj.customer_details as object), phone: '+14155550188' } } } };
    const d = stripeDelivery(withPhone);
    expect((await post(shop.path, d.raw, d.headers)).status).toBe(200);
    expect((await contactOf(shop.id, obj.id as string))?.reminders_held).toMatch(/declined promotional messages/);
  });

  it('bad and stale signatures are 401 and stored as rejected', async () => {
    const shop = await newIntegration('sms-stripe-3', { webhook_secret: WHSEC });
    const bad = stripeDelivery(fixture('stripe', 'checkout-session-expired'), 'whsec_not_this_one_000000');
    expect(await post(shop.path, bad.raw, bad.headers)).toMatchObject({ status: 401, body: { error: 'Wrong signature (Stripe-Signature)' } });
    expect(await lastEvent()).toMatchObject({ source: 'stripe', outcome: 'rejected' });
    const stale = stripeDelivery(fixture('stripe', 'checkout-session-expired'), WHSEC, Math.floor(Date.now() / 1000) - 400);
    expect((await post(shop.path, stale.raw, stale.headers)).status).toBe(401);
  });
});

describe('WooCommerce on the SMS side', () => {
  const wc = (raw: string, topic: string, id: string, secret = WC_SECRET) => ({
    'X-WC-Webhook-Topic': topic,
    'X-WC-Webhook-Resource': 'order',
    'X-WC-Webhook-Event': topic.split('.')[1],
    'X-WC-Webhook-Delivery-ID': id,
    'X-WC-Webhook-Signature': createHmac('sha256', secret).update(raw).digest('base64'),
  });

  it('ping answered 200 with nothing created; unpaid order → contact with cart; paid → purchase; replay → duplicate', async () => {
    const shop = await newIntegration('sms-woo-1', { webhook_secret: WC_SECRET });
    const ping = await call(svc.url, 'POST', shop.path, {
      raw: 'webhook_id=7',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      user: null,
    });
    expect(ping).toMatchObject({ status: 200, body: { message: 'WooCommerce webhook ping received' } });
    expect(await lastEvent()).toMatchObject({ source: 'woocommerce', outcome: 'handshake' });

    const raw = JSON.stringify(fixture('woocommerce', 'order-created-pending'));
    expect((await post(shop.path, raw, wc(raw, 'order.created', 's-1'))).status).toBe(200);
    expect(await lastEvent()).toMatchObject({
      source: 'woocommerce',
      verification: 'verified',
      event_name: 'order.created',
      delivery_headers: { 'x-wc-webhook-topic': 'order.created', 'x-wc-webhook-resource': 'order', 'x-wc-webhook-event': 'created', 'x-wc-webhook-delivery-id': 's-1' },
    });
    const c = await contactOf(shop.id, '727');
    expect(c).toMatchObject({ phone: '+447700900456', first_name: 'Oliver' });
    expect(c!.cart).toMatchObject({ currency: 'GBP', total: 4890, items: [{ name: 'Ceramic pour-over - White' }, { quantity: 2 }] });
    expect((await post(shop.path, raw, wc(raw, 'order.created', 's-1'))).body).toMatchObject({ duplicate: true });

    const bad = await post(shop.path, raw, wc(raw, 'order.updated', 's-9', 'wrong-secret-0000000'));
    expect(bad).toMatchObject({ status: 401, body: { error: 'Wrong signature (X-WC-Webhook-Signature)' } });

    const paid = JSON.stringify(fixture('woocommerce', 'order-updated-processing'));
    expect((await post(shop.path, paid, wc(paid, 'order.updated', 's-2'))).body).toMatchObject({ updated: 1 });
    expect((await contactOf(shop.id, '727'))?.status).toBe('purchased');
  });
});
