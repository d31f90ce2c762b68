import { zoneHintsOf } from '@act/contracts/src/timing';
import Stripe from 'stripe';
import { minorToDecimal } from '@act/contracts/src/cart';
import { email, first, header, LIMITS, obj, text } from '../values';
import type { AdapterResult, SourceAdapter, UsedDiscountCode, VerifyResult } from '../types';
import { STRIPE_CONTACT_EVENTS, STRIPE_PAID_EVENTS } from '@act/contracts/src/webhook-signing';

/**
 * Stripe Checkout webhooks (docs.stripe.com "Receive Stripe events in your webhook endpoint", "Checkout Session
 * object", "Recover abandoned carts"). Every delivery is an Event `{ id, object: 'event', type, created, data: {
 * object } }` whose `data.object` is the Checkout Session; the event id is the same on every retry and sits inside
 * the signed body.
 *
 * - `checkout.session.expired`: the shopper left. The session (`id`) is the contact: `customer_details.email` /
 *   `.phone` / `.name` (or `customer_email`), `amount_total` / `amount_subtotal` / `total_details.amount_discount` in
 *   minor units of `currency`, `after_expiration.recovery.url` (a link that opens a copy of the session) and its
 *   `expires_at`, and `consent.promotions` (`opt_in` / `opt_out`, present when the session collected it).
 * - `checkout.session.completed` and `checkout.session.async_payment_succeeded`: paid (a `completed` session whose
 *   `payment_status` is `unpaid` waits for its async payment); matched by `recovered_from`, the expired session the
 *   shopper came back through, else by email / phone.
 *
 * Signature (`Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]`): HMAC-SHA256 of `"{t}.{raw body}"` with the
 * endpoint's `whsec_` secret, checked by the official library (`stripe.webhooks`), 300 s tolerance by default.
 */
export const STRIPE_SIGNATURE_HEADER = 'Stripe-Signature';

/** STRIPE_WEBHOOK_TOLERANCE_SECONDS (default 300, Stripe's own); 0 turns the age check off, as in the library. */
export function stripeToleranceSeconds(): number {
  const raw = process.env.STRIPE_WEBHOOK_TOLERANCE_SECONDS;
  return raw !== undefined && /^\d{1,6}$/.test(raw.trim()) ? Number(raw.trim()) : 300;
}

/**
 * Several secrets during a rotation: Stripe keeps signing with the old one for up to 24 hours after a roll, so the
 * integration's secret may hold the old and the new, separated by commas; any one of them verifies.
 */
export function stripeSecrets(secret: string): string[] {
  return secret
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function verify(raw: Buffer, headers: Record<string, string | string[] | undefined>, secret: string, nowMs = Date.now()): VerifyResult {
  const sig = header(headers, 'stripe-signature');
  if (!sig) return { ok: false, reason: 'missing', message: `Missing signature (${STRIPE_SIGNATURE_HEADER})` };
  const tolerance = stripeToleranceSeconds();
  let stale = false;
  for (const s of stripeSecrets(secret)) {
    try {
      Stripe.webhooks.signature!.verifyHeader(raw, sig, s, tolerance, undefined, nowMs);
      return { ok: true };
    } catch (err) {
      if (/tolerance/i.test((err as Error).message)) stale = true;
      else if (/Unable to extract|expected scheme/i.test((err as Error).message))
        return { ok: false, reason: 'missing', message: `Malformed signature (${STRIPE_SIGNATURE_HEADER})` };
    }
  }
  return stale
    ? { ok: false, reason: 'stale', message: `Stale signature: the timestamp is more than ${tolerance} s old` }
    : { ok: false, reason: 'wrong', message: `Wrong signature (${STRIPE_SIGNATURE_HEADER})` };
}

function firstName(name: string | null): string | null {
  if (!name) return null;
  return name.split(/\s+/)[0]?.slice(0, LIMITS.name) || null;
}

/**
 * The promotion codes a paid session used (`discounts[]`: `{ coupon, promotion_code }`, each an id or, expanded, the
 * object). An expanded PromotionCode carries its `code`; an id (`promo_…`, what a webhook sends) is read through the
 * API later. A coupon applied without a promotion code has no code a shopper typed: no step gave it. The discount
 * is `total_details.amount_discount` (minor units): it is a code's own only when the session has one discount.
 */
function sessionCodes(session: Record<string, unknown>, currency: string | null): { discountCodes: UsedDiscountCode[]; promotionCodeRefs: { id: string; amount: string | null }[] } {
  const discounts = (Array.isArray(session.discounts) ? session.discounts : []).slice(0, 20).map((d) => obj(d)?.promotion_code);
  const minor = obj(session.total_details)?.amount_discount;
  const amount = discounts.length === 1 && currency && typeof minor === 'number' && Number.isSafeInteger(minor) && minor > 0 ? minorToDecimal(minor, currency) : null;
  const discountCodes: UsedDiscountCode[] = [];
  const promotionCodeRefs: { id: string; amount: string | null }[] = [];
  for (const p of discounts) {
    const expanded = obj(p);
    const code = text(expanded?.code, 200);
    if (code) discountCodes.push({ code, amount });
    const id = typeof p === 'string' ? text(p, 200) : null;
    if (id && /^promo_[A-Za-z0-9]+$/.test(id)) promotionCodeRefs.push({ id, amount });
  }
  return { discountCodes, promotionCodeRefs };
}

function parse(body: unknown): AdapterResult {
  const b = obj(body);
  const eventName = text(b?.type);
  const deliveryId = text(b?.id);
  const fail = (error: string): AdapterResult => ({ ok: false, error, eventName, deliveryId });
  const ignored = (reason: string): AdapterResult => ({
    ok: true,
    eventName: eventName ?? '',
    deliveryId,
    fact: { kind: 'ignored', reason },
  });
  if (!b) return fail('Request body must be a JSON object');
  if (b.object !== 'event' || !eventName) return fail('A Stripe event (object "event" with a type) is required');
  const session = obj(obj(b.data)?.object);
  const isContact = (STRIPE_CONTACT_EVENTS as readonly string[]).includes(eventName);
  const isPaid = (STRIPE_PAID_EVENTS as readonly string[]).includes(eventName);
  if (!isContact && !isPaid) return ignored(`${eventName.slice(0, 100)} is not a Checkout Session the product acts on`);
  if (!session || session.object !== 'checkout.session') return fail(`data.object must be a Checkout Session for ${eventName}`);
  const sessionId = text(session.id);
  if (!sessionId) return fail(`data.object.id is required for ${eventName}`);
  const details = obj(session.customer_details) ?? {};
  const em = first(email(details.email), email(session.customer_email));
  const phone = text(details.phone, LIMITS.phone);
  const currencyCode = text(session.currency, LIMITS.currency)?.toUpperCase() ?? null;
  const total = typeof session.amount_total === 'number' && Number.isSafeInteger(session.amount_total) ? session.amount_total : null;

  if (isContact) {
    if (!em && !phone) return ignored('The session has no email address or phone number');
    const recovery = obj(obj(session.after_expiration)?.recovery) ?? {};
    const url = text(recovery.url, LIMITS.url);
    const promotions = text(obj(session.consent)?.promotions);
    return {
      ok: true,
      eventName,
      deliveryId,
      fact: {
        kind: 'contact',
        op: 'created',
        contactId: sessionId,
        email: em,
        phone,
        firstName: firstName(text(details.name, LIMITS.name)),
        checkoutUrl: url && /^https?:\/\//i.test(url) ? url : null,
        funnelId: null,
        zoneHints: zoneHintsOf({ billing_address: details.address, locale: session.locale }),
        cart: {
          currency: session.currency,
          items: null,
          subtotal: { minor: session.amount_subtotal },
          discounts: { minor: obj(session.total_details)?.amount_discount },
          total: { minor: session.amount_total },
          recoveryUrl: url,
          recoveryExpiresAt: recovery.expires_at,
          // The session does not change after it expires: the event's time is the cart's.
          updatedAt: b.created,
        },
        promotions: promotions === 'opt_in' ? 'granted' : promotions === 'opt_out' ? 'denied' : null,
        lineItemsRef: { sender: 'stripe', sessionId },
      },
    };
  }

  if (eventName === 'checkout.session.completed' && session.payment_status === 'unpaid')
    return ignored('The session awaits its asynchronous payment (checkout.session.async_payment_succeeded follows)');
  const recoveredFrom = text(session.recovered_from);
  if (!recoveredFrom && !em && !phone) return fail(`recovered_from, email or phone is required for ${eventName}`);
  const { discountCodes, promotionCodeRefs } = sessionCodes(session, currencyCode);
  return {
    ok: true,
    eventName,
    deliveryId,
    fact: {
      kind: 'purchase',
      // The expired session the shopper came back through is the contact; without one, email / phone match.
      contactId: recoveredFrom,
      email: em,
      phone,
      amount: total !== null && currencyCode ? Number(minorToDecimal(total, currencyCode)) : null,
      currency: currencyCode,
      funnelId: null,
      recoveredFrom,
      ...(discountCodes.length ? { discountCodes } : {}),
      ...(promotionCodeRefs.length ? { promotionCodeRefs } : {}),
    },
  };
}

export const stripe: SourceAdapter = {
  id: 'stripe',
  parse: (body) => parse(body),
  deliveryId: (body) => text(obj(body)?.id),
  verify: (raw, headers, secret, nowMs) => verify(raw, headers, secret, nowMs),
  // The library's own test-header helper: what Stripe sends, signed with the first (newest) secret.
  sign: (raw, secret, nowMs = Date.now()) => ({
    [STRIPE_SIGNATURE_HEADER]: Stripe.webhooks.generateTestHeaderString({
      payload: raw.toString('utf8'),
      secret: stripeSecrets(secret)[0] ?? secret,
      timestamp: Math.floor(nowMs / 1000),
    }),
  }),
  sample: ({ email: em, phone, firstName: name, nonce }) => {
    const now = Math.floor(Date.now() / 1000);
    const sessionId = `cs_test_${nonce}${'a'.repeat(Math.max(0, 24 - nonce.length))}`;
    return {
      body: {
        id: `evt_test_${nonce}`,
        object: 'event',
        api_version: '2025-10-29.clover',
        created: now,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type: 'checkout.session.expired',
        data: {
          object: {
            id: sessionId,
            object: 'checkout.session',
            after_expiration: {
              recovery: {
                allow_promotion_codes: true,
                enabled: true,
                expires_at: now + 30 * 24 * 3600,
                url: `https://buy.stripe.com/r/live_${nonce}`,
              },
            },
            amount_subtotal: 4900,
            amount_total: 4900,
            consent: { promotions: 'opt_in', terms_of_service: null },
            consent_collection: { promotions: 'auto', terms_of_service: 'none' },
            created: now - 24 * 3600,
            currency: 'usd',
            customer: null,
            customer_details: { email: em, name: `${name} Sample`, phone, address: null, tax_exempt: 'none', tax_ids: [] },
            customer_email: em,
            expires_at: now,
            livemode: false,
            metadata: {},
            mode: 'payment',
            payment_status: 'unpaid',
            recovered_from: null,
            status: 'expired',
            total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
            url: null,
          },
        },
      },
      headers: { 'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' },
    };
  },
};
