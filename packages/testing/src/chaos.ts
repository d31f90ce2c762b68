/**
 * Injected provider trouble for the fakes (bench:delivery): each call independently answers 429, 500 or nothing
 * at all, with given probabilities, from a seeded generator so that a run can be repeated call for call.
 * A timeout is a request left unanswered until the client gives up. Whether the provider took the request before
 * going silent cannot be known by the client; the fake decides per timeout (`timeoutAcceptedShare`), so both
 * cases happen and the client's once-only logic is tested against both.
 */
export interface ChaosOptions {
  /** Share of calls answered 429 although within the rate (a busy provider), 0..1. */
  rate429?: number;
  /** Share of calls answered 500. */
  rate500?: number;
  /** Share of calls never answered. */
  rateTimeout?: number;
  /** Of the unanswered calls, the share the provider took (and sent) before going silent. Default 0.5. */
  timeoutAcceptedShare?: number;
  /** Seed of the generator (same seed, same sequence of decisions). Default 1. */
  seed?: number;
  /**
   * Calls (1-based, in arrival order) given a fixed decision whatever the draw. A run of about a hundred calls
   * draws a 1% fault about once, or not at all: forcing one of each kind makes sure the client meets both.
   */
  forced?: Readonly<Record<number, ChaosDecision>>;
}

export type ChaosDecision = 'ok' | 429 | 500 | 'timeout-accepted' | 'timeout-dropped';

export interface ChaosCounts {
  ok: number;
  injected429: number;
  injected500: number;
  timeoutAccepted: number;
  timeoutDropped: number;
}

/** mulberry32: a small, fast, well-spread 32-bit generator; enough for fault injection, not for secrets. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Chaos {
  readonly counts: ChaosCounts = { ok: 0, injected429: 0, injected500: 0, timeoutAccepted: 0, timeoutDropped: 0 };
  private readonly random: () => number;
  private calls = 0;

  constructor(private readonly opts: ChaosOptions = {}) {
    this.random = seededRandom(opts.seed ?? 1);
  }

  /** One draw per call: what the fake does with it. */
  decide(): ChaosDecision {
    const { rate429 = 0, rate500 = 0, rateTimeout = 0, timeoutAcceptedShare = 0.5 } = this.opts;
    const x = this.random();
    const forced = this.opts.forced?.[++this.calls];
    // A forced call still takes its draw, so the calls after it get the decisions the seed gives them.
    if (forced !== undefined) return this.count(forced);
    if (x < rate429) return (this.counts.injected429++, 429);
    if (x < rate429 + rate500) return (this.counts.injected500++, 500);
    if (x < rate429 + rate500 + rateTimeout) {
      const accepted = this.random() < timeoutAcceptedShare;
      if (accepted) this.counts.timeoutAccepted++;
      else this.counts.timeoutDropped++;
      return accepted ? 'timeout-accepted' : 'timeout-dropped';
    }
    this.counts.ok++;
    return 'ok';
  }

  private count(decision: ChaosDecision): ChaosDecision {
    if (decision === 429) this.counts.injected429++;
    else if (decision === 500) this.counts.injected500++;
    else if (decision === 'timeout-accepted') this.counts.timeoutAccepted++;
    else if (decision === 'timeout-dropped') this.counts.timeoutDropped++;
    else this.counts.ok++;
    return decision;
  }
}

/**
 * Leaves a request unanswered: the client's own timeout ends it. The socket is closed after `holdMs` in case the
 * client has none, so a fake never keeps connections forever.
 */
export function neverAnswer(socket: { destroy(): void }, holdMs = 120_000): void {
  setTimeout(() => socket.destroy(), holdMs).unref();
}
