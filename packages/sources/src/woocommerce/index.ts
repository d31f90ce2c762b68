import { zoneHintsOf } from '@act/contracts/src/timing';
import { hmacSha256, signatureMatches } from '../crypto';
import { amount, currency, email, first, header, LIMITS, obj, text, usedCodes } from '../values';
import type { AdapterResult, SourceAdapter } from '../types';
import type { CartInput } from '@act/contracts/src/cart';
import {
  WOOCOMMERCE_PAID_STATUSES,
  WOOCOMMERCE_TOPICS,
  WOOCOMMERCE_UNPAID_STATUSES,
} from '@act/contracts/src/webhook-signing';

/**
 * WooCommerce webhooks (WooCommerce docs "Webhooks", `includes/class-wc-webhook.php`): the body is the REST API's
 * resource (`/wc/v3/orders/<id>` for the order topics), with `X-WC-Webhook-Topic` (`order.updated`),
 * `-Resource` (`order`), `-Event` (`updated`), `-ID` (the webhook), `-Delivery-ID` (a hash per delivery),
 * `-Source` (the shop's home URL) and `X-WC-Webhook-Signature`: base64 HMAC-SHA256 of the raw body with the
 * webhook's secret. When a webhook is saved WooCommerce first posts an unsigned ping, the form-encoded body
 * `webhook_id=<id>`, and keeps the webhook only if it is answered 200.
 *
 * An order whose `status` is unpaid (`pending`, `failed`, `checkout-draft`; WOOCOMMERCE_UNPAID_STATUSES) is an
 * abandoned-cart contact keyed by the order id, with `billing.email` / `.phone` / `.first_name`, its `line_items`
 * (`name`, `quantity`, `price`, `total`, `sku`, `image.src`), `discount_total`, `total` and `currency`, and its
 * `payment_url` as the recovery link; the same order later with a paid status (`processing`, `completed`;
 * WOOCOMMERCE_PAID_STATUSES) is the purchase. Other statuses and topics are ignored.
 */
export const WOOCOMMERCE_SIGNATURE_HEADER = 'X-WC-Webhook-Signature';

function statuses(name: string, fallback: readonly string[]): string[] {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return [...fallback];
  return raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => /^[a-z0-9_-]{1,40}$/.test(s));
}
export const unpaidStatuses = () => statuses('WOOCOMMERCE_UNPAID_STATUSES', WOOCOMMERCE_UNPAID_STATUSES);
export const paidStatuses = () => statuses('WOOCOMMERCE_PAID_STATUSES', WOOCOMMERCE_PAID_STATUSES);

/** WooCommerce's creation ping: `webhook_id=<id>`, form-encoded and unsigned. Answered 200, nothing created. */
export function isWooCommercePing(raw: string): boolean {
  return /^webhook_id=\d{1,20}$/.test(raw.trim());
}

/** The REST API's `_gmt` dates carry no zone: they are UTC. */
function gmt(v: unknown): string | null {
  const t = text(v, 40);
  return t && !/(Z|[+-]\d{2}:?\d{2})$/.test(t) ? `${t}Z` : t;
}

/** A line's variation as its shop shows it: the `meta_data` entries WooCommerce displays (`Size: M`). */
function variantOf(line: Record<string, unknown>): string | null {
  const meta = Array.isArray(line.meta_data) ? line.meta_data : [];
  const shown = meta
    .map((m) => obj(m))
    .filter((m): m is Record<string, unknown> => !!m && typeof m.display_key === 'string' && !m.display_key.startsWith('_'))
    .map((m) => `${String(m.display_key)}: ${String(m.display_value ?? m.value ?? '')}`);
  return shown.length ? shown.join(', ') : null;
}

function orderCart(o: Record<string, unknown>): CartInput {
  const lines = Array.isArray(o.line_items) ? o.line_items : [];
  return {
    currency: o.currency,
    items: lines.map((l) => {
      const line = obj(l) ?? {};
      return {
        name: line.name,
        variant: variantOf(line),
        quantity: line.quantity,
        unitPrice: { major: line.price },
        lineTotal: { major: line.total },
        imageUrl: obj(line.image)?.src,
        sku: line.sku,
      };
    }),
    discounts: { major: o.discount_total },
    total: { major: o.total },
    recoveryUrl: o.payment_url,
    updatedAt: gmt(o.date_modified_gmt) ?? gmt(o.date_created_gmt),
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
  if (!topic) return fail('X-WC-Webhook-Topic header is required');
  if (!(WOOCOMMERCE_TOPICS as readonly string[]).includes(topic))
    return ignored(`${topic.slice(0, 100)} is not an order created or updated`);
  const o = obj(body);
  if (!o) return fail('Request body must be a JSON object');
  const orderId = text(o.id);
  if (!orderId) return fail(`id is required for ${topic}`);
  const status = text(o.status, 40)?.toLowerCase() ?? null;
  if (!status) return fail(`status is required for ${topic}`);
  const billing = obj(o.billing) ?? {};
  const em = email(billing.email);
  const phone = text(billing.phone, LIMITS.phone);

  if (unpaidStatuses().includes(status)) {
    if (!em && !phone) return ignored('The order has no billing email address or phone number yet');
    const url = text(o.payment_url, LIMITS.url);
    return {
      ok: true,
      eventName: topic,
      deliveryId,
      fact: {
        kind: 'contact',
        op: topic === 'order.created' ? 'created' : 'updated',
        contactId: orderId,
        email: em,
        phone,
        firstName: first(text(billing.first_name, LIMITS.name), text(obj(o.shipping)?.first_name, LIMITS.name)),
        checkoutUrl: url && /^https?:\/\//i.test(url) ? url : null,
        funnelId: null,
        cart: orderCart(o),
        zoneHints: zoneHintsOf({ billing_address: o.billing, shipping_address: o.shipping }),
      },
    };
  }
  if (paidStatuses().includes(status))
    return {
      ok: true,
      eventName: topic,
      deliveryId,
      fact: {
        kind: 'purchase',
        contactId: orderId,
        email: em,
        phone,
        amount: amount(o.total),
        currency: currency(o.currency),
        funnelId: null,
        ...usedCodes(o.coupon_lines, 'discount'),
      },
    };
  return ignored(`Order status ${status} is neither unpaid nor paid`);
}

export const woocommerce: SourceAdapter = {
  id: 'woocommerce',
  parse: (body, headers) =>
    parse(body, header(headers, 'x-wc-webhook-topic'), header(headers, 'x-wc-webhook-delivery-id')),
  deliveryId: (_body, headers) => text(header(headers, 'x-wc-webhook-delivery-id')),
  verify: (raw, headers, secret) => {
    const received = header(headers, 'x-wc-webhook-signature');
    if (!received) return { ok: false, reason: 'missing', message: `Missing signature (${WOOCOMMERCE_SIGNATURE_HEADER})` };
    if (!signatureMatches(received, hmacSha256(secret, raw), 'base64'))
      return { ok: false, reason: 'wrong', message: `Wrong signature (${WOOCOMMERCE_SIGNATURE_HEADER})` };
    return { ok: true };
  },
  sign: (raw, secret) => ({ [WOOCOMMERCE_SIGNATURE_HEADER]: hmacSha256(secret, raw).toString('base64') }),
  sample: ({ email: em, phone, firstName, nonce }) => {
    const now = new Date().toISOString().slice(0, 19);
    const id = 10_000 + (parseInt(nonce.slice(0, 5), 16) % 89_999);
    const key = `wc_order_${nonce}`;
    return {
      body: {
        id,
        parent_id: 0,
        status: 'pending',
        currency: 'USD',
        version: '10.3.0',
        prices_include_tax: false,
        date_created: now,
        date_modified: now,
        date_created_gmt: now,
        date_modified_gmt: now,
        discount_total: '0.00',
        discount_tax: '0.00',
        shipping_total: '0.00',
        shipping_tax: '0.00',
        cart_tax: '0.00',
        total: '49.00',
        total_tax: '0.00',
        customer_id: 0,
        order_key: key,
        billing: { first_name: firstName, last_name: 'Sample', email: em, phone, country: 'US' },
        shipping: { first_name: firstName, last_name: 'Sample', country: 'US' },
        payment_method: '',
        payment_method_title: '',
        needs_payment: true,
        payment_url: `https://shop.example.com/checkout/order-pay/${id}/?pay_for_order=true&key=${key}`,
        line_items: [
          {
            id: id * 10 + 1,
            name: 'Sample product',
            product_id: 93,
            variation_id: 0,
            quantity: 1,
            subtotal: '49.00',
            total: '49.00',
            sku: 'SAMPLE-1',
            price: 49,
            meta_data: [],
            image: { id: 0, src: '' },
          },
        ],
      },
      headers: {
        'X-WC-Webhook-Source': 'https://shop.example.com/',
        'X-WC-Webhook-Topic': 'order.created',
        'X-WC-Webhook-Resource': 'order',
        'X-WC-Webhook-Event': 'created',
        'X-WC-Webhook-ID': '7',
        'X-WC-Webhook-Delivery-ID': `test-${nonce}`,
        'User-Agent': 'WooCommerce/10.3.0 Hookshot (WordPress/6.8)',
      },
    };
  },
};
