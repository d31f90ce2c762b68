import { step, type BurstContext, type FlowStep, type Work } from '../pipeline';
import type { TimingDecision, TimingRule } from './decision';

/** The outcome of a step a timing rule held back: its row is due again at `nextAt`. */
export const HELD = 'held';

export interface Held {
  until: Date;
  rule: TimingRule;
  /** The timeline's words. */
  reason: string;
}

/** A work a timing rule may hold: the channel's recorder writes `held` to the timeline and `nextAt` to the row. */
export interface TimedWork<Row> extends Work<Row> {
  held?: Held;
}

/**
 * A pipeline step from a timing rule: `decide` answers for the open works, in order (it may read what it needs for
 * the whole burst at once, such as the touches of every recipient); a work held is decided HELD, due again at the
 * hold's end, never dropped. Put it before the claim, so a held step claims nothing.
 */
export function timingStep<W extends TimedWork<unknown>, S = undefined>(
  name: string,
  decide: (open: W[], ctx: BurstContext<S>) => Promise<TimingDecision[]> | TimingDecision[],
): FlowStep<W, S> {
  return step<W, S>(name, async (open, ctx) => {
    const decisions = await decide(open, ctx);
    open.forEach((w, i) => {
      const d = decisions[i];
      if (!d || d.action === 'send') return;
      w.outcome = HELD;
      w.nextAt = d.until;
      w.held = { until: d.until, rule: d.rule, reason: d.reason };
    });
  });
}
