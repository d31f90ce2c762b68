import type { IncentiveGiver, IncentiveResult } from './giver';
import type { StepIncentives } from './steps';

/** Which (contact, step) a work is about to send; null: nothing to give (the work sends no step now). */
export interface IncentiveSubject {
  contact_ref: number;
  step_key: string;
  integration_id: number | null;
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
      const incentives = await steps.getMany(subjects.map((x) => x.s.step_key));
      const given = subjects.filter((x) => incentives.get(x.s.step_key)!.kind !== 'none');
      if (given.length === 0) return;
      const results = await giver.give(given.map((x) => ({ ...x.s, incentive: incentives.get(x.s.step_key)! })));
      given.forEach((x, i) => apply(x.w, results[i]!, ctx));
    },
  };
}
