import { signTimestamped, verifyTimestamped, type TimestampedScheme } from '../timestamped';
import { amount, currency, email, first, header, LIMITS, obj, text } from '../values';
import type { AdapterResult, SourceAdapter } from '../types';
import { CLICKFUNNELS2_CONTACT_EVENTS, CLICKFUNNELS2_PAID_EVENTS } from '@act/contracts/src/webhook-signing';

/**
 * ClickFunnels 2.0 outgoing webhooks (developers.myclickfunnels.com: "How to Work with Webhooks", "Webhook Event
 * Types", "Signature Verification"). Every delivery is a `Webhooks::Outgoing::Event`:
 * `{ data, event_id, event_type, subject_id, subject_type, created_at, page_id, funnel_id }`, the subject in `data`.
 * Signed with the endpoint's `webhook_secret`: hex HMAC-SHA256 of `"{timestamp}.{raw body}"` in
 * `X-Webhook-ClickFunnels-Signature`, the timestamp in `X-Webhook-ClickFunnels-Timestamp`, 600 s tolerance.
 */
export const CLICKFUNNELS2_SCHEME: TimestampedScheme = {
  signatureHeader: 'X-Webhook-ClickFunnels-Signature',
  timestampHeader: 'X-Webhook-ClickFunnels-Timestamp',
  toleranceSeconds: 600,
  prefix: '',
};

/** "A contact is known": the Contact payload is `data` (the names: CLICKFUNNELS2_CONTACT_EVENTS in contracts). */
export const CONTACT_EVENTS: Record<(typeof CLICKFUNNELS2_CONTACT_EVENTS)[number], 'created' | 'updated'> = {
  'contact.created': 'created',
  'contact.identified': 'created',
  'contact.updated': 'updated',
};

/**
 * "Paid": Order payloads (`order_type`, `total_amount`, `currency`, `contact_id`, `contact`) and invoice payloads.
 * `order.completed` also fires when a subscription's service period ends, so it counts only for one-time orders.
 */
export const PAID_EVENTS = CLICKFUNNELS2_PAID_EVENTS;

/** Contact fields live on `data` for contact events and on `data.contact` (or `data.order.contact`) for orders. */
function contactOf(data: Record<string, unknown>): Record<string, unknown> | null {
  return obj(data.contact) ?? obj(obj(data.order)?.contact) ?? obj(data.primary_contact);
}

/** Shops put the cart link in a custom attribute; these are the names we read (docs/webhooks.md). */
const CHECKOUT_ATTRIBUTES = ['checkout_url', 'cart_url', 'recovery_url'];

function checkoutUrlOf(contact: Record<string, unknown>): string | null {
  const attrs = obj(contact.custom_attributes);
  if (!attrs) return null;
  for (const key of CHECKOUT_ATTRIBUTES) {
    const url = text(attrs[key], LIMITS.url);
    if (url && /^https?:\/\//i.test(url)) return url;
  }
  return null;
}

function parse(body: unknown): AdapterResult {
  const b = obj(body);
  const eventName = text(b?.event_type);
  const deliveryId = text(b?.event_id);
  const fail = (error: string): AdapterResult => ({ ok: false, error, eventName, deliveryId });
  if (!b) return fail('Request body must be a JSON object');
  if (!eventName) return fail('event_type is required');
  const data = obj(b.data);
  if (!data) return fail(`data is required for ${eventName}`);
  const funnelId = text(b.funnel_id);

  const op = (CONTACT_EVENTS as Record<string, 'created' | 'updated' | undefined>)[eventName];
  if (op) {
    const contactId = text(data.id);
    if (!contactId) return fail(`data.id is required for ${eventName}`);
    const em = email(data.email_address);
    const phone = text(data.phone_number, LIMITS.phone);
    if (!em && !phone)
      return {
        ok: true,
        eventName,
        deliveryId,
        fact: { kind: 'ignored', reason: 'The contact has no email address or phone number yet' },
      };
    return {
      ok: true,
      eventName,
      deliveryId,
      fact: {
        kind: 'contact',
        op,
        contactId,
        email: em,
        phone,
        firstName: text(data.first_name, LIMITS.name),
        checkoutUrl: checkoutUrlOf(data),
        funnelId,
        // A Contact payload carries no line items; its checkout link and change time are its cart.
        cart: { recoveryUrl: checkoutUrlOf(data), updatedAt: data.updated_at },
      },
    };
  }

  if ((PAID_EVENTS as readonly string[]).includes(eventName)) {
    const orderType = text(data.order_type) ?? text(obj(data.order)?.order_type);
    if (eventName === 'order.completed' && orderType !== null && orderType !== 'one-time-order')
      return {
        ok: true,
        eventName,
        deliveryId,
        fact: { kind: 'ignored', reason: `order.completed of a ${orderType} is not a payment` },
      };
    const contact = contactOf(data);
    const contactId = first(text(data.contact_id), text(contact?.id), text(obj(data.order)?.contact_id));
    const em = email(contact?.email_address) ?? email(data.email_address);
    const phone = text(contact?.phone_number, LIMITS.phone) ?? text(data.phone_number, LIMITS.phone);
    if (!contactId && !em && !phone) return fail(`data.contact is required for ${eventName}`);
    return {
      ok: true,
      eventName,
      deliveryId,
      fact: {
        kind: 'purchase',
        contactId,
        email: em,
        phone,
        amount: first(amount(data.total_amount), amount(data.total), amount(data.amount)),
        currency: currency(data.currency),
        funnelId,
      },
    };
  }

  return {
    ok: true,
    eventName,
    deliveryId,
    fact: { kind: 'ignored', reason: `${eventName.slice(0, 100)} is neither a contact nor a payment` },
  };
}

export const clickfunnels2: SourceAdapter = {
  id: 'clickfunnels2',
  parse: (body) => parse(body),
  deliveryId: (body) => text(obj(body)?.event_id),
  verify: (raw, headers, secret, nowMs = Date.now()) =>
    verifyTimestamped(
      CLICKFUNNELS2_SCHEME,
      raw,
      header(headers, 'x-webhook-clickfunnels-signature'),
      header(headers, 'x-webhook-clickfunnels-timestamp'),
      secret,
      nowMs,
    ),
  sign: (raw, secret, nowMs = Date.now()) => signTimestamped(CLICKFUNNELS2_SCHEME, raw, secret, nowMs),
  sample: ({ email: em, phone, firstName, funnelId, nonce }) => {
    const id = 900_000_000 + (parseInt(nonce.slice(0, 6), 16) % 99_999_999);
    const now = new Date().toISOString();
    return {
      body: {
        data: {
          id,
          public_id: nonce.slice(0, 7),
          workspace_id: 1,
          email_address: em,
          phone_number: phone,
          first_name: firstName,
          last_name: 'Sample',
          anonymous: 0,
          tags: [],
          custom_attributes: { checkout_url: `https://shop.example.com/checkout/test-${nonce}` },
          created_at: now,
          updated_at: now,
        },
        event_id: `test-${nonce}`,
        event_type: 'contact.identified',
        subject_id: id,
        subject_type: 'Contact',
        created_at: now,
        page_id: null,
        funnel_id: funnelId,
      },
      headers: {},
    };
  },
};
