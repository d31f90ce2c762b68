import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Stripe from 'stripe';
import { startFakeStripe, type FakeStripe } from '@act/testing/fake-stripe';
import {
  ADAPTERS,
  detectSource,
  fetchStripeLineItems,
  isWooCommercePing,
  keptCart,
  replayIds,
  type Headers,
} from './index';

const fixtureText = (source: string, name: string): string =>
  readFileSync(path.join(__dirname, source, 'fixtures', `${name}.json`), 'utf8');
const fixture = (source: string, name: string): Record<string, unknown> => JSON.parse(fixtureText(source, name));

const stripe = ADAPTERS.stripe;
const woo = ADAPTERS.woocommerce;
const NOW = Date.parse('2026-11-27T12:00:00Z');
const SECRET = 'whsec_test_5bQ0nU1hZ2c3ZDR5ZjZnN2g4aTlqMGtsbW5vcHFy';

/** The documented scheme written out by hand: `t=<unix>,v1=<hex HMAC-SHA256 of "{t}.{body}">`. */
function handSigned(raw: string, secret: string, t: number, extra = ''): string {
  const v1 = createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex');
  return `t=${t},${extra}v1=${v1}`;
}

describe('Stripe Checkout', () => {
  it('checkout.session.expired is a contact with its recovery link, its expiry, consent and a total-only cart', () => {
    const r = stripe.parse!(fixture('stripe', 'checkout-session-expired'), {});
    expect(r).toMatchObject({
      ok: true,
      eventName: 'checkout.session.expired',
      deliveryId: 'evt_1QexpiredA1b2C3d4E5f6G7h8',
      fact: {
        kind: 'contact',
        op: 'created',
        contactId: 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ0123456789abcdEF',
        email: 'lea.martin@example.com',
        phone: '+33612345670',
        firstName: 'Léa',
        checkoutUrl: 'https://buy.stripe.com/r/live_YWNjdF8xTjBHY3dFc2xSZXRlc3Q',
        promotions: 'granted',
        lineItemsRef: { sender: 'stripe', sessionId: 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ0123456789abcdEF' },
      },
    });
    const { cart, notes } = keptCart(r.ok && r.fact.kind === 'contact' ? r.fact.cart : null, new Date(NOW));
    expect(notes).toEqual([]);
    expect(cart).toEqual({
      items: [],
      more_items: 0,
      subtotal: 8800,
      discounts: 880,
      total: 7920,
      currency: 'EUR',
      recovery_url: 'https://buy.stripe.com/r/live_YWNjdF8xTjBHY3dFc2xSZXRlc3Q',
      recovery_expires_at: '2025-12-27T12:00:00.000Z',
      updated_at: new Date(1764244805 * 1000).toISOString(),
      updated_at_source: 'sender',
    });
  });

  it('a shopper who opted out of promotions is said so', () => {
    const r = stripe.parse!(fixture('stripe', 'checkout-session-expired-opt-out'), {});
    expect(r).toMatchObject({ ok: true, fact: { kind: 'contact', promotions: 'denied', phone: null } });
  });

  it('completed and async_payment_succeeded are purchases matched by recovered_from; an unpaid completion waits', () => {
    const recovered = stripe.parse!(fixture('stripe', 'checkout-session-completed-recovered'), {});
    expect(recovered).toMatchObject({
      ok: true,
      fact: {
        kind: 'purchase',
        contactId: 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ0123456789abcdEF',
        recoveredFrom: 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ0123456789abcdEF',
        email: 'lea.martin@example.com',
        amount: 79.2,
        currency: 'EUR',
      },
    });
    expect(stripe.parse!(fixture('stripe', 'checkout-session-completed-unpaid'), {})).toMatchObject({
      ok: true,
      fact: { kind: 'ignored' },
    });
    expect(stripe.parse!(fixture('stripe', 'checkout-session-async-payment-succeeded'), {})).toMatchObject({
      ok: true,
      eventName: 'checkout.session.async_payment_succeeded',
      fact: { kind: 'purchase', contactId: null, email: 'lea.martin@example.com' },
    });
  });

  it('the promotion codes a paid session used: ids to read through the API, an expanded code as it is; a bare coupon is none', () => {
    const paid = (discounts: unknown[], amountDiscount = 880) => {
      const ev = fixture('stripe', 'checkout-session-completed-recovered');
      const object = (ev.data as { object: Record<string, unknown> }).object;
      return stripe.parse!({ ...ev, data: { object: { ...object, discounts, total_details: { amount_discount: amountDiscount, amount_shipping: 0, amount_tax: 0 } } } }, {});
    };
    // One discount: the session's whole discount is its own (EUR minor units as major text).
    expect(paid([{ coupon: null, promotion_code: 'promo_1SpringA' }])).toMatchObject({ ok: true, fact: { promotionCodeRefs: [{ id: 'promo_1SpringA', amount: '8.80' }] } });
    const expanded = paid([{ coupon: 'co_x', promotion_code: { id: 'promo_1Exp', object: 'promotion_code', code: 'SPRING-7K2Q' } }]);
    expect(expanded).toMatchObject({ ok: true, fact: { discountCodes: [{ code: 'SPRING-7K2Q', amount: '8.80' }] } });
    expect((expanded as { fact: { promotionCodeRefs?: unknown } }).fact.promotionCodeRefs).toBeUndefined();
    // Two discounts: which part each gave is not in the session.
    expect(paid([{ coupon: null, promotion_code: 'promo_1A' }, { coupon: null, promotion_code: 'promo_1B' }])).toMatchObject({
      fact: { promotionCodeRefs: [{ id: 'promo_1A', amount: null }, { id: 'promo_1B', amount: null }] },
    });
    const couponOnly = paid([{ coupon: 'co_x', promotion_code: null }]) as unknown as { fact: Record<string, unknown> };
    expect(couponOnly.fact.discountCodes).toBeUndefined();
    expect(couponOnly.fact.promotionCodeRefs).toBeUndefined();
  });

  it('other events are ignored; a body that is not an event, or an event without a session, is refused', () => {
    expect(stripe.parse!({ id: 'evt_1', object: 'event', type: 'charge.succeeded', data: { object: {} } }, {})).toMatchObject({
      ok: true,
      fact: { kind: 'ignored' },
    });
    expect(stripe.parse!({ hello: 'world' }, {})).toMatchObject({ ok: false });
    expect(stripe.parse!({ id: 'evt_2', object: 'event', type: 'checkout.session.expired', data: { object: { id: 'x' } } }, {})).toMatchObject({
      ok: false,
      error: 'data.object must be a Checkout Session for checkout.session.expired',
    });
  });

  describe('Stripe-Signature', () => {
    const raw = fixtureText('stripe', 'checkout-session-expired');
    const t = Math.floor(NOW / 1000);
    const h = (v: string): Headers => ({ 'stripe-signature': v });

    it('a header made by the official library’s generateTestHeaderString verifies, and so does one written by hand', () => {
      const byLibrary = Stripe.webhooks.generateTestHeaderString({ payload: raw, secret: SECRET, timestamp: t });
      expect(stripe.verify(Buffer.from(raw), h(byLibrary), SECRET, NOW)).toEqual({ ok: true });
      expect(stripe.verify(Buffer.from(raw), h(handSigned(raw, SECRET, t)), SECRET, NOW)).toEqual({ ok: true });
      // Our sign() is the library's helper: what "Send test delivery" posts.
      const signed = stripe.sign(Buffer.from(raw), SECRET, NOW)['Stripe-Signature'];
      expect(signed).toBe(handSigned(raw, SECRET, t));
    });

    it('several v1 signatures: one that matches is enough', () => {
      const other = `v1=${'0'.repeat(64)},v0=${'1'.repeat(64)},`;
      expect(stripe.verify(Buffer.from(raw), h(handSigned(raw, SECRET, t, other)), SECRET, NOW)).toEqual({ ok: true });
    });

    it('bad, stale and missing signatures are refused with their reason', () => {
      expect(stripe.verify(Buffer.from(raw), h(handSigned(raw, 'whsec_other_secret_000000', t)), SECRET, NOW)).toMatchObject({
        ok: false,
        reason: 'wrong',
      });
      expect(stripe.verify(Buffer.from(raw.replace('7920', '1')), h(handSigned(raw, SECRET, t)), SECRET, NOW)).toMatchObject({
        ok: false,
        reason: 'wrong',
      });
      expect(stripe.verify(Buffer.from(raw), h(handSigned(raw, SECRET, t - 301)), SECRET, NOW)).toEqual({
        ok: false,
        reason: 'stale',
        message: 'Stale signature: the timestamp is more than 300 s old',
      });
      expect(stripe.verify(Buffer.from(raw), h(handSigned(raw, SECRET, t - 299)), SECRET, NOW)).toEqual({ ok: true });
      expect(stripe.verify(Buffer.from(raw), {}, SECRET, NOW)).toMatchObject({ ok: false, reason: 'missing' });
      expect(stripe.verify(Buffer.from(raw), h('garbage'), SECRET, NOW)).toMatchObject({ ok: false, reason: 'missing' });
    });

    it('the tolerance is settable', () => {
      process.env.STRIPE_WEBHOOK_TOLERANCE_SECONDS = '600';
      try {
        expect(stripe.verify(Buffer.from(raw), h(handSigned(raw, SECRET, t - 500)), SECRET, NOW)).toEqual({ ok: true });
      } finally {
        delete process.env.STRIPE_WEBHOOK_TOLERANCE_SECONDS;
      }
    });

    it('during a rotation either secret verifies (old,new in the integration’s secret)', () => {
      const old = 'whsec_old_0000000000000000000000';
      const both = `${SECRET},${old}`;
      expect(stripe.verify(Buffer.from(raw), h(handSigned(raw, old, t)), both, NOW)).toEqual({ ok: true });
      expect(stripe.verify(Buffer.from(raw), h(handSigned(raw, SECRET, t)), both, NOW)).toEqual({ ok: true });
      expect(stripe.verify(Buffer.from(raw), h(handSigned(raw, old, t)), SECRET, NOW)).toMatchObject({ reason: 'wrong' });
    });
  });

  it('is recognised by its header, or by an event body', () => {
    expect(detectSource({}, { 'stripe-signature': 't=1,v1=ab' })).toBe('stripe');
    expect(detectSource(fixture('stripe', 'checkout-session-expired'), {})).toBe('stripe');
  });

  it('a verified delivery is remembered by its signed event id', () => {
    const body = fixture('stripe', 'checkout-session-expired');
    const raw = Buffer.from(JSON.stringify(body));
    expect(replayIds({ source: 'stripe', raw, body, headers: {}, verified: true })).toEqual([
      'evt_1QexpiredA1b2C3d4E5f6G7h8',
    ]);
  });

  describe('line items through the official library', () => {
    let fake: FakeStripe;
    beforeAll(async () => {
      fake = await startFakeStripe();
    });
    afterAll(() => fake.close());

    it('lists a session’s items with products expanded, in one request with the restricted key', async () => {
      fake.setLineItems('cs_test_li_1', [
        {
          description: 'Sencha, 100 g',
          quantity: 2,
          unit_amount: 1450,
          currency: 'eur',
          nickname: 'Loose leaf',
          product: { id: 'prod_1', name: 'Sencha', images: ['https://files.example.com/sencha.png'], url: 'https://lumen-tea.example.com/sencha', metadata: { sku: 'SEN-100' } },
        },
        { description: 'Gift box', quantity: 1, unit_amount: 500, currency: 'eur', product: { id: 'prod_2', name: 'Gift box' } },
      ]);
      const { items, more } = await fetchStripeLineItems(fake.apiKey, 'cs_test_li_1', { apiBase: fake.url });
      expect(more).toBe(false);
      const { cart } = keptCart({ currency: 'eur', items }, new Date(NOW));
      expect(cart!.items).toEqual([
        {
          name: 'Sencha, 100 g',
          variant: 'Loose leaf',
          quantity: 2,
          unit_price: 1450,
          line_total: 2900,
          product_url: 'https://lumen-tea.example.com/sencha',
          image_url: 'https://files.example.com/sencha.png',
          sku: 'SEN-100',
        },
        expect.objectContaining({ name: 'Gift box', quantity: 1, unit_price: 500, image_url: null }),
      ]);
      expect(fake.requests).toHaveLength(1);
      expect(fake.requests[0]).toMatchObject({
        method: 'GET',
        path: '/v1/checkout/sessions/cs_test_li_1/line_items',
        authorization: `Bearer ${fake.apiKey}`,
      });
      expect(decodeURIComponent(fake.requests[0].query)).toContain('expand[0]=data.price.product');
    });

    it('a refused key or an unknown session throws Stripe’s message', async () => {
      await expect(fetchStripeLineItems('rk_test_wrong', 'cs_test_li_1', { apiBase: fake.url })).rejects.toThrow(/Invalid API Key/);
      await expect(fetchStripeLineItems(fake.apiKey, 'cs_test_none', { apiBase: fake.url })).rejects.toThrow(/No such checkout.session/);
    });
  });
});

describe('WooCommerce', () => {
  const headers = (topic: string, id = 'd-1'): Headers => ({
    'x-wc-webhook-topic': topic,
    'x-wc-webhook-resource': topic.split('.')[0],
    'x-wc-webhook-event': topic.split('.')[1],
    'x-wc-webhook-delivery-id': id,
    'x-wc-webhook-id': '7',
  });

  it('an unpaid order is a contact with its cart and its payment URL', () => {
    const r = woo.parse!(fixture('woocommerce', 'order-created-pending'), headers('order.created', 'a1b2'));
    expect(r).toMatchObject({
      ok: true,
      eventName: 'order.created',
      deliveryId: 'a1b2',
      fact: {
        kind: 'contact',
        op: 'created',
        contactId: '727',
        email: 'oliver.hughes@example.com',
        phone: '+447700900456',
        firstName: 'Oliver',
        checkoutUrl: 'https://kettle-and-co.example.com/checkout/order-pay/727/?pay_for_order=true&key=wc_order_Xq7v2PmLk9Tz3',
      },
    });
    const { cart, notes } = keptCart(r.ok && r.fact.kind === 'contact' ? r.fact.cart : null, new Date(NOW));
    expect(notes).toEqual([]);
    expect(cart).toMatchObject({
      currency: 'GBP',
      discounts: 500,
      total: 4890,
      recovery_url: 'https://kettle-and-co.example.com/checkout/order-pay/727/?pay_for_order=true&key=wc_order_Xq7v2PmLk9Tz3',
      updated_at: '2026-11-26T16:04:37.000Z',
    });
    expect(cart!.items).toEqual([
      {
        name: 'Ceramic pour-over - White',
        variant: 'Colour: White',
        quantity: 1,
        unit_price: 2200,
        line_total: 2200,
        product_url: null,
        image_url: 'https://kettle-and-co.example.com/wp-content/uploads/2026/03/pour-over-white.jpg',
        sku: 'POUR-WHT',
      },
      expect.objectContaining({ name: 'Paper filters (100)', quantity: 2, unit_price: 450, line_total: 900, image_url: null }),
    ]);
    expect(woo.parse!(fixture('woocommerce', 'order-updated-failed'), headers('order.updated'))).toMatchObject({
      ok: true,
      fact: { kind: 'contact', op: 'updated' },
    });
  });

  it('the same order paid is the purchase; other statuses and topics are ignored', () => {
    expect(woo.parse!(fixture('woocommerce', 'order-updated-processing'), headers('order.updated'))).toMatchObject({
      ok: true,
      fact: { kind: 'purchase', contactId: '727', amount: 48.9, currency: 'GBP', email: 'oliver.hughes@example.com' },
    });
    const onHold = { ...fixture('woocommerce', 'order-created-pending'), status: 'on-hold' };
    expect(woo.parse!(onHold, headers('order.updated'))).toMatchObject({ ok: true, fact: { kind: 'ignored' } });
    expect(woo.parse!({ id: 93 }, headers('product.updated'))).toMatchObject({ ok: true, fact: { kind: 'ignored' } });
    expect(woo.parse!(fixture('woocommerce', 'order-created-pending'), {})).toMatchObject({
      ok: false,
      error: 'X-WC-Webhook-Topic header is required',
    });
  });

  it('the paid and unpaid statuses are settable', () => {
    process.env.WOOCOMMERCE_UNPAID_STATUSES = 'pending,on-hold';
    try {
      const onHold = { ...fixture('woocommerce', 'order-created-pending'), status: 'on-hold' };
      expect(woo.parse!(onHold, headers('order.updated'))).toMatchObject({ ok: true, fact: { kind: 'contact' } });
    } finally {
      delete process.env.WOOCOMMERCE_UNPAID_STATUSES;
    }
  });

  it('X-WC-Webhook-Signature: base64 HMAC-SHA256 of the raw body', () => {
    const raw = Buffer.from(fixtureText('woocommerce', 'order-created-pending'));
    const secret = 'wc-secret-0123456789abcdef';
    const sig = createHmac('sha256', secret).update(raw).digest('base64');
    expect(woo.sign(raw, secret)).toEqual({ 'X-WC-Webhook-Signature': sig });
    expect(woo.verify(raw, { 'x-wc-webhook-signature': sig }, secret)).toEqual({ ok: true });
    expect(woo.verify(raw, { 'x-wc-webhook-signature': sig }, 'another-secret-0000')).toMatchObject({ reason: 'wrong' });
    expect(woo.verify(raw, {}, secret)).toMatchObject({ reason: 'missing' });
  });

  it('the creation ping is recognised; deliveries are recognised by their headers', () => {
    expect(isWooCommercePing('webhook_id=12')).toBe(true);
    expect(isWooCommercePing('{"webhook_id":12}')).toBe(false);
    expect(detectSource(undefined, headers('order.created'))).toBe('woocommerce');
  });
});
