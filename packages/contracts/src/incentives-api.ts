/**
 * Incentives on reminder steps (email and SMS): what a step gives the shopper, the uploaded code pools, a shop's
 * credentials for creating codes, and the redemptions per step. Types and rules only: the browser bundles import it.
 */

/** A discount created in the shop: a percentage off or an amount off (in the shop's currency, major units). */
export interface ShopDiscount {
  discount: 'percentage' | 'amount';
  value: number;
  /** The code ends this many days after it is created. */
  days: number;
}

export interface NoIncentive {
  kind: 'none';
}
export interface FixedIncentive {
  kind: 'fixed';
  code: string;
}
export interface PoolIncentive {
  kind: 'pool';
  pool_id: string;
}
export interface ShopifyIncentive extends ShopDiscount {
  kind: 'shopify';
}
export interface WooCommerceIncentive extends ShopDiscount {
  kind: 'woocommerce';
}

/**
 * What a step (a campaign template, an SMS template, a variant) gives the shopper: nothing, one code for everyone,
 * one code per shopper from an uploaded pool, or one code per shopper created in the shop. Self-contained, so any
 * step-like thing can carry one.
 */
export type Incentive = NoIncentive | FixedIncentive | PoolIncentive | ShopifyIncentive | WooCommerceIncentive;

export type IncentiveKind = Incentive['kind'];
export const INCENTIVE_KINDS: readonly IncentiveKind[] = ['none', 'fixed', 'pool', 'shopify', 'woocommerce'];
export const INCENTIVE_KIND_LABELS: Record<IncentiveKind, string> = {
  none: 'No code',
  fixed: 'One code for everyone',
  pool: 'A unique code from a pool',
  shopify: 'A unique code created in Shopify',
  woocommerce: 'A unique coupon created in WooCommerce',
};

/** What shops accept as a code: letters, digits and - _ (Shopify and WooCommerce both), at most 64 characters. */
export const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const CODE_MESSAGE = 'A code is 1 to 64 letters, digits, - or _';
export const MAX_INCENTIVE_DAYS = 365;

/** Under this many codes left, a pool warns. */
export const LOW_POOL = 100;

/** A pool uploaded as CSV: the first column of each row is a code (a `code` header row is left out). */
export interface PoolUploadRequest {
  name: string;
  /** The CSV file's text. */
  csv: string;
}

export interface PoolSummary {
  id: string;
  name: string;
  total: number;
  remaining: number;
  /** Fewer than LOW_POOL codes left. */
  low: boolean;
  created_at: string;
}

/** A shop's admin credentials for creating codes (write-only: never given back). */
export interface ShopCredentialsRequest {
  platform: 'shopify' | 'woocommerce';
  /** Shopify: the shop's myshopify.com domain; WooCommerce: the store's https URL. */
  shop: string;
  /** Shopify: an Admin API access token (write_discounts); WooCommerce: a REST consumer key. */
  key: string;
  /** WooCommerce: the REST consumer secret. */
  secret?: string;
}

/** What staff see of a shop's credentials: never the token, key or secret. */
export interface ShopCredentialsStatus {
  platform: 'shopify' | 'woocommerce' | null;
  shop: string | null;
  has_key: boolean;
  has_secret: boolean;
}

/** A step's incentive figures: codes given, codes used in a purchase, and the discount those purchases got. */
export interface StepRedemptions {
  /** `email-template:<id>` or `sms-template:<id>`. */
  step_key: string;
  given: number;
  redeemed: number;
  /** Per currency, minor units. */
  discount: { currency: string; minor: number }[];
  /** The amounts of the orders that used the step's codes, per currency, minor units. */
  revenue: { currency: string; minor: number }[];
}
export type StepRedemptionsList = StepRedemptions[];
export type PoolSummaryList = PoolSummary[];

/** The warning under a pool's count. */
export function poolWarning(p: Pick<PoolSummary, 'remaining' | 'low'>): string | null {
  if (p.remaining === 0) return 'No codes left: the step is sent without a code';
  return p.low ? `Only ${p.remaining} codes left: upload more before the pool runs out` : null;
}
