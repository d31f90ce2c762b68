import type { Collection } from 'mongodb';
import { experimentStep, pendingSteps, type FlowStep } from '@act/flow';
import { ExperimentsService, experimentOf } from '@act/service-kit';
import type { ExperimentVariant } from '@act/contracts/src/experiments-api';
import type { TwilioConfig } from '@act/contracts/src/sms-api';
import type { ContactDoc } from '../contacts/model';
import type { StepLogs } from './step-logs';
import type { SmsWork } from './steps';

/** The timeline's and the SMS Logs' words for a contact of the control group. */
export const HELD_OUT_MESSAGE = 'held out (control group)';

/**
 * The SMS flow's assignment step (the shared one of @act/flow) before the step's rules and claim: the campaign's
 * holdout and the step's variant, kept on the contact (`experiment`). A held-out contact gets no text: its sequence
 * ends with a `held_out` log row, which the ledger takes as the holdout's mark; a variant's text replaces the
 * template's message.
 */
export function smsExperimentStep({ contacts, logs, now }: { contacts: Collection<ContactDoc>; logs: StepLogs; now: () => Date }): FlowStep<SmsWork, TwilioConfig> {
  const current = (w: SmsWork) => pendingSteps(w.templates ?? [], (t) => (w.claims ?? []).some((s) => s.template_id === t.id)).current;
  return experimentStep<SmsWork, TwilioConfig>({
    target(w) {
      const tpl = current(w);
      if (!w.campaign || !tpl) return null;
      return { campaignId: `sms:${w.campaign.id}`, campaign: w.campaign.id, step: tpl.id, contactKey: `${w.c.integration_id ?? 0}:${w.c.contact_id}`, stored: w.c.experiment };
    },
    plan: (t, w) => ExperimentsService.planOf(experimentOf(t.campaign, w.campaign?.experiment), t.step),
    async keep(items, ctx) {
      // The lease is ours (next_at is its end), so nobody else writes the row meanwhile.
      await contacts.bulkWrite(
        items.map(({ w, holdout, step, variant }) => {
          const stored = w.c.experiment ?? {};
          const experiment = {
            ...(holdout !== undefined ? { holdout } : stored.holdout !== undefined ? { holdout: stored.holdout } : {}),
            variants: { ...(stored.variants ?? {}), ...(variant !== undefined ? { [String(step)]: variant } : {}) },
          };
          w.c.experiment = experiment;
          return { updateOne: { filter: { id: w.c.id, next_at: ctx.leaseUntil }, update: { $set: { experiment } } } };
        }),
        { ordered: false },
      );
    },
    holdOut(w) {
      const tpl = current(w)!;
      w.tpl = tpl;
      w.outcome = 'held_out';
      w.log = logs.fields(w.c, tpl, HELD_OUT_MESSAGE, 'held_out', { timestamp: now(), updated_at: now() });
      w.set = { next_at: null, status: w.c.step === 0 && w.c.status === 'pending' ? 'abandoned' : w.c.status };
    },
    apply(w, variant) {
      const tpl = current(w)!;
      const v = w.campaign?.experiment?.steps.find((s) => s.template_id === tpl.id)?.variants.find((x) => x.id === variant);
      w.variant = { id: variant, ...(v ? pick(v) : {}) };
    },
  });
}

function pick(v: ExperimentVariant): { content: string | null; incentive: string | null } {
  return { content: v.content, incentive: v.incentive };
}
