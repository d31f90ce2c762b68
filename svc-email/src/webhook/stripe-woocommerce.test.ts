import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Stripe from 'stripe';
import type { Contact } from '@act/contracts/src/email-api';
import { startFakeStripe, type FakeStripe } from '@act/testing/fake-stripe';
import { testUser } from '@act/service-kit/testing';
import { collectAuditRecords, dropDb, natsConnect, startEmail, waitFor, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

/** Fixtures of the sources package, written from Stripe's and WooCommerce's documented shapes. */
const fixture = (source: string, name: string): Record<string, unknown> =>
  JSON.parse(
    readFileSync(path.join(__dirname, '../../../packages/sources/src', source, 'fixtures', `${name}.json`), 'utf8'),
  );

const WHSEC = 'whsec_email_test_0123456789abcdefABCDEF';
const WC_SECRET = 'wc-email-secret-0123456789';

let email: EmailUnderTest;
let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
  email = await startEmail('stripe_woo', { SECRETS_KEY: 'stripe-woo-secrets-key', STRIPE_API_BASE: fake.url });
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await email?.svc.stop();
  await fake?.close();
  if (email) await dropDb(email.db);
});

const admin = (method: string, p: string, body?: unknown) => email.api(method, p, { body });
const post = (p: string, raw: string, headers: Record<string, string>) =>
  email.api('POST', p, { raw, headers: { 'content-type': 'application/json', ...headers }, user: null });

async function newIntegration(funnelId: string, signing: Record<string, unknown> = {}) {
  const r = await admin('POST', '/api/webhook-integrations', { name: `Shop ${funnelId}`, funnel_id: funnelId });
  expect(r.status).toBe(201);
  if (Object.keys(signing).length) {
    const p = await admin('PATCH', `/api/webhook-integrations/${r.body.id}`, signing);
    expect(p.status).toBe(200);
    expect(JSON.stringify(p.body)).not.toContain(String(signing.sender_api_key ?? '@none@'));
  }
  const list = await admin('GET', '/api/webhook-integrations');
  const found = list.body.find((i: { id: number }) => i.id === r.body.id);
  return { id: r.body.id as number, path: new URL(found.webhook_url).pathname, signing: found.signing };
}

async function contactOf(integrationId: number, contactId: string): Promise<Contact | undefined> {
  const r = await admin('GET', `/api/contacts?page=1&pageSize=100&integration_id=${integrationId}`);
  expect(r.status).toBe(200);
  return (r.body.items as Contact[]).find((c) => c.contact_id === contactId);
}

async function lastEvent() {
  const r = await admin('GET', '/api/webhook-events?page=1&pageSize=5');
  return r.body.items[0];
}

/** A Stripe event as Stripe posts it, signed by the official library's test-header helper. */
function stripeDelivery(body: unknown, secret = WHSEC, timestamp = Math.floor(Date.now() / 1000)) {
  const raw = JSON.stringify(body);
  return { raw, headers: { 'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload: raw, secret, timestamp }) } };
}

/** An expired session of its own (each test its own contact), from the documented fixture. */
function expired(sessionId: string, over: Record<string, unknown> = {}) {
  const ev = fixture('stripe', 'checkout-session-expired');
  const data = ev.data as { object: Record<string, unknown> };
  return { ...ev, id: `evt_${sessionId}`, data: { object: { ...data.object, id: sessionId, ...over } } };
}

describe('Stripe Checkout on the email side', () => {
  it('checkout.session.expired: a contact with the recovery link, its expiry and the line items fetched once', async () => {
    const shop = await newIntegration('stripe-e-1', { webhook_secret: WHSEC, sender_api_key: fake.apiKey });
    expect(shop.signing).toMatchObject({ has_secret: true, has_api_key: true, send_without_consent: false });
    const session = 'cs_test_email_line_items_1';
    fake.setLineItems(session, [
      { description: 'Sencha, 100 g', quantity: 2, unit_amount: 1450, currency: 'eur', product: { id: 'prod_s', name: 'Sencha', images: ['https://files.example.com/s.png'] } },
      { description: 'Gift box', quantity: 1, unit_amount: 5900, currency: 'eur', product: { id: 'prod_g', name: 'Gift box' } },
    ]);
    const before = fake.requests.length;
    const d = stripeDelivery(expired(session));
    const r = await post(shop.path, d.raw, d.headers);
    expect(r).toMatchObject({ status: 200, body: { status: 'ok', message: 'Contact created', contact_id: session } });
    const c = await contactOf(shop.id, session);
    expect(c).toMatchObject({ email: 'lea.martin@example.com', reminders_held: null });
    expect(c!.cart).toMatchObject({
      currency: 'EUR',
      total: 7920,
      recovery_url: 'https://buy.stripe.com/r/live_YWNjdF8xTjBHY3dFc2xSZXRlc3Q',
      recovery_expires_at: '2025-12-27T12:00:00.000Z',
    });
    expect(c!.cart!.items.map((i) => [i.name, i.quantity, i.unit_price, i.image_url])).toEqual([
      ['Sencha, 100 g', 2, 1450, 'https://files.example.com/s.png'],
      ['Gift box', 1, 5900, null],
    ]);
    expect(fake.requests.length - before).toBe(1);
    expect(await lastEvent()).toMatchObject({ source: 'stripe', verification: 'verified', outcome: 'created', event_name: 'checkout.session.expired' });

    // Stripe's retry (signed again, same event id) is a duplicate and fetches nothing.
    const again = stripeDelivery(expired(session), WHSEC, Math.floor(Date.now() / 1000) + 5);
    expect((await post(shop.path, again.raw, again.headers)).body).toMatchObject({ duplicate: true });
    expect(fake.requests.length - before).toBe(1);
  });

  it('the API key is write-only and its change audited as a secret; the consent switch as a field', async () => {
    const audit = await collectAuditRecords(email.prefix);
    try {
      const shop = await newIntegration('stripe-e-audit');
      const key = 'rk_test_audited_key_0123456789';
      const r = await admin('PATCH', `/api/webhook-integrations/${shop.id}`, { sender_api_key: key, send_without_consent: true });
      expect(r.status).toBe(200);
      expect(r.body.signing).toMatchObject({ has_api_key: true, send_without_consent: true });
      expect(r.text).not.toContain(key);
      const rec = await waitFor(async () => audit.seen.find((x) => x.target_id === String(shop.id) && x.change.after?.sender_api_key));
      expect(rec.change.after).toMatchObject({ sender_api_key: '[set]', send_without_consent: true });
      expect(JSON.stringify(rec)).not.toContain(key);
      // A plain user may not change it (a key decides what is asked of the shop's Stripe account).
      const plain = await email.api('PATCH', `/api/webhook-integrations/${shop.id}`, { body: { sender_api_key: null }, user: testUser });
      expect(plain).toMatchObject({ status: 403, body: { error: 'Admin access required to change webhook signing' } });
    } finally {
      await audit.stop();
    }
  });

  it('without an API key the total alone is kept; a refused key keeps the total and says why', async () => {
    const plain = await newIntegration('stripe-e-2', { webhook_secret: WHSEC });
    const d = stripeDelivery(expired('cs_test_email_no_key'));
    expect((await post(plain.path, d.raw, d.headers)).status).toBe(200);
    expect((await contactOf(plain.id, 'cs_test_email_no_key'))?.cart).toMatchObject({ items: [], total: 7920, subtotal: 8800, discounts: 880 });

    const refused = await newIntegration('stripe-e-3', { webhook_secret: WHSEC, sender_api_key: 'rk_test_noperm_000000' });
    const d2 = stripeDelivery(expired('cs_test_email_noperm'));
    expect((await post(refused.path, d2.raw, d2.headers)).status).toBe(200);
    expect((await contactOf(refused.id, 'cs_test_email_noperm'))?.cart).toMatchObject({ items: [], total: 7920 });
    expect((await lastEvent()).verification_reason).toMatch(/^Cart: the line items could not be fetched from Stripe \(.*permissions.*\); the total is kept$/);
  });

  it('a shopper who declined promotions gets no reminder and the contact says why, unless the integration allows it', async () => {
    const shop = await newIntegration('stripe-e-4', { webhook_secret: WHSEC });
    const optOut = fixture('stripe', 'checkout-session-expired-opt-out');
    const d = stripeDelivery(optOut);
    expect((await post(shop.path, d.raw, d.headers)).status).toBe(200);
    const sessionId = (optOut.data as { object: { id: string } }).object.id;
    expect((await contactOf(shop.id, sessionId))?.reminders_held).toBe(
      'The shopper declined promotional messages at checkout (Stripe consent.promotions: opt_out): no reminder is sent',
    );

    const allowed = await newIntegration('stripe-e-5', { webhook_secret: WHSEC, send_without_consent: true });
    const d2 = stripeDelivery(optOut);
    expect((await post(allowed.path, d2.raw, d2.headers)).status).toBe(200);
    expect((await contactOf(allowed.id, sessionId))?.reminders_held).toBeNull();
  });

  it('checkout.session.completed with recovered_from is the purchase of the expired session’s contact', async () => {
    const shop = await newIntegration('stripe-e-6', { webhook_secret: WHSEC });
    const exp = fixture('stripe', 'checkout-session-expired');
    const d = stripeDelivery(exp);
    expect((await post(shop.path, d.raw, d.headers)).status).toBe(200);
    const done = stripeDelivery(fixture('stripe', 'checkout-session-completed-recovered'));
    const r = await post(shop.path, done.raw, done.headers);
    expect(r.body).toMatchObject({ message: 'Purchase recorded', matched: 1 });
    const sessionId = (exp.data as { object: { id: string } }).object.id;
    expect((await contactOf(shop.id, sessionId))?.status).toBe('purchased');
    // The purchase fact names the session it recovered, for the revenue row.
    const nc = await natsConnect();
    try {
      const jsm = await nc.jetstreamManager();
      const fact = await waitFor(async () => {
        const m = await jsm.streams
          .getMessage(`${email.prefix}FUNNEL`, { last_by_subj: `${email.prefix}funnel.purchase.created` })
          .catch(() => null);
        return m ? (JSON.parse(new TextDecoder().decode(m.data)) as { recoveredFrom?: string; amount?: number }) : null;
      });
      expect(fact).toMatchObject({ recoveredFrom: sessionId, amount: 79.2, currency: 'EUR' });
    } finally {
      await nc.close();
    }
    // A completion still waiting for its async payment is no purchase.
    const unpaid = stripeDelivery(fixture('stripe', 'checkout-session-completed-unpaid'));
    expect((await post(shop.path, unpaid.raw, unpaid.headers)).body.message).toMatch(/^Ignored: The session awaits/);
  });

  it('signatures: hand-signed good, bad, stale and a rotation', async () => {
    const shop = await newIntegration('stripe-e-7', { webhook_secret: WHSEC });
    const raw = JSON.stringify(expired('cs_test_email_sig_1'));
    const t = Math.floor(Date.now() / 1000);
    const v1 = (secret: string, ts: number) => createHmac('sha256', secret).update(`${ts}.${raw}`).digest('hex');
    expect((await post(shop.path, raw, { 'Stripe-Signature': `t=${t},v1=${v1(WHSEC, t)}` })).status).toBe(200);

    const raw2 = JSON.stringify(expired('cs_test_email_sig_2'));
    const wrong = await post(shop.path, raw2, { 'Stripe-Signature': `t=${t},v1=${'a'.repeat(64)}` });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'Wrong signature (Stripe-Signature)' } });
    expect(await lastEvent()).toMatchObject({ source: 'stripe', verification: 'rejected', outcome: 'rejected' });
    const stale = stripeDelivery(expired('cs_test_email_sig_2'), WHSEC, t - 301);
    expect(await post(shop.path, stale.raw, stale.headers)).toMatchObject({
      status: 401,
      body: { error: 'Stale signature: the timestamp is more than 300 s old' },
    });
    expect(await contactOf(shop.id, 'cs_test_email_sig_2')).toBeUndefined();

    // Rolled: the new secret first, the old one kept while Stripe still signs with it.
    const rolled = 'whsec_email_rolled_00000000000000000';
    expect((await admin('PATCH', `/api/webhook-integrations/${shop.id}`, { webhook_secret: `${rolled},${WHSEC}` })).status).toBe(200);
    const byOld = stripeDelivery(expired('cs_test_email_sig_3'));
    const byNew = stripeDelivery(expired('cs_test_email_sig_4'), rolled);
    expect((await post(shop.path, byOld.raw, byOld.headers)).status).toBe(200);
    expect((await post(shop.path, byNew.raw, byNew.headers)).status).toBe(200);
  });

  it('bad bodies are a clear 400, stored as invalid, never a 500', async () => {
    const shop = await newIntegration('stripe-e-8', { webhook_source: 'stripe' });
    const cases: [string, string][] = [
      ['{not json', 'Invalid JSON body'],
      ['[]', 'Request body must be a JSON object'],
      ['{"id":"evt_x","object":"event","type":"checkout.session.expired","data":{"object":{"id":"x"}}}', 'data.object must be a Checkout Session for checkout.session.expired'],
      ['{"object":"event"}', 'A Stripe event (object "event" with a type) is required'],
    ];
    for (const [raw, error] of cases) {
      const r = await post(shop.path, raw, {});
      expect(r).toMatchObject({ status: 400, body: { error } });
      expect(await lastEvent()).toMatchObject({ outcome: 'invalid', source: 'stripe' });
    }
  });
});

describe('WooCommerce on the email side', () => {
  const wc = (raw: string, topic: string, deliveryId: string, secret = WC_SECRET) => ({
    'X-WC-Webhook-Topic': topic,
    'X-WC-Webhook-Resource': topic.split('.')[0],
    'X-WC-Webhook-Event': topic.split('.')[1],
    'X-WC-Webhook-ID': '7',
    'X-WC-Webhook-Delivery-ID': deliveryId,
    'X-WC-Webhook-Source': 'https://kettle-and-co.example.com/',
    'X-WC-Webhook-Signature': createHmac('sha256', secret).update(raw).digest('base64'),
  });

  it('the creation ping is answered 200 and creates nothing, even where deliveries must be signed', async () => {
    const shop = await newIntegration('woo-e-1', { webhook_secret: WC_SECRET });
    const r = await email.api('POST', shop.path, {
      raw: 'webhook_id=7',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'WooCommerce/10.3.0 Hookshot (WordPress/6.8)' },
      user: null,
    });
    expect(r).toMatchObject({ status: 200, body: { status: 'ok', message: 'WooCommerce webhook ping received' } });
    expect(await lastEvent()).toMatchObject({ source: 'woocommerce', outcome: 'handshake', integration_id: shop.id });
    const contacts = await admin('GET', `/api/contacts?page=1&pageSize=10&integration_id=${shop.id}`);
    expect(contacts.body.total).toBe(0);
  });

  it('an unpaid order is a contact with its cart and payment link; the same order paid stops it', async () => {
    const shop = await newIntegration('woo-e-2', { webhook_secret: WC_SECRET });
    const raw = JSON.stringify(fixture('woocommerce', 'order-created-pending'));
    const r = await post(shop.path, raw, wc(raw, 'order.created', 'wc-d-1'));
    expect(r).toMatchObject({ status: 200, body: { message: 'Contact created', contact_id: '727' } });
    const c = await contactOf(shop.id, '727');
    expect(c?.cart).toMatchObject({
      currency: 'GBP',
      total: 4890,
      discounts: 500,
      recovery_url: 'https://kettle-and-co.example.com/checkout/order-pay/727/?pay_for_order=true&key=wc_order_Xq7v2PmLk9Tz3',
    });
    expect(c!.cart!.items.map((i) => [i.name, i.variant, i.quantity, i.unit_price])).toEqual([
      ['Ceramic pour-over - White', 'Colour: White', 1, 2200],
      ['Paper filters (100)', null, 2, 450],
    ]);
    expect(await lastEvent()).toMatchObject({
      source: 'woocommerce',
      verification: 'verified',
      event_name: 'order.created',
      delivery_headers: {
        'x-wc-webhook-topic': 'order.created',
        'x-wc-webhook-resource': 'order',
        'x-wc-webhook-event': 'created',
        'x-wc-webhook-delivery-id': 'wc-d-1',
        'x-wc-webhook-id': '7',
        'x-wc-webhook-source': 'https://kettle-and-co.example.com/',
      },
    });

    // Replayed as captured: a duplicate.
    expect((await post(shop.path, raw, wc(raw, 'order.created', 'wc-d-1b'))).body).toMatchObject({ duplicate: true });

    const paid = JSON.stringify(fixture('woocommerce', 'order-updated-processing'));
    const p = await post(shop.path, paid, wc(paid, 'order.updated', 'wc-d-2'));
    expect(p.body).toMatchObject({ message: 'Purchase recorded', matched: 1 });
    expect((await contactOf(shop.id, '727'))?.status).toBe('purchased');
  });

  it('a wrong signature is 401 and stored as rejected; a missing topic is a 400', async () => {
    const shop = await newIntegration('woo-e-3', { webhook_secret: WC_SECRET });
    const raw = JSON.stringify({ ...fixture('woocommerce', 'order-created-pending'), id: 9001 });
    const r = await post(shop.path, raw, wc(raw, 'order.created', 'wc-d-3', 'not-the-secret-000000'));
    expect(r).toMatchObject({ status: 401, body: { error: 'Wrong signature (X-WC-Webhook-Signature)' } });
    expect(await lastEvent()).toMatchObject({ source: 'woocommerce', outcome: 'rejected' });
    expect(await contactOf(shop.id, '9001')).toBeUndefined();

    const pinned = await newIntegration('woo-e-4', { webhook_source: 'woocommerce' });
    const bad = await post(pinned.path, raw, {});
    expect(bad).toMatchObject({ status: 400, body: { error: 'X-WC-Webhook-Topic header is required' } });
    expect(await lastEvent()).toMatchObject({ outcome: 'invalid' });
  });
});
