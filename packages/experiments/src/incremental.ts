import { DEFAULT_CONFIDENCE, meanInterval, newcombeInterval, StatsInputError, welchInterval, wilsonInterval, type Interval, type Sums } from './intervals';

/**
 * What the ledger counts for one group (a variant, the holdout, or all reminded contacts of a campaign), in one
 * currency: contacts in the group, those with at least one purchase credited in the window, and the sum and sum of
 * squares of each contact's revenue (its purchases added up first; minor units).
 */
export interface GroupCounts {
  recipients: number;
  purchasers: number;
  revenue: number;
  revenueSquares: number;
  /** Contacts whose message was delivered / who clicked it, where the channel reports them. */
  delivered?: number;
  clicked?: number;
}

export interface MinimumSample {
  /** Contacts a group needs before its figures are shown. */
  recipients: number;
  /** Purchasers a group needs: below them the sample variance of revenue is too unsteady for an interval. */
  purchasers: number;
}

/** Why these numbers: see docs/revenue.md, "Variants and holdout"; the simulation test measures coverage at them. */
export const DEFAULT_MINIMUM: MinimumSample = { recipients: 100, purchasers: 10 };

export type Sufficiency =
  | { enough: true }
  /**
   * `moreRecipients`: how many more contacts the group needs, at its current conversion rate, to pass both minimums;
   * null while it has no purchaser yet (no rate to go by).
   */
  | { enough: false; moreRecipients: number | null };

export function checkGroup(name: string, g: GroupCounts): void {
  for (const key of ['recipients', 'purchasers'] as const) {
    if (!Number.isInteger(g[key]) || g[key] < 0) throw new StatsInputError(`${name}.${key} must be a whole number from 0`);
  }
  if (g.purchasers > g.recipients) throw new StatsInputError(`${name}.purchasers cannot exceed ${name}.recipients`);
  if (!Number.isFinite(g.revenue) || g.revenue < 0 || !Number.isFinite(g.revenueSquares) || g.revenueSquares < 0) {
    throw new StatsInputError(`${name}.revenue and ${name}.revenueSquares must be finite amounts from 0`);
  }
  for (const key of ['delivered', 'clicked'] as const) {
    const v = g[key];
    if (v !== undefined && (!Number.isInteger(v) || v < 0 || v > g.recipients)) throw new StatsInputError(`${name}.${key} must be a whole number from 0 to recipients`);
  }
}

export function revenueSums(g: GroupCounts): Sums {
  return { n: g.recipients, sum: g.revenue, sumSquares: g.revenueSquares };
}

/** Whether a group has enough data to show figures, and if not how many more contacts it needs at its current rate. */
export function sufficiency(g: GroupCounts, minimum: MinimumSample = DEFAULT_MINIMUM): Sufficiency {
  checkGroup('group', g);
  if (!Number.isInteger(minimum.recipients) || minimum.recipients < 2 || !Number.isInteger(minimum.purchasers) || minimum.purchasers < 2) {
    throw new StatsInputError('the minimum sample needs whole numbers of at least 2 recipients and 2 purchasers');
  }
  if (g.recipients >= minimum.recipients && g.purchasers >= minimum.purchasers) return { enough: true };
  if (g.purchasers === 0) return { enough: false, moreRecipients: null };
  const forPurchasers = Math.ceil((minimum.purchasers * g.recipients) / g.purchasers);
  return { enough: false, moreRecipients: Math.max(minimum.recipients, forPurchasers) - g.recipients };
}

export interface GroupFigures {
  recipients: number;
  purchasers: number;
  revenue: number;
  deliveryRate: Interval | null;
  clickRate: Interval | null;
  /** Purchasers ÷ recipients, Wilson. */
  conversionRate: Interval | null;
  /** Revenue ÷ recipients, t interval, never below 0. */
  revenuePerRecipient: Interval | null;
  sufficiency: Sufficiency;
}

/**
 * One group's figures with their intervals (rates over recipients). Below the minimum sample the intervals of
 * conversion and revenue are null and `sufficiency` says how many more contacts are needed: a number from a handful
 * of purchasers would look more certain than it is.
 */
export function groupFigures(g: GroupCounts, options: { confidence?: number; minimum?: MinimumSample } = {}): GroupFigures {
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  const enough = sufficiency(g, options.minimum);
  const rate = (k: number | undefined) => (k === undefined || g.recipients === 0 ? null : wilsonInterval(k, g.recipients, confidence));
  return {
    recipients: g.recipients,
    purchasers: g.purchasers,
    revenue: g.revenue,
    deliveryRate: rate(g.delivered),
    clickRate: rate(g.clicked),
    conversionRate: enough.enough ? rate(g.purchasers) : null,
    revenuePerRecipient: enough.enough ? meanInterval(revenueSums(g), confidence, 0) : null,
    sufficiency: enough,
  };
}

export type IncrementalRevenue =
  | {
      status: 'ok';
      /** Reminded conversion − holdout conversion (Newcombe). */
      conversionLift: Interval;
      /** Reminded revenue per contact − holdout's (Welch). */
      revenuePerContactLift: Interval;
      /** `revenuePerContactLift` × reminded contacts: the revenue the reminders added. */
      incrementalRevenue: Interval;
      remindedContacts: number;
    }
  | { status: 'not_enough_data'; reminded: Sufficiency; holdout: Sufficiency };

/**
 * The revenue the reminders added over doing nothing: (reminded revenue per contact − holdout's) × reminded contacts,
 * with Welch's interval for the difference scaled by the same count (the count is known, not estimated, so the
 * interval scales with it). Both groups must pass the minimum sample; otherwise each says how many more it needs.
 */
export function incrementalRevenue(
  reminded: GroupCounts,
  holdout: GroupCounts,
  options: { confidence?: number; minimum?: MinimumSample } = {},
): IncrementalRevenue {
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  checkGroup('reminded', reminded);
  checkGroup('holdout', holdout);
  const r = sufficiency(reminded, options.minimum);
  const h = sufficiency(holdout, options.minimum);
  if (!r.enough || !h.enough) return { status: 'not_enough_data', reminded: r, holdout: h };
  const lift = welchInterval(revenueSums(reminded), revenueSums(holdout), confidence);
  const n = reminded.recipients;
  return {
    status: 'ok',
    conversionLift: newcombeInterval({ successes: reminded.purchasers, trials: n }, { successes: holdout.purchasers, trials: holdout.recipients }, confidence),
    revenuePerContactLift: { estimate: lift.estimate, lower: lift.lower, upper: lift.upper },
    incrementalRevenue: { estimate: lift.estimate * n, lower: lift.lower * n, upper: lift.upper * n },
    remindedContacts: n,
  };
}
