import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import { StatsInputError } from './intervals';
import { decideWinner, probabilityBest, type VariantResults } from './winner';

/** A variant whose `purchasers` spent `orderMean` on average with a standard deviation of `orderSd` (minor units). */
function variant(id: string, recipients: number, purchasers: number, orderMean = 8000, orderSd = 4000): VariantResults {
  return { id, recipients, purchasers, revenue: purchasers * orderMean, revenueSquares: purchasers * (orderMean ** 2 + orderSd ** 2) };
}

describe('decideWinner', () => {
  it('calls a clear winner past the minimum, with its probability and the figures it used', () => {
    const figures = [variant('one-hour', 1000, 60), variant('one-day', 1000, 30)];
    const got = decideWinner(figures);
    expect(got.status).toBe('winner');
    if (got.status !== 'winner') return;
    expect(got.winner).toBe('one-hour');
    expect(got.probabilities['one-hour']).toBeGreaterThanOrEqual(0.95);
    expect(got.probabilities['one-hour'] + got.probabilities['one-day']).toBeCloseTo(1, 12);
    expect(got.basedOn).toEqual(figures);
  });

  it('waits below N recipients per variant however clear the lead, and says how many more each needs', () => {
    const got = decideWinner([variant('a', 400, 40), variant('b', 700, 20)]);
    expect(got).toMatchObject({ status: 'collecting', leader: 'a', belowMinimum: { a: 100, b: 0 } });
    if (got.status !== 'collecting') return;
    expect(got.probabilities!.a).toBeGreaterThan(0.95);
    expect(got.moreRecipients).toEqual({ a: 100, b: 0 });
    // A smaller N lets the same figures decide.
    expect(decideWinner([variant('a', 400, 40), variant('b', 700, 20)], { minRecipients: 300 })).toMatchObject({ status: 'winner', winner: 'a' });
  });

  it('gives the same answer for the same figures (a seed from the figures), and another for other figures', () => {
    const figures = [variant('a', 900, 40), variant('b', 900, 33), variant('c', 900, 36)];
    const first = decideWinner(figures);
    expect(decideWinner(figures.map((v) => ({ ...v })))).toEqual(first);
    expect(decideWinner([...figures.slice(0, 2), variant('c', 901, 36)])).not.toEqual(first);
  });

  it('matches the normal approximation P(A > B) = Φ(d / se) on large samples', () => {
    // 20,000 recipients each: the Beta × t posterior is close to normal, so the simulated probability must agree with
    // the closed form to within its own sampling error (about 0.005 at 20,000 draws; 0.015 allowed).
    const a = variant('a', 20_000, 700, 8000, 5000);
    const b = variant('b', 20_000, 650, 8100, 5000);
    const rpr = (v: VariantResults) => {
      const mean = v.revenue / v.recipients;
      const variance = (v.revenueSquares - v.recipients * mean * mean) / (v.recipients - 1);
      return { mean, se2: variance / v.recipients };
    };
    const [ra, rb] = [rpr(a), rpr(b)];
    const closedForm = normalCdf((ra.mean - rb.mean) / Math.sqrt(ra.se2 + rb.se2), 0, 1);
    const simulated = probabilityBest([a, b], 20_000, 12345)!;
    expect(Math.abs(simulated.a - closedForm)).toBeLessThan(0.015);
    expect(closedForm).toBeGreaterThan(0.6);
    expect(closedForm).toBeLessThan(0.95);
  });

  it('projects recipients that would decide at the current rates: the same rates at that size do decide', () => {
    const figures = [variant('a', 600, 30), variant('b', 600, 22)];
    const got = decideWinner(figures);
    expect(got.status).toBe('collecting');
    if (got.status !== 'collecting') return;
    expect(got.leader).toBe('a');
    const more = got.moreRecipients!.a;
    expect(more).toBeGreaterThan(0);
    expect(got.moreRecipients!.b).toBe(more);
    // Scale both variants to that size at the same rates: the decision comes within a few percent of that size.
    const scaled = (n: number) => figures.map((v) => variant(v.id, n, Math.round((v.purchasers * n) / v.recipients)));
    expect(decideWinner(scaled(Math.round((600 + more) * 1.1)))).toMatchObject({ status: 'winner', winner: 'a' });
    expect(decideWinner(scaled(Math.round((600 + more) * 0.8))).status).toBe('collecting');
  });

  it('names no projection when the variants are equal, nor a leader before any purchase', () => {
    const equal = decideWinner([variant('a', 800, 30), variant('b', 800, 30)]);
    expect(equal).toMatchObject({ status: 'collecting', moreRecipients: null });
    if (equal.status === 'collecting') expect(Math.abs(equal.probabilities!.a - 0.5)).toBeLessThan(0.03);
    expect(decideWinner([variant('a', 100, 0), variant('b', 120, 0)])).toEqual({
      status: 'collecting',
      leader: null,
      probabilities: null,
      belowMinimum: { a: 400, b: 380 },
      moreRecipients: null,
    });
  });

  it('lets a variant with one purchase borrow the others\' order values, and finds it behind', () => {
    const got = decideWinner([variant('a', 1500, 1), variant('b', 1500, 40), variant('c', 1500, 38)]);
    expect(got.status).toBe('collecting');
    if (got.status === 'collecting') expect(got.probabilities!.a).toBeLessThan(0.01);
  });

  it.each<[string, VariantResults[], object]>([
    ['one variant', [variant('a', 10, 1)], {}],
    ['five variants', ['a', 'b', 'c', 'd', 'e'].map((id) => variant(id, 10, 1)), {}],
    ['repeated ids', [variant('a', 10, 1), variant('a', 10, 1)], {}],
    ['more purchasers than recipients', [variant('a', 10, 11), variant('b', 10, 1)], {}],
    ['a probability of 1', [variant('a', 10, 1), variant('b', 10, 1)], { probability: 1 }],
    ['too few draws', [variant('a', 10, 1), variant('b', 10, 1)], { draws: 10 }],
  ])('refuses %s', (_, variants, options) => {
    expect(() => decideWinner(variants, options)).toThrow(StatsInputError);
  });
});
