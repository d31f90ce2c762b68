import type { Collection, Document } from 'mongodb';
import { currencyDigits, majorToMinor } from '@act/contracts/src/cart';
import type { StepRedemptions } from '@act/contracts/src/incentives-api';
import type { Connection } from 'mongoose';
import { incentiveModels, type IncentiveModels } from './model';

export type { StepRedemptions } from '@act/contracts/src/incentives-api';

/** A code a purchase used, as its sender reports it (Shopify discount_codes, WooCommerce coupon_lines, Stripe). */
export interface UsedCode {
  code: string;
  /** The discount it gave, minor units (null when the sender does not say). */
  discount_minor: number | null;
}

export class IncentiveRedemptions {
  /** Over the service's `incentive_grants` (a service's webhook path has the database, not the models). */
  constructor(private readonly grants: Collection<Document>) {}

  static of(m: IncentiveModels): IncentiveRedemptions {
    return new IncentiveRedemptions(m.Grant.collection as unknown as Collection<Document>);
  }

  /** Beside another of the service's collections (a mongoose one: it knows its connection), in the same database. */
  static beside(collection: unknown): IncentiveRedemptions {
    const conn = (collection as { conn?: Connection }).conn;
    if (!conn) throw new Error('IncentiveRedemptions.beside needs a mongoose collection');
    return IncentiveRedemptions.of(incentiveModels(conn));
  }

  /** Marks what this contact was given and used in this purchase as redeemed; the number of codes marked. */
  async redeem(contactRef: number, used: UsedCode[], currency: string | null, orderRef: string | null, at = new Date(), orderMinor: number | null = null): Promise<number> {
    let marked = 0;
    for (const u of used) {
      const r = await this.grants.updateMany(
        { contact_ref: contactRef, code_key: u.code.trim().toUpperCase() },
        { $set: { redeemed_at: at, discount_minor: u.discount_minor, currency, order_ref: orderRef, order_minor: orderMinor } },
      );
      marked += r.modifiedCount;
    }
    return marked;
  }

  /**
   * The codes a purchase used, as its sender reports them (major units as sent), marked redeemed on what these
   * contacts were given, with the discount and the order's amount in the purchase currency's minor units. No codes:
   * nothing written.
   */
  async redeemPurchase(
    contactRefs: number[],
    purchase: {
      discountCodes?: { code: string; amount: string | number | null }[];
      currency: string | null;
      contactId: string | null;
      /** The order's amount in major units, as the sender gave it. */
      amount?: number | null;
    },
    at = new Date(),
  ): Promise<number> {
    const codes = purchase.discountCodes ?? [];
    if (codes.length === 0 || contactRefs.length === 0) return 0;
    const digits = (purchase.currency ? currencyDigits(purchase.currency) : null) ?? 2;
    const used = codes.map((c) => ({ code: c.code, discount_minor: c.amount === null ? null : majorToMinor(c.amount, digits) }));
    const orderMinor = purchase.amount === null || purchase.amount === undefined ? null : majorToMinor(purchase.amount, digits);
    let marked = 0;
    for (const ref of contactRefs) marked += await this.redeem(ref, used, purchase.currency, purchase.contactId, at, orderMinor);
    return marked;
  }

  /** Per step: codes given and redeemed, the discount given and the orders' revenue (the revenue screen's incentive columns). */
  async perStep(): Promise<StepRedemptions[]> {
    const rows = await this.grants
      .aggregate<{ _id: { step: string; currency: string | null }; given: number; redeemed: number; minor: number; revenue: number }>([
        { $match: { state: 'issued' } },
        {
          $group: {
            _id: { step: '$step_key', currency: '$currency' },
            given: { $sum: 1 },
            redeemed: { $sum: { $cond: [{ $ne: ['$redeemed_at', null] }, 1, 0] } },
            minor: { $sum: { $ifNull: ['$discount_minor', 0] } },
            revenue: { $sum: { $cond: [{ $ne: ['$redeemed_at', null] }, { $ifNull: ['$order_minor', 0] }, 0] } },
          },
        },
      ])
      .toArray();
    const bySteps = new Map<string, StepRedemptions>();
    for (const r of rows) {
      const s = bySteps.get(r._id.step) ?? { step_key: r._id.step, given: 0, redeemed: 0, discount: [], revenue: [] };
      s.given += r.given;
      s.redeemed += r.redeemed;
      if (r._id.currency && r.minor) s.discount.push({ currency: r._id.currency, minor: r.minor });
      if (r._id.currency && r.revenue) s.revenue.push({ currency: r._id.currency, minor: r.revenue });
      bySteps.set(r._id.step, s);
    }
    return [...bySteps.values()].sort((a, b) => a.step_key.localeCompare(b.step_key));
  }
}
