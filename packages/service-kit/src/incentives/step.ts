import type { Incentive } from './config';
import type { IncentiveGiver, IncentiveResult } from './giver';
import type { StepIncentives } from './steps';

/** Which (contact, step) a work is about to send; null: nothing to give (the work sends no step now). */
export interface IncentiveSubject {
  contact_ref: number;
  step_key: string;
  integration_id: number | null;
  /**
   * The incentive to give instead of the step's (a campaign experiment's variant): given the same way, under the
   * step's key (a contact has one variant of a step, so one grant).
   */
  incentive?: Incentive;
}

/**
 * The flow step that gives each work its step's incentive, for any channel: it reads the steps' incentives once for
 * the burst, gives the codes (IncentiveGiver), and hands each result to the channel (`apply`): the code for the
 * renderer, the note for the log, or a wait when the shop could not create the code yet. Shaped as @act/flow's
 * FlowStep.
 */
export function incentiveStep<W, C>(
  giver: IncentiveGiver,
  steps: StepIncentives,
  subjectOf: (w: W) => IncentiveSubject | null,
  apply: (w: W, result: IncentiveResult, ctx: C) => void,
): { name: string; run(open: W[], ctx: C): Promise<void> } {
  return {
    name: 'incentive',
    async run(open, ctx) {
      const subjects = open.map((w) => ({ w, s: subjectOf(w) })).filter((x): x is { w: W; s: IncentiveSubject } => x.s !== null);
      if (subjects.length === 0) return;
      const ownKeys = subjects.filter((x) => !x.s.incentive).map((x) => x.s.step_key);
      const incentives = ownKeys.length ? await steps.getMany(ownKeys) : new Map<string, Incentive>();
      const incentiveOf = (s: IncentiveSubject) => s.incentive ?? incentives.get(s.step_key)!;
      const given = subjects.filter((x) => incentiveOf(x.s).kind !== 'none');
      if (given.length === 0) return;
      const results = await giver.give(given.map((x) => ({ ...x.s, incentive: incentiveOf(x.s) })));
      given.forEach((x, i) => apply(x.w, results[i]!, ctx));
    },
  };
}
