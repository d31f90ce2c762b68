import type { TwilioConfig } from '@act/contracts/src/sms-api';
import { applyCodeToRecoveryUrl, incentiveStep, stepKey, type Incentives } from '@act/service-kit';
import type { BurstContext, FlowStep } from '@act/flow';
import type { SequenceScheduler } from '../contacts/service';
import type { ContactSteps } from '../sequences/store';
import type { SmsWork } from '../sequences/work';
import { smsBody } from '../sequences/body';
import { variantIncentive } from '@act/contracts/src/experiments-api';

/** A shop that could not create a code just now: the step is due again after this. */
export const INCENTIVE_RETRY_MS = 5_000;

/**
 * The SMS step's incentive for each contact about to be texted: the message is written again with the code (and the
 * recovery link applying it where the shop does), the reason there is none kept for the send's log; a shop code not
 * created yet puts the step off (the grant keeps the code it will be created as), its lease given up.
 */
export function smsIncentiveStep(
  incentives: Incentives,
  deps: { store: ContactSteps; scheduler: SequenceScheduler; retryMs?: number },
): FlowStep<SmsWork, TwilioConfig> {
  const retrying = new Set<SmsWork>();
  const give = incentiveStep<SmsWork, BurstContext<TwilioConfig>>(
    incentives.giver,
    incentives.steps,
    // A variant with its own incentive (campaign experiments) gives it instead of the step's, the same way.
    (w) => {
      if (w.noLink) return null;
      const own = variantIncentive(w.variant?.incentive);
      return { contact_ref: w.c.id, step_key: stepKey('sms', w.tpl!.id), integration_id: w.c.integration_id ?? null, ...(own ? { incentive: own } : {}) };
    },
    (w, result) => {
      if (result.retry) {
        w.outcome = 'paced';
        retrying.add(w);
        return;
      }
      w.incentiveNote = result.note;
      if (!result.code) return;
      w.discountCode = result.code;
      w.codePlatform = result.platform ?? null;
      const link = w.link ? applyCodeToRecoveryUrl(w.link, result.code, result.platform) : null;
      w.message = smsBody(w.variant?.content ?? w.tpl!.message, w.c, link, result.code).message;
    },
  );
  return {
    name: 'incentive',
    async run(open, ctx) {
      await give.run(open, ctx);
      const later = open.filter((w) => retrying.delete(w));
      if (later.length === 0) return;
      const at = new Date(ctx.now.getTime() + (deps.retryMs ?? INCENTIVE_RETRY_MS));
      const changed = await deps.store.putOff(ctx, later.map((w) => ({ c: w.c, update: { $set: { next_at: at } } })));
      await Promise.all([...changed].map((id) => deps.scheduler.schedule(id, at).catch(() => undefined)));
    },
  };
}

/** The sent log's note on the code: which was given, or why none was. */
export function incentiveLogNote(w: Pick<SmsWork, 'discountCode' | 'incentiveNote'>): string | null {
  if (w.discountCode) return `Code ${w.discountCode}`;
  return w.incentiveNote ? w.incentiveNote.charAt(0).toUpperCase() + w.incentiveNote.slice(1) : null;
}
