import { stepKey, incentiveStep, type Incentives } from '@act/service-kit';
import type { FlowStep } from '@act/flow';
import { variantIncentive } from '@act/contracts/src/experiments-api';
import type { EmailSettings, EmailWork } from '../live-sending/work';

/** A shop that could not create a code just now (5xx, throttled past a send's wait): the step is looked at again after this. */
export const INCENTIVE_RETRY_MS = 5_000;

/**
 * The campaign step's incentive for each contact about to be sent a template: the code goes to the composer (and the
 * recovery link, where the shop applies it), the reason there is none to the send's log; a shop code not created yet
 * puts the send off (the grant keeps the code it will be created as).
 */
export function emailIncentiveStep(incentives: Incentives, retryMs = INCENTIVE_RETRY_MS): FlowStep<EmailWork, EmailSettings> {
  const give = incentiveStep<EmailWork, { now: Date }>(
    incentives.giver,
    incentives.steps,
    // A variant with its own incentive (campaign experiments) gives it instead of the step's, the same way.
    (w) => {
      const own = variantIncentive(w.variant?.incentive);
      return { contact_ref: w.ref, step_key: stepKey('email', w.next!.id), integration_id: w.contact!.integration_id ?? null, ...(own ? { incentive: own } : {}) };
    },
    (w, result, ctx) => {
      if (result.retry) {
        w.outcome = 'waiting';
        w.release = { set: { due_at: new Date(ctx.now.getTime() + retryMs) } };
        return;
      }
      w.discountCode = result.code;
      w.codePlatform = result.platform ?? null;
      w.incentiveNote = result.note;
    },
  );
  return give;
}

/** What the send's log adds about the code: which one was given, or why none was. */
export function incentiveLogSuffix(w: Pick<EmailWork, 'discountCode' | 'incentiveNote'>): string {
  if (w.discountCode) return `; code ${w.discountCode}`;
  return w.incentiveNote ? `; ${w.incentiveNote}` : '';
}
