import lognormal from '@stdlib/random-base-lognormal';
import mt19937 from '@stdlib/random-base-mt19937';
import { assignVariant } from './assignment';
import { incrementalRevenue, type GroupCounts } from './incremental';

// A simulated campaign with a known truth: every shopper is assigned by the real assignment (20% holdout), buys with
// the group's true conversion rate, and spends a lognormal amount (a long right tail, as order values have). The
// reported 95% interval of incremental revenue must cover the true incremental revenue, (true reminded revenue per
// contact − true holdout's) × reminded contacts, in about 95% of 200 seeded runs.
// EXPERIMENTS_COVERAGE_RUNS runs more (seeds 0 to n−1) to measure the coverage closer; `npm test` runs 200.
const RUNS = Number(process.env.EXPERIMENTS_COVERAGE_RUNS) || 200;
const SHOPPERS = 10_000;
const HOLDOUT_SHARE = 20;
const SIGMA = 1; // log-scale spread of order values: the top 5% of orders are over 5 times the median
const TRUTH = {
  holdout: { conversion: 0.03, meanOrder: 8000 },
  reminded: { conversion: 0.042, meanOrder: 7400 }, // more buyers, a slightly smaller basket (an incentive)
};
const trueRevenuePerContact = (g: { conversion: number; meanOrder: number }) => g.conversion * g.meanOrder;

function empty(): GroupCounts {
  return { recipients: 0, purchasers: 0, revenue: 0, revenueSquares: 0 };
}

function simulate(run: number) {
  const uniform = mt19937.factory({ seed: 1000 + run });
  const orders = {
    // The lognormal's mean is exp(mu + sigma²/2): mu chosen so the mean order is the true one.
    holdout: lognormal.factory(Math.log(TRUTH.holdout.meanOrder) - SIGMA ** 2 / 2, SIGMA, { seed: 5000 + run }),
    reminded: lognormal.factory(Math.log(TRUTH.reminded.meanOrder) - SIGMA ** 2 / 2, SIGMA, { seed: 9000 + run }),
  };
  const groups = { holdout: empty(), reminded: empty() };
  for (let i = 0; i < SHOPPERS; i += 1) {
    const a = assignVariant({ campaignId: `simulated-${run}`, step: 0, contactKey: `shopper-${i}`, variants: [], holdoutShare: HOLDOUT_SHARE });
    const side = a.kind === 'holdout' ? 'holdout' : 'reminded';
    const g = groups[side];
    g.recipients += 1;
    if (uniform() / 2 ** 32 < TRUTH[side].conversion) {
      const amount = Math.round(orders[side]());
      g.purchasers += 1;
      g.revenue += amount;
      g.revenueSquares += amount * amount;
    }
  }
  return groups;
}

describe(`incremental revenue over ${RUNS} simulated campaigns of 10,000 shoppers`, () => {
  it('covers the true incremental revenue with its 95% interval in 91-99% of runs', () => {
    let covered = 0;
    let truthBelow = 0; // the interval wholly above the truth
    let conversionCovered = 0;
    let widthSum = 0;
    const liftPerContact = trueRevenuePerContact(TRUTH.reminded) - trueRevenuePerContact(TRUTH.holdout);
    for (let run = 0; run < RUNS; run += 1) {
      const { reminded, holdout } = simulate(run);
      const result = incrementalRevenue(reminded, holdout);
      if (result.status !== 'ok') throw new Error(`run ${run} had too little data: ${JSON.stringify(result)}`);
      const truth = liftPerContact * reminded.recipients;
      const { lower, upper } = result.incrementalRevenue;
      if (lower <= truth && truth <= upper) covered += 1;
      else if (truth < lower) truthBelow += 1;
      const conversionTruth = TRUTH.reminded.conversion - TRUTH.holdout.conversion;
      if (result.conversionLift.lower <= conversionTruth && conversionTruth <= result.conversionLift.upper) conversionCovered += 1;
      widthSum += (upper - lower) / 2;
    }
    const coverage = covered / RUNS;
    // Printed for the record (the figure docs/revenue.md quotes).
    console.log(
      `coverage of incremental revenue: ${(100 * coverage).toFixed(1)}% (${covered}/${RUNS}; missed with the interval above the truth ${truthBelow}, below it ${RUNS - covered - truthBelow}); conversion lift: ${((100 * conversionCovered) / RUNS).toFixed(1)}%; ` +
        `true incremental revenue per run ≈ ${(liftPerContact * SHOPPERS * 0.8).toFixed(0)}, mean half-width ${(widthSum / RUNS).toFixed(0)} (minor units)`,
    );
    expect(coverage).toBeGreaterThanOrEqual(0.91);
    expect(coverage).toBeLessThanOrEqual(0.99);
    expect(conversionCovered / RUNS).toBeGreaterThanOrEqual(0.91);
    expect(conversionCovered / RUNS).toBeLessThanOrEqual(0.99);
  });
});
