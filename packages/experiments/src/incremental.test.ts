import { groupFigures, incrementalRevenue, sufficiency, type GroupCounts } from './incremental';
import { StatsInputError, welchInterval } from './intervals';

/** A group from each contact's revenue (0 for those who bought nothing). */
function group(amounts: readonly number[], extra: Partial<GroupCounts> = {}): GroupCounts {
  return {
    recipients: amounts.length,
    purchasers: amounts.filter((a) => a > 0).length,
    revenue: amounts.reduce((s, a) => s + a, 0),
    revenueSquares: amounts.reduce((s, a) => s + a * a, 0),
    ...extra,
  };
}
const buyers = (n: number, k: number, amount: (i: number) => number) => Array.from({ length: n }, (_, i) => (i < k ? amount(i) : 0));

describe('sufficiency', () => {
  it('asks for the missing recipients and purchasers at the current conversion rate', () => {
    expect(sufficiency(group(buyers(100, 10, () => 5000)))).toEqual({ enough: true });
    // 4 purchasers in 80 (5%): 10 purchasers need 200 recipients, 120 more.
    expect(sufficiency(group(buyers(80, 4, () => 5000)))).toEqual({ enough: false, moreRecipients: 120 });
    // Enough purchasers (12 of 60) but under 100 recipients: 40 more.
    expect(sufficiency(group(buyers(60, 12, () => 5000)))).toEqual({ enough: false, moreRecipients: 40 });
    // 3 of 1000: 10 purchasers need 3334 recipients.
    expect(sufficiency(group(buyers(1000, 3, () => 5000)))).toEqual({ enough: false, moreRecipients: 2334 });
    // No purchaser yet: no rate to go by.
    expect(sufficiency(group(buyers(500, 0, () => 0)))).toEqual({ enough: false, moreRecipients: null });
    expect(sufficiency(group(buyers(40, 2, () => 100)), { recipients: 20, purchasers: 2 })).toEqual({ enough: true });
  });
});

describe('groupFigures', () => {
  it('gives each rate with its Wilson interval and revenue per recipient never below 0', () => {
    const g = group(buyers(200, 12, (i) => (i === 0 ? 90_000 : 3000)), { delivered: 190, clicked: 30 });
    const f = groupFigures(g);
    expect(f.deliveryRate!.estimate).toBe(0.95);
    expect(f.clickRate!.estimate).toBe(0.15);
    expect(f.conversionRate!.estimate).toBe(0.06);
    expect(f.revenuePerRecipient!.estimate).toBe((90_000 + 11 * 3000) / 200);
    expect(f.revenuePerRecipient!.lower).toBeGreaterThanOrEqual(0);
    expect(f.conversionRate!.lower).toBeGreaterThan(0);
    expect(f.sufficiency).toEqual({ enough: true });
  });

  it('shows counts but no conversion or revenue interval below the minimum', () => {
    const f = groupFigures(group(buyers(50, 2, () => 4000), { clicked: 5 }));
    expect(f).toMatchObject({ recipients: 50, purchasers: 2, revenue: 8000, conversionRate: null, revenuePerRecipient: null, deliveryRate: null });
    expect(f.clickRate!.estimate).toBe(0.1);
    expect(f.sufficiency).toEqual({ enough: false, moreRecipients: 200 });
  });

  it('refuses impossible counts', () => {
    expect(() => groupFigures({ recipients: 5, purchasers: 6, revenue: 0, revenueSquares: 0 })).toThrow(StatsInputError);
    expect(() => groupFigures({ recipients: 5, purchasers: 1, revenue: -1, revenueSquares: 1 })).toThrow('finite amounts');
    expect(() => groupFigures({ recipients: 5, purchasers: 1, revenue: 1, revenueSquares: 1, clicked: 6 })).toThrow('clicked');
  });
});

describe('incrementalRevenue', () => {
  const reminded = group(buyers(4000, 200, (i) => 4000 + (i % 7) * 1500));
  const holdout = group(buyers(1000, 30, (i) => 4000 + (i % 5) * 1500));

  it('is the revenue-per-contact difference times reminded contacts, with the Welch interval scaled alike', () => {
    const got = incrementalRevenue(reminded, holdout);
    expect(got.status).toBe('ok');
    if (got.status !== 'ok') return;
    const perContact = reminded.revenue / 4000 - holdout.revenue / 1000;
    const welch = welchInterval(
      { n: 4000, sum: reminded.revenue, sumSquares: reminded.revenueSquares },
      { n: 1000, sum: holdout.revenue, sumSquares: holdout.revenueSquares },
    );
    expect(got.remindedContacts).toBe(4000);
    expect(got.revenuePerContactLift.estimate).toBeCloseTo(perContact, 9);
    expect(got.incrementalRevenue.estimate).toBeCloseTo(perContact * 4000, 6);
    expect(got.incrementalRevenue.lower).toBeCloseTo(welch.lower * 4000, 6);
    expect(got.incrementalRevenue.upper).toBeCloseTo(welch.upper * 4000, 6);
    expect(got.conversionLift.estimate).toBeCloseTo(0.05 - 0.03, 12);
    expect(got.conversionLift.lower).toBeLessThan(0.02);
    expect(got.conversionLift.upper).toBeGreaterThan(0.02);
  });

  it('says "not enough data" with what each group lacks, instead of a number', () => {
    const smallHoldout = group(buyers(150, 3, () => 5000));
    expect(incrementalRevenue(reminded, smallHoldout)).toEqual({
      status: 'not_enough_data',
      reminded: { enough: true },
      holdout: { enough: false, moreRecipients: 350 },
    });
    expect(incrementalRevenue(reminded, group([]))).toMatchObject({ status: 'not_enough_data', holdout: { enough: false, moreRecipients: null } });
  });
});
