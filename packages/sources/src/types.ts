import type { StoredZoneHints } from '@act/contracts/src/timing';
/**
 * What every source adapter produces: the facts the services already act on (a contact is known, a purchase was
 * paid) in one shape, whatever the sender. The spec's own formats keep their parsers in each service (their rules
 * and messages differ per side by the spec); these types carry the other senders.
 */

import type { CartInput } from '@act/contracts/src/cart';

/** Who sent a delivery. `generic` = the spec's own formats (docs/webhooks.md). */
export type SourceId = 'generic' | 'clickfunnels2' | 'clickfunnels_classic' | 'shopify' | 'stripe' | 'woocommerce';
export const SOURCE_IDS: readonly SourceId[] = [
  'generic',
  'clickfunnels2',
  'clickfunnels_classic',
  'shopify',
  'stripe',
  'woocommerce',
];

export const SOURCE_LABELS: Record<SourceId, string> = {
  generic: 'Generic',
  clickfunnels2: 'ClickFunnels 2.0',
  clickfunnels_classic: 'ClickFunnels Classic',
  shopify: 'Shopify',
  stripe: 'Stripe Checkout',
  woocommerce: 'WooCommerce',
};

/** Request headers as Node gives them: lower-case names. */
export type Headers = Record<string, string | string[] | undefined>;

export interface ContactFact {
  kind: 'contact';
  /** `created` for "a contact is known" events, `updated` for changes to one. */
  op: 'created' | 'updated';
  /** The sender's own id for the contact (a Shopify checkout's token): how a later purchase finds it. */
  contactId: string;
  email: string | null;
  phone: string | null;
  firstName: string | null;
  /** Where the shopper can finish the purchase (Shopify's abandoned_checkout_url): the reminders' link. */
  checkoutUrl: string | null;
  /** The sender's funnel id when it sends one (ClickFunnels 2.0 often sends null). */
  funnelId: string | null;
  /** The cart as the sender describes it, before the limits (`normalizeCart` in contracts' cart.ts); null: none. */
  cart: CartInput | null;
  /**
   * The shopper's answer to promotional messages where the sender asks for it (Stripe Checkout's
   * `consent.promotions`): `denied` holds the reminders unless the integration allows them on another basis.
   */
  promotions?: 'granted' | 'denied' | null;
  /**
   * The sender's own line items can be fetched for this contact (Stripe: a Checkout Session's `listLineItems`),
   * with the integration's API key; the cart then holds its total only until they are.
   */
  lineItemsRef?: { sender: 'stripe'; sessionId: string } | null;
  /** What the sender said of where the shopper lives (a zone, addresses, locale): quiet hours on their clock. */
  zoneHints?: StoredZoneHints | null;
}

export interface PurchaseFact {
  kind: 'purchase';
  /** The contact (or Shopify checkout token) the purchase belongs to, when the sender says. */
  contactId: string | null;
  email: string | null;
  phone: string | null;
  amount: number | null;
  /** ISO 4217, upper case. */
  currency: string | null;
  funnelId: string | null;
  /** The sender's id of the checkout it recovered (Stripe's `recovered_from`), for the revenue row. */
  recoveredFrom?: string | null;
  /**
   * The codes the purchase used, as the sender reports them (Shopify's `discount_codes`, WooCommerce's
   * `coupon_lines`), each with the discount it gave in major units as sent: an incentive's redemption.
   */
  discountCodes?: UsedDiscountCode[];
  /**
   * Stripe names a session's promotion codes by id (`discounts[].promotion_code`, `promo_…`): the code a shopper typed
   * is read through the API with the integration's key (stripe/promotion-codes.ts) and joins `discountCodes`.
   */
  promotionCodeRefs?: { id: string; amount: string | null }[];
}

export interface UsedDiscountCode {
  code: string;
  /** Major units as the sender wrote them ("5.00"); null when not said. */
  amount: string | number | null;
}

/** A delivery the product does not act on: answered 200 and recorded, since senders retry a 4xx. */
export interface IgnoredFact {
  kind: 'ignored';
  reason: string;
}

export type SourceFact = ContactFact | PurchaseFact | IgnoredFact;

export type AdapterResult =
  | { ok: true; fact: SourceFact; eventName: string; deliveryId: string | null }
  | { ok: false; error: string; eventName: string | null; deliveryId: string | null };

/** Verification of a delivery's signature against the integration's secret. */
export type VerifyResult = { ok: true } | { ok: false; reason: 'missing' | 'wrong' | 'stale'; message: string };

export interface SourceAdapter {
  id: SourceId;
  /**
   * Reads a delivery (parsed JSON body, headers) into a fact. Pure. Null for `generic`: the spec's formats are read
   * by each service's own parser, because the spec gives the two sides different rules and messages for them.
   */
  parse: ((body: unknown, headers: Headers) => AdapterResult) | null;
  /** The sender's own id of this delivery (the same on every retry), for replay protection; null when it has none. */
  deliveryId(body: unknown, headers: Headers): string | null;
  /** Checks the sender's signature over the raw body bytes. */
  verify(raw: Buffer, headers: Headers, secret: string, nowMs?: number): VerifyResult;
  /** Headers a sender would add to this raw body (for test deliveries and tests). */
  sign(raw: Buffer, secret: string, nowMs?: number): Record<string, string>;
  /** A realistic delivery of this sender ("Send test delivery"). */
  sample(opts: SampleOptions): { body: unknown; headers: Record<string, string> };
}

export interface SampleOptions {
  email: string;
  phone: string;
  firstName: string;
  funnelId: string | null;
  /** Unique per sample, so replays of one sample are recognised and two samples are not. */
  nonce: string;
}
