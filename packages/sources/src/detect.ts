import { header, obj } from './values';
import type { Headers, SourceId } from './types';

/** The spec's own event names (docs/webhooks.md): with one of them, a body is the generic format. */
const GENERIC_EVENTS = ['contact_created', 'contact_updated', 'purchase_created', 'handshake'];

/**
 * Who sent a delivery, from its headers first (senders always add theirs) and its body second. Anything that is not
 * recognisably another sender is `generic`, so the spec's formats keep their own parser and its error messages.
 */
export function detectSource(body: unknown, headers: Headers): SourceId {
  if (header(headers, 'x-shopify-topic') || header(headers, 'x-shopify-hmac-sha256')) return 'shopify';
  if (header(headers, 'stripe-signature')) return 'stripe';
  if (header(headers, 'x-wc-webhook-topic') || header(headers, 'x-wc-webhook-signature')) return 'woocommerce';
  if (header(headers, 'x-webhook-clickfunnels-signature') || header(headers, 'x-webhook-clickfunnels-timestamp'))
    return 'clickfunnels2';
  const b = obj(body);
  if (!b) return 'generic';
  // A Stripe Event: `object: 'event'` and a dotted `type` (checkout.session.expired).
  if (b.object === 'event' && typeof b.type === 'string' && typeof b.id === 'string' && b.id.startsWith('evt_'))
    return 'stripe';
  const type = b.event ?? b.event_type;
  if (typeof type === 'string') {
    if (GENERIC_EVENTS.includes(type)) return 'generic';
    // ClickFunnels 2.0's envelope: `event_type` like `contact.identified` and the subject in `data`.
    if (typeof b.event_type === 'string' && obj(b.data) && ('event_id' in b || 'subject_type' in b))
      return 'clickfunnels2';
    return 'generic';
  }
  if (type !== undefined) return 'generic';
  // No event field at all: ClickFunnels Classic's contact and purchase hooks.
  if (obj(b.purchase) || obj(b.contact) || 'email' in b || 'funnel_step_id' in b) return 'clickfunnels_classic';
  return 'generic';
}

/** The sender's own headers that describe a delivery (not its signature), kept on its Webhook Events row. */
const DESCRIBING_HEADERS: Partial<Record<SourceId, readonly string[]>> = {
  woocommerce: [
    'x-wc-webhook-topic',
    'x-wc-webhook-resource',
    'x-wc-webhook-event',
    'x-wc-webhook-delivery-id',
    'x-wc-webhook-id',
    'x-wc-webhook-source',
  ],
  shopify: ['x-shopify-topic', 'x-shopify-webhook-id', 'x-shopify-shop-domain', 'x-shopify-api-version', 'x-shopify-triggered-at'],
};

/** Those headers of a delivery (lower-case names, values capped at 200 characters), or null when it has none. */
export function describingHeaders(source: SourceId, headers: Headers): Record<string, string> | null {
  const kept: Record<string, string> = {};
  for (const name of DESCRIBING_HEADERS[source] ?? []) {
    const v = header(headers, name);
    if (v) kept[name] = v.slice(0, 200);
  }
  return Object.keys(kept).length ? kept : null;
}
