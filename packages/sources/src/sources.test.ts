import { normalizeCart } from '@act/contracts/src/cart';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ADAPTERS, adapterFor, detectSource, keptCart, type Headers, type SourceId } from './index';

const fixture = (source: string, name: string): unknown =>
  JSON.parse(readFileSync(path.join(__dirname, source, 'fixtures', `${name}.json`), 'utf8'));

const parse = (id: SourceId, body: unknown, headers: Headers = {}) => adapterFor(id).parse!(body, headers);

describe('ClickFunnels 2.0', () => {
  it('contact.identified with funnel_id null is a known contact with its checkout link', () => {
    const r = parse('clickfunnels2', fixture('clickfunnels2', 'contact-identified'));
    expect(r).toEqual({
      ok: true,
      eventName: 'contact.identified',
      deliveryId: '7b0c5e1e-2f43-4c83-9d0e-3a6b8f1c2d4e',
      fact: {
        kind: 'contact',
        op: 'created',
        contactId: '481516234',
        email: 'dana.reyes@example.com',
        phone: '+14155550123',
        firstName: 'Dana',
        checkoutUrl: 'https://shop.example.com/checkout/cart-8841',
        funnelId: null,
        cart: { recoveryUrl: 'https://shop.example.com/checkout/cart-8841', updatedAt: '2026-11-20T09:12:41.552Z' },
      },
    });
  });

  it('contact.updated is an update; a numeric funnel_id becomes text', () => {
    const r = parse('clickfunnels2', fixture('clickfunnels2', 'contact-updated'));
    expect(r.ok && r.fact).toMatchObject({
      kind: 'contact',
      op: 'updated',
      phone: '+14155550199',
      firstName: 'Danielle',
      funnelId: '5521',
      checkoutUrl: null,
    });
  });

  it('an anonymous contact (no email, no phone) is ignored, not refused', () => {
    const r = parse('clickfunnels2', fixture('clickfunnels2', 'contact-created-anonymous'));
    expect(r).toMatchObject({ ok: true, fact: { kind: 'ignored' } });
  });

  it('one-time-order.completed is a purchase with amount, upper-case currency and the contact', () => {
    const r = parse('clickfunnels2', fixture('clickfunnels2', 'one-time-order-completed'));
    expect(r.ok && r.fact).toEqual({
      kind: 'purchase',
      contactId: '481516234',
      email: 'dana.reyes@example.com',
      phone: '+14155550123',
      amount: 97,
      currency: 'USD',
      funnelId: '5521',
    });
  });

  it('subscription/invoice.paid finds the contact inside data.order', () => {
    const r = parse('clickfunnels2', fixture('clickfunnels2', 'subscription-invoice-paid'));
    expect(r.ok && r.fact).toMatchObject({
      kind: 'purchase',
      contactId: '481516235',
      email: 'lee.park@example.com',
      amount: 29,
      currency: 'EUR',
    });
  });

  it('order.completed of a subscription (its service period ended) is not a payment', () => {
    const r = parse('clickfunnels2', fixture('clickfunnels2', 'order-completed-subscription'));
    expect(r).toMatchObject({ ok: true, fact: { kind: 'ignored' } });
  });

  it('events that mean neither are ignored with their name', () => {
    const r = parse('clickfunnels2', fixture('clickfunnels2', 'course-enrollment-created'));
    expect(r).toMatchObject({
      ok: true,
      eventName: 'courses/enrollment.created',
      fact: { kind: 'ignored', reason: expect.stringContaining('courses/enrollment.created') },
    });
  });

  it('malformed deliveries name the missing field', () => {
    expect(parse('clickfunnels2', fixture('clickfunnels2', 'malformed-order-without-contact'))).toMatchObject({
      ok: false,
      error: 'data.contact is required for one-time-order.completed',
    });
    expect(parse('clickfunnels2', { event_type: 'contact.created', event_id: 'x' })).toMatchObject({
      ok: false,
      error: 'data is required for contact.created',
    });
    expect(parse('clickfunnels2', { event_type: 'contact.created', data: { email_address: 'a@b.co' } })).toMatchObject({
      ok: false,
      error: 'data.id is required for contact.created',
    });
    expect(parse('clickfunnels2', { data: {} })).toMatchObject({ ok: false, error: 'event_type is required' });
    expect(parse('clickfunnels2', [])).toMatchObject({ ok: false, error: 'Request body must be a JSON object' });
  });

  it('signature: hex HMAC-SHA256 of "{timestamp}.{raw body}", 600 s either way', () => {
    const cf = ADAPTERS.clickfunnels2;
    const raw = Buffer.from(JSON.stringify(fixture('clickfunnels2', 'contact-identified')));
    const now = Date.UTC(2026, 10, 20, 9, 13);
    const headers = lower(cf.sign(raw, 'whsec-cf', now));
    expect(Object.keys(headers).sort()).toEqual([
      'x-webhook-clickfunnels-signature',
      'x-webhook-clickfunnels-timestamp',
    ]);
    expect(cf.verify(raw, headers, 'whsec-cf', now)).toEqual({ ok: true });
    expect(cf.verify(raw, headers, 'whsec-cf', now + 599_000)).toEqual({ ok: true });
    expect(cf.verify(raw, headers, 'whsec-cf', now + 601_000)).toMatchObject({ ok: false, reason: 'stale' });
    expect(cf.verify(raw, headers, 'whsec-cf', now - 601_000)).toMatchObject({ ok: false, reason: 'stale' });
    expect(cf.verify(raw, headers, 'other-secret', now)).toMatchObject({ ok: false, reason: 'wrong' });
    expect(cf.verify(Buffer.concat([raw, Buffer.from(' ')]), headers, 'whsec-cf', now)).toMatchObject({
      ok: false,
      reason: 'wrong',
    });
    expect(
      cf.verify(
        raw,
        { 'x-webhook-clickfunnels-timestamp': headers['x-webhook-clickfunnels-timestamp'] },
        'whsec-cf',
        now,
      ),
    ).toMatchObject({ ok: false, reason: 'missing' });
    expect(
      cf.verify(
        raw,
        { 'x-webhook-clickfunnels-signature': headers['x-webhook-clickfunnels-signature'] },
        'whsec-cf',
        now,
      ),
    ).toMatchObject({ ok: false, reason: 'missing' });
    expect(cf.verify(raw, { ...headers, 'x-webhook-clickfunnels-signature': 'zz' }, 'whsec-cf', now)).toMatchObject({
      ok: false,
      reason: 'wrong',
    });
  });
});

describe('ClickFunnels Classic', () => {
  it('a top-level contact with a numeric funnel_id', () => {
    const r = parse('clickfunnels_classic', fixture('clickfunnels-classic', 'contact'));
    expect(r).toEqual({
      ok: true,
      eventName: 'contact',
      deliveryId: null,
      fact: {
        kind: 'contact',
        op: 'created',
        contactId: '118822',
        email: 'alex.moreau@example.com',
        phone: '+33612345678',
        firstName: 'Alex',
        checkoutUrl: null,
        funnelId: '90210',
        cart: null,
      },
    });
  });

  it('a contact under `contact`', () => {
    const r = parse('clickfunnels_classic', fixture('clickfunnels-classic', 'contact-nested'));
    expect(r.ok && r.fact).toMatchObject({
      kind: 'contact',
      contactId: '118830',
      email: 'jo.baker@example.com',
      phone: null,
      funnelId: '90210',
    });
  });

  it('a paid purchase with its amount in cents', () => {
    const r = parse('clickfunnels_classic', fixture('clickfunnels-classic', 'purchase'));
    expect(r.ok && r.fact).toEqual({
      kind: 'purchase',
      contactId: '118822',
      email: 'alex.moreau@example.com',
      phone: '+33612345678',
      amount: 47,
      currency: 'USD',
      funnelId: '90210',
    });
  });

  it('a purchase that did not go through is its buyer with the cart: the products, one of each, and the total', () => {
    const r = parse('clickfunnels_classic', fixture('clickfunnels-classic', 'purchase-failed'));
    expect(r.ok && r.fact).toMatchObject({
      kind: 'contact',
      op: 'created',
      contactId: '118823',
      email: 'sam.rivera@example.com',
      phone: '+15125550143',
      firstName: 'Sam',
      funnelId: '90210',
    });
    const cart = r.ok && r.fact.kind === 'contact' ? normalizeCart(r.fact.cart, new Date('2026-11-20T00:00:00Z')) : null;
    expect(cart).toEqual({
      notes: [],
      cart: expect.objectContaining({
        currency: 'USD',
        total: 5695,
        updated_at: '2026-11-19T18:41:12.000Z',
        updated_at_source: 'sender',
        items: [
          expect.objectContaining({ name: 'Starter kit', quantity: 1, unit_price: 4700, line_total: 4700 }),
          expect.objectContaining({ name: 'Express shipping', quantity: 1, unit_price: 995, line_total: 995 }),
        ],
      }),
    });
  });

  it('malformed: no contact id, no email or phone, a purchase without a buyer', () => {
    expect(parse('clickfunnels_classic', { email: 'a@b.co' })).toMatchObject({
      ok: false,
      error: 'contact id is required (id or contact.id)',
    });
    expect(parse('clickfunnels_classic', { id: 4 })).toMatchObject({ ok: false, error: 'email or phone is required' });
    expect(parse('clickfunnels_classic', { purchase: { status: 'paid' } })).toMatchObject({
      ok: false,
      error: 'purchase.contact is required',
    });
    expect(parse('clickfunnels_classic', { purchase: { status: 'refunded', contact: { id: 1 } } })).toMatchObject({
      ok: true,
      fact: { kind: 'ignored' },
    });
  });

  it('never verifies: Classic has no signature scheme', () => {
    expect(ADAPTERS.clickfunnels_classic.verify(Buffer.from('{}'), {}, 's')).toMatchObject({
      ok: false,
      reason: 'missing',
    });
  });
});

describe('Shopify', () => {
  const topic = (t: string, id = 'wh-1'): Headers => ({ 'x-shopify-topic': t, 'x-shopify-webhook-id': id });

  it('checkouts/create is an abandoned-cart contact keyed by the checkout token, with its recovery link', () => {
    const r = parse(
      'shopify',
      fixture('shopify', 'checkouts-create'),
      topic('checkouts/create', 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043'),
    );
    expect(r).toEqual({
      ok: true,
      eventName: 'checkouts/create',
      deliveryId: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043',
      fact: {
        kind: 'contact',
        op: 'created',
        contactId: 'b7e3c1a9d2f04e6c8a1b3d5f7e9c2a4b',
        email: 'sam.okafor@example.com',
        phone: '+16475550143',
        firstName: 'Sam',
        checkoutUrl:
          'https://north-goods.myshopify.com/60673655038/checkouts/ac/b7e3c1a9d2f04e6c8a1b3d5f7e9c2a4b/recover?key=4f1e2d3c',
        funnelId: null,
        cart: expect.any(Object),
        // Where the shopper lives, as Shopify gave it: quiet hours on the shopper's clock read it.
        zoneHints: { timezone: null, billing_address: { country_code: 'CA', province_code: 'ON' }, shipping_address: null, locale: null },
      },
    });
  });

  it('checkouts/create keeps its three line items, amounts in minor units of its currency', () => {
    const r = parse('shopify', fixture('shopify', 'checkouts-create'), topic('checkouts/create'));
    const { cart, notes } = keptCart(r.ok && r.fact.kind === 'contact' ? r.fact.cart : null, new Date());
    expect(notes).toEqual([]);
    expect(cart).toMatchObject({
      currency: 'CAD',
      subtotal: 10000,
      discounts: 1000,
      total: 10170,
      recovery_url:
        'https://north-goods.myshopify.com/60673655038/checkouts/ac/b7e3c1a9d2f04e6c8a1b3d5f7e9c2a4b/recover?key=4f1e2d3c',
      updated_at: '2026-11-20T19:03:40.000Z',
      updated_at_source: 'sender',
    });
    expect(cart!.items).toEqual([
      {
        name: 'Wool socks',
        variant: 'Grey / M',
        quantity: 2,
        unit_price: 3200,
        line_total: 6400,
        product_url: null,
        image_url: null,
        sku: 'WS-GR-M',
      },
      expect.objectContaining({ name: 'Merino beanie', variant: 'Charcoal', quantity: 1, unit_price: 2800 }),
      expect.objectContaining({ name: 'Gift wrap', variant: null, sku: null, line_total: 800 }),
    ]);
  });

  it('a checkout with a phone only, from the billing address', () => {
    const r = parse('shopify', fixture('shopify', 'checkouts-create-phone-only'), topic('checkouts/create'));
    expect(r.ok && r.fact).toMatchObject({ kind: 'contact', email: null, phone: '+447700900123', firstName: 'Priya' });
  });

  it('a completed checkout, one without contact details and other topics are ignored', () => {
    expect(parse('shopify', fixture('shopify', 'checkouts-update-completed'), topic('checkouts/update'))).toMatchObject(
      { ok: true, fact: { kind: 'ignored' } },
    );
    expect(parse('shopify', fixture('shopify', 'checkouts-create-anonymous'), topic('checkouts/create'))).toMatchObject(
      { ok: true, fact: { kind: 'ignored' } },
    );
    expect(parse('shopify', fixture('shopify', 'products-update'), topic('products/update'))).toMatchObject({
      ok: true,
      fact: { kind: 'ignored' },
    });
  });

  it('orders/create is a purchase matched by checkout_token', () => {
    const r = parse('shopify', fixture('shopify', 'orders-create'), topic('orders/create'));
    expect(r.ok && r.fact).toEqual({
      kind: 'purchase',
      contactId: 'b7e3c1a9d2f04e6c8a1b3d5f7e9c2a4b',
      email: 'sam.okafor@example.com',
      phone: '+16475550143',
      amount: 72.32,
      currency: 'CAD',
      funnelId: null,
    });
  });

  it('malformed: no topic, no token, an order that names nobody', () => {
    expect(parse('shopify', fixture('shopify', 'orders-create'), {})).toMatchObject({
      ok: false,
      error: 'X-Shopify-Topic header is required',
    });
    expect(parse('shopify', { email: 'a@b.co' }, topic('checkouts/create'))).toMatchObject({
      ok: false,
      error: 'token is required for checkouts/create',
    });
    expect(parse('shopify', { total_price: '3.00' }, topic('orders/create'))).toMatchObject({
      ok: false,
      error: 'checkout_token, email or phone is required for orders/create',
    });
  });

  it('signature: base64 HMAC-SHA256 of the raw body', () => {
    const sh = ADAPTERS.shopify;
    const raw = Buffer.from(JSON.stringify(fixture('shopify', 'orders-create')));
    const headers = lower(sh.sign(raw, 'shpss_secret'));
    expect(sh.verify(raw, headers, 'shpss_secret')).toEqual({ ok: true });
    expect(sh.verify(raw, headers, 'other')).toMatchObject({ ok: false, reason: 'wrong' });
    expect(sh.verify(Buffer.from(raw.toString().replace('72.32', '0.01')), headers, 'shpss_secret')).toMatchObject({
      ok: false,
      reason: 'wrong',
    });
    expect(sh.verify(raw, {}, 'shpss_secret')).toMatchObject({ ok: false, reason: 'missing' });
  });
});

describe('generic (the spec formats) signing scheme', () => {
  it('X-Signature: sha256=<hex> over "{X-Signature-Timestamp}.{raw body}", 300 s', () => {
    const g = ADAPTERS.generic;
    const raw = Buffer.from('{"event":"contact_created","contact":{"id":"c1","email":"a@b.co"}}');
    const now = 1_800_000_000_000;
    const headers = lower(g.sign(raw, 'gen', now));
    expect(headers['x-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(g.verify(raw, headers, 'gen', now + 299_000)).toEqual({ ok: true });
    expect(g.verify(raw, headers, 'gen', now + 301_000)).toMatchObject({ ok: false, reason: 'stale' });
    expect(g.verify(raw, { ...headers, 'x-signature': headers['x-signature'].slice(7) }, 'gen', now)).toMatchObject({
      ok: false,
      reason: 'wrong',
    });
    expect(g.deliveryId({}, { 'x-webhook-id': 'd-1' })).toBe('d-1');
  });
});

describe('detectSource', () => {
  it('recognises each sender from headers first, then the body', () => {
    expect(detectSource({}, { 'x-shopify-topic': 'orders/create' })).toBe('shopify');
    expect(detectSource({}, { 'x-webhook-clickfunnels-signature': 'ab' })).toBe('clickfunnels2');
    expect(detectSource(fixture('clickfunnels2', 'one-time-order-completed'), {})).toBe('clickfunnels2');
    expect(detectSource(fixture('clickfunnels-classic', 'contact'), {})).toBe('clickfunnels_classic');
    expect(detectSource(fixture('clickfunnels-classic', 'purchase'), {})).toBe('clickfunnels_classic');
    expect(detectSource({ event: 'contact_created', contact: { id: 1 } }, {})).toBe('generic');
    expect(detectSource({ event_type: 'purchase_created' }, {})).toBe('generic');
    expect(detectSource({ event: 'something_else' }, {})).toBe('generic');
    expect(detectSource({}, {})).toBe('generic');
    expect(detectSource('text', {})).toBe('generic');
  });

  it('every adapter signs its own sample so that it verifies and parses', () => {
    for (const adapter of Object.values(ADAPTERS)) {
      const { body, headers } = adapter.sample({
        email: 'x@example.com',
        phone: '+14155550100',
        firstName: 'X',
        funnelId: '42',
        nonce: 'abcdef0123456789',
      });
      const raw = Buffer.from(JSON.stringify(body));
      const all = lower({ ...headers, ...adapter.sign(raw, 'k') });
      expect(detectSource(body, all)).toBe(adapter.id);
      if (adapter.id !== 'clickfunnels_classic') expect(adapter.verify(raw, all, 'k')).toEqual({ ok: true });
      if (adapter.parse)
        expect(adapter.parse(body, all)).toMatchObject({ ok: true, fact: { kind: 'contact', email: 'x@example.com' } });
    }
  });
});

function lower(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}
