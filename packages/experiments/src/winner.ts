import { createHash } from 'node:crypto';
import beta from '@stdlib/random-base-beta';
import studentT from '@stdlib/random-base-t';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import { checkGroup, type GroupCounts } from './incremental';
import { meanAndVariance, StatsInputError } from './intervals';

export interface VariantResults extends GroupCounts {
  id: string;
}

export interface WinnerOptions {
  /** Recipients every variant needs before a winner can be called (N). */
  minRecipients?: number;
  /** The posterior probability of being best that calls a winner. */
  probability?: number;
  /** Posterior draws per variant. */
  draws?: number;
}

export const DEFAULT_WINNER_OPTIONS: Required<WinnerOptions> = { minRecipients: 500, probability: 0.95, draws: 10_000 };
/** Past this many more recipients per variant the answer is "no clear difference at the current rates". */
export const MAX_PROJECTED_RECIPIENTS = 10_000_000;

export type WinnerDecision =
  | {
      status: 'winner';
      winner: string;
      /** Each variant's probability that its revenue per recipient is the highest. */
      probabilities: Record<string, number>;
      /** The figures the decision was made on, to keep beside it. */
      basedOn: VariantResults[];
    }
  | {
      status: 'collecting';
      /** The variant most likely best so far (null before any purchase). */
      leader: string | null;
      probabilities: Record<string, number> | null;
      /** Recipients each variant still lacks to reach the minimum (0 once reached). */
      belowMinimum: Record<string, number>;
      /**
       * At the current rates, how many more recipients each variant needs for the leader to reach the probability
       * (the minimum included); null when the rates show no difference to wait for (equal, or no purchase yet).
       */
      moreRecipients: Record<string, number> | null;
    };

/** A seed from the figures themselves, so every instance deciding on the same figures draws the same numbers. */
function seedFor(variants: readonly VariantResults[], options: Required<WinnerOptions>): number {
  const digest = createHash('sha256').update(JSON.stringify([variants, options])).digest();
  return digest.readUInt32BE(0) || 1;
}

interface OrderValue {
  mean: number;
  /** Standard error of the mean order value and its degrees of freedom (purchasers − 1). */
  se: number;
  df: number;
}

function orderValue(purchasers: number, revenue: number, revenueSquares: number): OrderValue {
  const { mean, variance } = meanAndVariance({ n: purchasers, sum: revenue, sumSquares: revenueSquares });
  return { mean, se: Math.sqrt(variance / purchasers), df: purchasers - 1 };
}

/**
 * Each variant's posterior probability that its revenue per recipient is the highest, by simulation with a seeded
 * generator. Revenue per recipient = conversion × revenue per purchaser, modelled apart because the amount is mostly
 * zeros: conversion ~ Beta(purchasers + 1, non-purchasers + 1) (exact for a yes/no outcome under a uniform prior);
 * revenue per purchaser ~ its mean + its standard error × Student's t(purchasers − 1) (the posterior of a mean under
 * the usual non-informative prior). A variant with fewer than two purchasers borrows the order values of all variants
 * together. Null when all variants together have fewer than two purchasers.
 */
export function probabilityBest(variants: readonly VariantResults[], draws: number, seed: number): Record<string, number> | null {
  const all = variants.reduce((s, v) => ({ k: s.k + v.purchasers, r: s.r + v.revenue, q: s.q + v.revenueSquares }), { k: 0, r: 0, q: 0 });
  if (all.k < 2) return null;
  const pooled = orderValue(all.k, all.r, all.q);
  // One generator per variant and quantity, each seeded from `seed`, with its parameters fixed (the fast path).
  const seedOf = (i: number) => (seed + i * 0x9e3779b9) % 4294967295 || 1;
  const samples = variants.map((v, j) => {
    const ov = v.purchasers >= 2 ? orderValue(v.purchasers, v.revenue, v.revenueSquares) : pooled;
    const drawConversion = beta.factory(v.purchasers + 1, v.recipients - v.purchasers + 1, { seed: seedOf(2 * j) });
    const drawT = studentT.factory(Math.max(1, ov.df), { seed: seedOf(2 * j + 1) });
    const out = new Float64Array(draws);
    for (let i = 0; i < draws; i += 1) {
      const perPurchaser = ov.se > 0 ? ov.mean + ov.se * drawT() : ov.mean;
      out[i] = drawConversion() * Math.max(0, perPurchaser);
    }
    return out;
  });
  const wins = new Array<number>(variants.length).fill(0);
  for (let i = 0; i < draws; i += 1) {
    let best = 0;
    for (let j = 1; j < variants.length; j += 1) if (samples[j][i] > samples[best][i]) best = j;
    wins[best] += 1;
  }
  return Object.fromEntries(variants.map((v, j) => [v.id, wins[j] / draws]));
}

/**
 * P(leader best) under normal approximations of every variant's revenue per recipient with `extra` more recipients
 * each at the current rates (the same mean and spread, a standard error shrinking with √n): ∫ φ_L Π Φ_j by Simpson's
 * rule over the leader's ±8 standard errors.
 */
function projectedProbability(means: number[], sds: number[], ns: number[], leader: number, extra: number): number {
  const se = sds.map((s, j) => s / Math.sqrt(ns[j] + extra));
  const steps = 400;
  const from = means[leader] - 8 * se[leader];
  const h = (16 * se[leader]) / steps;
  if (h === 0) return means.every((m, j) => j === leader || m < means[leader]) ? 1 : 0;
  let total = 0;
  for (let i = 0; i <= steps; i += 1) {
    const x = from + i * h;
    const z = (x - means[leader]) / se[leader];
    let f = Math.exp(-0.5 * z * z) / (se[leader] * Math.sqrt(2 * Math.PI));
    for (let j = 0; j < means.length; j += 1) if (j !== leader) f *= se[j] > 0 ? normalCdf(x, means[j], se[j]) : x > means[j] ? 1 : 0;
    total += f * (i === 0 || i === steps ? 1 : i % 2 ? 4 : 2);
  }
  return (total * h) / 3;
}

/** The fewest more recipients per variant at which the leader reaches `probability`, or null past the cap. */
function projectRecipients(variants: readonly VariantResults[], leader: number, probability: number): number | null {
  const stats = variants.map((v) => meanAndVariance({ n: v.recipients, sum: v.revenue, sumSquares: v.revenueSquares }));
  const means = stats.map((s) => s.mean);
  const sds = stats.map((s) => Math.sqrt(s.variance));
  const ns = variants.map((v) => v.recipients);
  const reaches = (extra: number) => projectedProbability(means, sds, ns, leader, extra) >= probability;
  if (reaches(0)) return 0;
  let high = 1;
  while (!reaches(high)) {
    if (high >= MAX_PROJECTED_RECIPIENTS) return null;
    high = Math.min(MAX_PROJECTED_RECIPIENTS, high * 2);
  }
  let low = Math.floor(high / 2);
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (reaches(mid)) high = mid;
    else low = mid;
  }
  return high;
}

function checkOptions(o: Required<WinnerOptions>): void {
  if (!Number.isInteger(o.minRecipients) || o.minRecipients < 2) throw new StatsInputError('minRecipients must be a whole number of at least 2');
  if (!(o.probability > 0.5 && o.probability < 1)) throw new StatsInputError('probability must be above 0.5 and below 1');
  if (!Number.isInteger(o.draws) || o.draws < 1000) throw new StatsInputError('draws must be a whole number of at least 1000');
}

/**
 * Whether one variant of a step has won: every variant past `minRecipients` recipients and one with a posterior
 * probability ≥ `probability` that its revenue per recipient is the highest (see `probabilityBest`). Until then it
 * says who leads and how many more recipients each variant needs at the current rates. Deterministic: the same
 * figures give the same answer on every instance.
 */
export function decideWinner(variants: readonly VariantResults[], options: WinnerOptions = {}): WinnerDecision {
  const o = { ...DEFAULT_WINNER_OPTIONS, ...options };
  checkOptions(o);
  if (variants.length < 2 || variants.length > 4) throw new StatsInputError(`a step has 2 to 4 variants, not ${variants.length}`);
  const ids = new Set(variants.map((v) => v.id));
  if (ids.size !== variants.length || variants.some((v) => typeof v.id !== 'string' || !v.id)) throw new StatsInputError('variant ids must be distinct non-empty strings');
  variants.forEach((v) => checkGroup(`variant "${v.id}"`, v));

  const probabilities = probabilityBest(variants, o.draws, seedFor(variants, o));
  const belowMinimum = Object.fromEntries(variants.map((v) => [v.id, Math.max(0, o.minRecipients - v.recipients)]));
  const ranked = probabilities ? [...variants].sort((a, b) => probabilities[b.id] - probabilities[a.id]) : [];
  const leader = ranked[0] ?? null;
  if (leader && probabilities && probabilities[leader.id] >= o.probability && Object.values(belowMinimum).every((n) => n === 0)) {
    return { status: 'winner', winner: leader.id, probabilities, basedOn: variants.map((v) => ({ ...v })) };
  }
  let moreRecipients: Record<string, number> | null = null;
  if (leader && variants.every((v) => v.recipients >= 2)) {
    const extra = projectRecipients(variants, variants.indexOf(leader), o.probability);
    if (extra !== null) moreRecipients = Object.fromEntries(variants.map((v) => [v.id, Math.max(belowMinimum[v.id], extra)]));
  }
  return { status: 'collecting', leader: leader?.id ?? null, probabilities, belowMinimum, moreRecipients };
}
