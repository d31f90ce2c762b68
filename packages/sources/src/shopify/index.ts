import { zoneHintsOf } from '@act/contracts/src/timing';
import { hmacSha256, signatureMatches } from '../crypto';
import { amount, currency, email, first, header, LIMITS, obj, text, usedCodes } from '../values';
import type { AdapterResult, SourceAdapter } from '../types';
import type { CartInput } from '@act/contracts/src/cart';
import { SHOPIFY_TOPICS } from '@act/contracts/src/webhook-signing';

/**
 * Shopify webhooks (shopify.dev "Webhooks", "Verify webhooks"): the topic in `X-Shopify-Topic`, the delivery's id in
 * `X-Shopify-Webhook-Id` (the same on retries), the signature in `X-Shopify-Hmac-Sha256`: base64 HMAC-SHA256 of the
 * raw body with the app's client secret (or the store's webhook signing secret).
 *
 * Topics: `checkouts/create` and `checkouts/update` carry a Checkout (`token`, `email`, `phone`, `customer`,
 * `billing_address`, `abandoned_checkout_url`, `completed_at`); one with an email or phone and no `completed_at` is
 * an abandoned-cart contact whose id is the checkout `token`. `orders/create` carries an Order (`checkout_token`,
 * `checkout_id`, `email`, `phone`, `customer`, `total_price`, `currency`): a purchase, matched to its checkout by the
 * token. Every other topic is ignored.
 */
const CHECKOUT_TOPICS: Record<string, 'created' | 'updated'> = {
  'checkouts/create': 'created',
  'checkouts/update': 'updated',
};
const ORDER_TOPICS = ['orders/create'];
// The topics the documentation asks shops to tick (contracts' SHOPIFY_TOPICS) are exactly these.
SHOPIFY_TOPICS satisfies readonly (keyof typeof CHECKOUT_TOPICS | 'orders/create')[];

/**
 * A Checkout's cart (REST Checkout resource): `line_items[]` with `title`, `variant_title`, `quantity`, `price` and
 * `line_price` as decimal text in the checkout's `currency`, `sku`; `subtotal_price`, `total_discounts`,
 * `total_price`; `abandoned_checkout_url`; `updated_at`. The REST checkout carries no image or product URL.
 */
function checkoutCart(b: Record<string, unknown>): CartInput {
  const lines = Array.isArray(b.line_items) ? b.line_items : [];
  return {
    currency: b.presentment_currency ?? b.currency,
    items: lines.map((l) => {
      const line = obj(l) ?? {};
      return {
        name: line.title ?? line.name,
        variant: line.variant_title,
        quantity: line.quantity,
        unitPrice: { major: line.price },
        lineTotal: { major: line.line_price },
        sku: line.sku,
      };
    }),
    subtotal: { major: b.subtotal_price },
    discounts: { major: b.total_discounts },
    total: { major: b.total_price },
    recoveryUrl: b.abandoned_checkout_url,
    updatedAt: b.updated_at ?? b.created_at,
  };
}

function parse(body: unknown, topic: string | null, deliveryId: string | null): AdapterResult {
  const eventName = topic;
  const fail = (error: string): AdapterResult => ({ ok: false, error, eventName, deliveryId });
  const ignored = (reason: string): AdapterResult => ({
    ok: true,
    eventName: topic ?? '',
    deliveryId,
    fact: { kind: 'ignored', reason },
  });
  if (!topic) return fail('X-Shopify-Topic header is required');
  const b = obj(body);
  if (!b) return fail('Request body must be a JSON object');
  const customer = obj(b.customer) ?? {};
  const billing = obj(b.billing_address) ?? {};
  const shipping = obj(b.shipping_address) ?? {};
  const em = first(email(b.email), email(b.contact_email), email(customer.email));
  const phone = first(
    text(b.phone, LIMITS.phone),
    text(customer.phone, LIMITS.phone),
    text(billing.phone, LIMITS.phone),
    text(shipping.phone, LIMITS.phone),
  );

  const op = CHECKOUT_TOPICS[topic];
  if (op) {
    const token = text(b.token) ?? text(b.id);
    if (!token) return fail(`token is required for ${topic}`);
    if (text(b.completed_at)) return ignored('The checkout is completed: its order arrives as orders/create');
    if (!em && !phone) return ignored('The checkout has no email address or phone number yet');
    const url = text(b.abandoned_checkout_url, LIMITS.url);
    return {
      ok: true,
      eventName: topic,
      deliveryId,
      fact: {
        kind: 'contact',
        op,
        contactId: token,
        email: em,
        phone,
        firstName: first(
          text(customer.first_name, LIMITS.name),
          text(billing.first_name, LIMITS.name),
          text(shipping.first_name, LIMITS.name),
        ),
        checkoutUrl: url && /^https?:\/\//i.test(url) ? url : null,
        funnelId: null,
        cart: checkoutCart(b),
        zoneHints: zoneHintsOf({ billing_address: b.billing_address, shipping_address: b.shipping_address, locale: b.customer_locale }),
      },
    };
  }

  if (ORDER_TOPICS.includes(topic)) {
    const contactId = first(text(b.checkout_token), text(b.cart_token));
    if (!contactId && !em && !phone) return fail(`checkout_token, email or phone is required for ${topic}`);
    return {
      ok: true,
      eventName: topic,
      deliveryId,
      fact: {
        kind: 'purchase',
        contactId,
        email: em,
        phone,
        amount: first(amount(b.total_price), amount(b.current_total_price), amount(b.subtotal_price)),
        currency: first(currency(b.currency), currency(b.presentment_currency)),
        funnelId: null,
        ...usedCodes(b.discount_codes, 'amount'),
      },
    };
  }
  return ignored(`${topic.slice(0, 100)} is neither a checkout nor an order`);
}

export const shopify: SourceAdapter = {
  id: 'shopify',
  parse: (body, headers) => parse(body, header(headers, 'x-shopify-topic'), header(headers, 'x-shopify-webhook-id')),
  deliveryId: (_body, headers) => text(header(headers, 'x-shopify-webhook-id')),
  verify: (raw, headers, secret) => {
    const received = header(headers, 'x-shopify-hmac-sha256');
    if (!received) return { ok: false, reason: 'missing', message: 'Missing signature (X-Shopify-Hmac-Sha256)' };
    if (!signatureMatches(received, hmacSha256(secret, raw), 'base64'))
      return { ok: false, reason: 'wrong', message: 'Wrong signature (X-Shopify-Hmac-Sha256)' };
    return { ok: true };
  },
  sign: (raw, secret) => ({ 'X-Shopify-Hmac-Sha256': hmacSha256(secret, raw).toString('base64') }),
  sample: ({ email: em, phone, firstName, nonce }) => {
    const now = new Date().toISOString();
    const token = `test${nonce}`;
    return {
      body: {
        id: 30_000_000_000 + (parseInt(nonce.slice(0, 6), 16) % 999_999),
        token,
        cart_token: `c1-${nonce}`,
        email: em,
        phone,
        created_at: now,
        updated_at: now,
        completed_at: null,
        currency: 'USD',
        presentment_currency: 'USD',
        total_price: '49.00',
        subtotal_price: '49.00',
        abandoned_checkout_url: `https://shop.example.com/12345/checkouts/ac/${token}/recover?key=${nonce}`,
        customer: { id: 7_000_001, email: em, first_name: firstName, last_name: 'Sample', phone },
        billing_address: { first_name: firstName, last_name: 'Sample', phone, country_code: 'US' },
        line_items: [{ title: 'Sample product', quantity: 1, price: '49.00' }],
      },
      headers: {
        'X-Shopify-Topic': 'checkouts/create',
        'X-Shopify-Webhook-Id': `test-${nonce}`,
        'X-Shopify-Shop-Domain': 'shop.example.com',
        'X-Shopify-API-Version': '2025-10',
        'X-Shopify-Triggered-At': now,
      },
    };
  },
};
