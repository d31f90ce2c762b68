import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';

/** A point estimate and its two-sided confidence interval. */
export interface Interval {
  estimate: number;
  lower: number;
  upper: number;
}

/**
 * A per-contact amount summarised by its sufficient statistics, which the ledger can add up in one `$group`: how many
 * contacts, the sum of their amounts and the sum of their squares (each contact's amount is the total of its
 * purchases, zero for a contact who bought nothing).
 */
export interface Sums {
  n: number;
  sum: number;
  sumSquares: number;
}

export const DEFAULT_CONFIDENCE = 0.95;

export class StatsInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StatsInputError';
  }
}

function checkConfidence(confidence: number): void {
  if (!(confidence > 0 && confidence < 1)) throw new StatsInputError(`confidence must be between 0 and 1, not ${confidence}`);
}

function checkCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) throw new StatsInputError(`${name} must be a whole number from 0, not ${value}`);
}

function checkSums(name: string, s: Sums, minimum: number): void {
  checkCount(`${name}.n`, s.n);
  if (s.n < minimum) throw new StatsInputError(`${name} needs at least ${minimum} contacts, not ${s.n}`);
  if (!Number.isFinite(s.sum) || !Number.isFinite(s.sumSquares) || s.sumSquares < 0) {
    throw new StatsInputError(`${name}.sum and ${name}.sumSquares must be finite numbers, sumSquares from 0`);
  }
}

/** The two-sided standard normal quantile for `confidence` (1.959964 for 95%). */
export function zFor(confidence: number): number {
  checkConfidence(confidence);
  return normalQuantile(1 - (1 - confidence) / 2, 0, 1);
}

/**
 * Wilson's score interval for a proportion (Wilson 1927). Chosen over the textbook Wald interval p ± z·√(p(1−p)/n)
 * because that one collapses to [0, 0] at zero successes and covers far less than 95% at small counts and rates near
 * 0 (Brown, Cai & DasGupta 2001; Agresti & Coull 1998): exactly where a conversion rate of a few percent sits.
 */
export function wilsonInterval(successes: number, trials: number, confidence = DEFAULT_CONFIDENCE): Interval {
  checkCount('successes', successes);
  checkCount('trials', trials);
  if (trials === 0) throw new StatsInputError('a rate needs at least one trial');
  if (successes > trials) throw new StatsInputError(`successes (${successes}) cannot exceed trials (${trials})`);
  const z = zFor(confidence);
  const p = successes / trials;
  const z2n = (z * z) / trials;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / trials + z2n / (4 * trials));
  return {
    estimate: p,
    lower: successes === 0 ? 0 : Math.max(0, centre - half),
    upper: successes === trials ? 1 : Math.min(1, centre + half),
  };
}

/**
 * The difference p₁ − p₂ of two independent proportions with Newcombe's hybrid score interval (Newcombe 1998,
 * method 10): each side's distance from the Wilson limits of its own proportion, combined in quadrature. It keeps near
 * 95% coverage where the Wald difference does not (small counts, rates near 0) and needs no iteration.
 */
export function newcombeInterval(
  a: { successes: number; trials: number },
  b: { successes: number; trials: number },
  confidence = DEFAULT_CONFIDENCE,
): Interval {
  const wa = wilsonInterval(a.successes, a.trials, confidence);
  const wb = wilsonInterval(b.successes, b.trials, confidence);
  const d = wa.estimate - wb.estimate;
  return {
    estimate: d,
    lower: Math.max(-1, d - Math.hypot(wa.estimate - wa.lower, wb.upper - wb.estimate)),
    upper: Math.min(1, d + Math.hypot(wa.upper - wa.estimate, wb.estimate - wb.lower)),
  };
}

/** The sample mean and the unbiased sample variance from sums (zero when rounding makes it slightly negative). */
export function meanAndVariance(s: Sums): { mean: number; variance: number } {
  const mean = s.sum / s.n;
  const variance = s.n > 1 ? Math.max(0, (s.sumSquares - s.n * mean * mean) / (s.n - 1)) : 0;
  return { mean, variance };
}

/**
 * A mean with Student's t interval from the sample variance: x̄ ± t(n−1)·s/√n. For revenue per recipient (a mean of a
 * zero-inflated, right-skewed amount) this rests on the central limit theorem, which is why results are shown only
 * past a minimum sample (see `incremental.ts`); its coverage there is measured by the simulation test. A bootstrap
 * would need every contact's amount and thousands of resamples per page view; this needs three sums the ledger adds
 * up in one pass. `floor` clamps the lower limit (0 for amounts that cannot be negative).
 */
export function meanInterval(s: Sums, confidence = DEFAULT_CONFIDENCE, floor = -Infinity): Interval {
  checkConfidence(confidence);
  checkSums('sample', s, 2);
  const { mean, variance } = meanAndVariance(s);
  const half = tQuantile(1 - (1 - confidence) / 2, s.n - 1) * Math.sqrt(variance / s.n);
  return { estimate: mean, lower: Math.max(floor, mean - half), upper: mean + half };
}

/**
 * The difference of two means, x̄₁ − x̄₂, with Welch's interval: each group keeps its own variance (a reminded group's
 * revenue varies more than a holdout's) and the degrees of freedom come from the Welch–Satterthwaite equation.
 */
export function welchInterval(a: Sums, b: Sums, confidence = DEFAULT_CONFIDENCE): Interval & { df: number } {
  checkConfidence(confidence);
  checkSums('a', a, 2);
  checkSums('b', b, 2);
  const ma = meanAndVariance(a);
  const mb = meanAndVariance(b);
  const va = ma.variance / a.n;
  const vb = mb.variance / b.n;
  const d = ma.mean - mb.mean;
  const se2 = va + vb;
  if (se2 === 0) return { estimate: d, lower: d, upper: d, df: a.n + b.n - 2 };
  const df = (se2 * se2) / ((va * va) / (a.n - 1) + (vb * vb) / (b.n - 1));
  const half = tQuantile(1 - (1 - confidence) / 2, df) * Math.sqrt(se2);
  return { estimate: d, lower: d - half, upper: d + half, df };
}
