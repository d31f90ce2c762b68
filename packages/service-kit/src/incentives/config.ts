import { BadRequestError } from '../errors';

/** A discount created in the shop: a percentage off or an amount off (in the shop's currency, major units). */
export interface ShopDiscount {
  discount: 'percentage' | 'amount';
  value: number;
  /** The code ends this many days after it is created. */
  days: number;
}

/**
 * What a step (a campaign template, an SMS template, a variant) gives the shopper: nothing, one code for everyone,
 * one code per shopper from an uploaded pool, or one code per shopper created in the shop. Self-contained, so any
 * step-like thing can carry one.
 */
export type Incentive =
  | { kind: 'none' }
  | { kind: 'fixed'; code: string }
  | { kind: 'pool'; pool_id: string }
  | ({ kind: 'shopify' } & ShopDiscount)
  | ({ kind: 'woocommerce' } & ShopDiscount);

export type IncentiveKind = Incentive['kind'];
export const INCENTIVE_KINDS: readonly IncentiveKind[] = ['none', 'fixed', 'pool', 'shopify', 'woocommerce'];
export const NO_INCENTIVE: Incentive = { kind: 'none' };

/** What shops accept as a code: letters, digits and - _ (Shopify and WooCommerce both), at most 64 characters. */
export const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const CODE_MESSAGE = 'A code is 1 to 64 letters, digits, - or _';
const MAX_DAYS = 365;

function shopDiscount(o: Record<string, unknown>): ShopDiscount {
  const discount = o.discount;
  if (discount !== 'percentage' && discount !== 'amount') throw new BadRequestError('Discount must be percentage or amount');
  const value = o.value;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new BadRequestError('Discount value must be a number above 0');
  if (discount === 'percentage' && value > 100) throw new BadRequestError('A percentage discount is at most 100');
  const days = o.days;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_DAYS)
    throw new BadRequestError(`Days must be a whole number from 1 to ${MAX_DAYS}`);
  return { discount, value, days };
}

/** A request's incentive, checked: a clear 400 for anything else. */
export function parseIncentive(input: unknown): Incentive {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new BadRequestError('Incentive must be an object');
  const o = input as Record<string, unknown>;
  switch (o.kind) {
    case 'none':
      return { kind: 'none' };
    case 'fixed': {
      const code = typeof o.code === 'string' ? o.code.trim() : '';
      if (!CODE_PATTERN.test(code)) throw new BadRequestError(CODE_MESSAGE);
      return { kind: 'fixed', code };
    }
    case 'pool': {
      if (typeof o.pool_id !== 'string' || !/^[0-9a-f]{24}$/.test(o.pool_id)) throw new BadRequestError('Choose a code pool');
      return { kind: 'pool', pool_id: o.pool_id };
    }
    case 'shopify':
    case 'woocommerce':
      return { kind: o.kind, ...shopDiscount(o) };
    default:
      throw new BadRequestError(`Incentive kind must be one of ${INCENTIVE_KINDS.join(', ')}`);
  }
}
