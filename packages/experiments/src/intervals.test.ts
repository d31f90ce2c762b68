import { meanInterval, newcombeInterval, StatsInputError, welchInterval, wilsonInterval, zFor, type Sums } from './intervals';

const sums = (xs: readonly number[]): Sums => ({ n: xs.length, sum: xs.reduce((s, x) => s + x, 0), sumSquares: xs.reduce((s, x) => s + x * x, 0) });

// The published figures are given to 4 decimals (R's to 7); a result must round to them.
const near = (got: number, want: number, decimals = 4) => expect(Math.abs(got - want)).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-12);

describe('wilsonInterval', () => {
  // Newcombe RG (1998). Two-sided confidence intervals for the single proportion: comparison of seven methods.
  // Statistics in Medicine 17:857-872, Table I, method 3 (score interval without continuity correction).
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i/%i gives Newcombe 1998 Table I: %f to %f', (k, n, lower, upper) => {
    const got = wilsonInterval(k, n);
    expect(got.estimate).toBe(k / n);
    near(got.lower, lower);
    near(got.upper, upper);
  });

  it('is [0, 1]-bounded, exact at the ends and narrower at a lower confidence', () => {
    expect(wilsonInterval(0, 10).lower).toBe(0);
    expect(wilsonInterval(10, 10).upper).toBe(1);
    const w95 = wilsonInterval(30, 1000);
    const w80 = wilsonInterval(30, 1000, 0.8);
    expect(w80.lower).toBeGreaterThan(w95.lower);
    expect(w80.upper).toBeLessThan(w95.upper);
    near(zFor(0.95), 1.959964, 6);
  });

  it('refuses counts that are not counts', () => {
    expect(() => wilsonInterval(1, 0)).toThrow(StatsInputError);
    expect(() => wilsonInterval(5, 4)).toThrow('cannot exceed trials');
    expect(() => wilsonInterval(1.5, 4)).toThrow('whole number');
    expect(() => wilsonInterval(1, 4, 1)).toThrow('confidence');
  });
});

describe('newcombeInterval', () => {
  // Newcombe RG (1998). Interval estimation for the difference between independent proportions: comparison of
  // eleven methods. Statistics in Medicine 17:873-890, Table II, method 10 (hybrid score without continuity
  // correction), examples (a), (b) and (d) to (h).
  it.each([
    [56, 70, 48, 80, 0.0524, 0.3339],
    [9, 10, 3, 10, 0.1705, 0.809],
    [5, 56, 0, 29, -0.0381, 0.1926],
    [0, 10, 0, 20, -0.1611, 0.2775],
    [0, 10, 0, 10, -0.2775, 0.2775],
    [10, 10, 0, 20, 0.6791, 1],
    [10, 10, 0, 10, 0.6075, 1],
  ])('%i/%i − %i/%i gives Newcombe 1998 Table II: %f to %f', (k1, n1, k2, n2, lower, upper) => {
    const got = newcombeInterval({ successes: k1, trials: n1 }, { successes: k2, trials: n2 });
    expect(got.estimate).toBeCloseTo(k1 / n1 - k2 / n2, 12);
    near(got.lower, lower);
    near(got.upper, upper);
  });

  it('turns round when the groups swap', () => {
    const ab = newcombeInterval({ successes: 12, trials: 400 }, { successes: 30, trials: 500 });
    const ba = newcombeInterval({ successes: 30, trials: 500 }, { successes: 12, trials: 400 });
    expect(ba.lower).toBeCloseTo(-ab.upper, 12);
    expect(ba.upper).toBeCloseTo(-ab.lower, 12);
  });
});

// Student (1908), the sleep data (Cushny & Peebles): extra hours of sleep under two drugs, 10 patients each, as
// shipped with R (`datasets::sleep`). R's documented `t.test` outputs are the published figures.
const SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
const SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];

describe('meanInterval', () => {
  it("gives R's t.test(sleep$extra[1:10]): mean 0.75, 95% CI -0.5297804 to 2.0297804", () => {
    const got = meanInterval(sums(SLEEP_1));
    expect(got.estimate).toBeCloseTo(0.75, 12);
    near(got.lower, -0.5297804, 7);
    near(got.upper, 2.0297804, 7);
  });

  it('clamps the lower limit at a floor and needs two contacts', () => {
    expect(meanInterval(sums(SLEEP_1), 0.95, 0).lower).toBe(0);
    expect(() => meanInterval(sums([1]))).toThrow('at least 2 contacts');
  });

  it('is exact for a sample with no spread', () => {
    expect(meanInterval(sums([5, 5, 5]))).toEqual({ estimate: 5, lower: 5, upper: 5 });
  });
});

describe('welchInterval', () => {
  it("gives R's t.test(extra ~ group, data = sleep): df 17.776, 95% CI -3.3654832 to 0.2054832", () => {
    const got = welchInterval(sums(SLEEP_1), sums(SLEEP_2));
    expect(got.estimate).toBeCloseTo(-1.58, 12);
    near(got.df, 17.776, 3);
    near(got.lower, -3.3654832, 7);
    near(got.upper, 0.2054832, 7);
  });

  it('is a point when neither group varies, and refuses a group of one', () => {
    expect(welchInterval(sums([2, 2]), sums([1, 1]))).toMatchObject({ estimate: 1, lower: 1, upper: 1 });
    expect(() => welchInterval(sums([1]), sums([1, 2]))).toThrow(StatsInputError);
    expect(() => welchInterval({ n: 3, sum: Number.NaN, sumSquares: 1 }, sums([1, 2]))).toThrow('finite');
  });
});
