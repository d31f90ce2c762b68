import { BadRequestError } from '../errors';
import {
  CODE_MESSAGE,
  CODE_PATTERN,
  INCENTIVE_KINDS,
  MAX_INCENTIVE_DAYS as MAX_DAYS,
  type Incentive,
  type ShopDiscount,
} from '@act/contracts/src/incentives-api';

export { CODE_MESSAGE, CODE_PATTERN, INCENTIVE_KINDS, type Incentive, type IncentiveKind, type ShopDiscount } from '@act/contracts/src/incentives-api';
export const NO_INCENTIVE: Incentive = { kind: 'none' };

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
