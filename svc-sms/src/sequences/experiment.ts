import type { Collection } from 'mongodb';
import { experimentStep, pendingSteps, step, underLease, type FlowStep } from '@act/flow';
import { ExperimentsService, experimentOf, type StoredCampaignExperiment } from '@act/service-kit';
import type { ExperimentVariant } from '@act/contracts/src/experiments-api';
import type { TwilioConfig } from '@act/contracts/src/sms-api';
import type { ContactDoc } from '../contacts/model';
import type { SequenceScheduler } from '../contacts/service';
import type { TemplateDoc } from '../templates/model';
import type { StepLogs } from './step-logs';
import type { ContactSteps } from './store';
import type { SmsWork } from './work';

/** The timeline's and the SMS Logs' words for a contact of the control group. */
export const HELD_OUT_MESSAGE = 'held out (control group)';

/**
 * The campaign's templates with each step's delay the earliest of its variants': the step after a send is looked at
 * then, and a contact whose variant waits longer is put back to its own time (smsVariantDelayStep).
 */
export function withEarliestDelays(templates: TemplateDoc[], experiment: StoredCampaignExperiment | null | undefined): TemplateDoc[] {
  if (!experiment?.steps.length) return templates;
  return templates.map((t) => {
    const delays = experiment.steps.find((s) => s.template_id === t.id)?.variants.map((v) => v.delay ?? t.delay_minutes);
    return delays?.length ? { ...t, delay_minutes: Math.min(...delays) } : t;
  });
}

/**
 * The SMS flow's assignment step (the shared one of @act/flow) before the step's rules and claim: the campaign's
 * holdout and the step's variant, kept on the contact (`experiment`). A held-out contact gets no text: its sequence
 * ends with a `held_out` log row, which the ledger takes as the holdout's mark; a variant's text replaces the
 * template's message.
 */
export function smsExperimentStep({
  contacts,
  logs,
  now,
  delayUnitMs,
}: {
  contacts: Collection<ContactDoc>;
  logs: StepLogs;
  now: () => Date;
  delayUnitMs: number;
}): FlowStep<SmsWork, TwilioConfig> {
  const current = (w: SmsWork) => pendingSteps(w.templates ?? [], (t) => (w.claims ?? []).some((s) => s.template_id === t.id)).current;
  return experimentStep<SmsWork, TwilioConfig>({
    target(w) {
      const tpl = current(w);
      if (!w.campaign || !tpl) return null;
      return { campaignId: `sms:${w.campaign.id}`, campaign: w.campaign.id, step: tpl.id, contactKey: `${w.c.integration_id ?? 0}:${w.c.contact_id}`, stored: w.c.experiment };
    },
    plan: (t, w) => ExperimentsService.planOf(experimentOf(t.campaign, w.campaign?.experiment), t.step),
    async keep(items, ctx) {
      // Only on a contact the burst still holds (a purchase or STOP clears next_at meanwhile, and wins).
      await contacts.bulkWrite(
        items.map(({ w, holdout, step, variant }) => {
          const stored = w.c.experiment ?? {};
          const experiment = {
            ...(holdout !== undefined ? { holdout } : stored.holdout !== undefined ? { holdout: stored.holdout } : {}),
            variants: { ...(stored.variants ?? {}), ...(variant !== undefined ? { [String(step)]: variant } : {}) },
          };
          w.c.experiment = experiment;
          return { updateOne: { filter: { id: w.c.id, ...underLease(ctx), next_at: { $ne: null } }, update: { $set: { experiment } } } };
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
    apply(w, variant, ctx) {
      const tpl = current(w)!;
      const v = w.campaign?.experiment?.steps.find((s) => s.template_id === tpl.id)?.variants.find((x) => x.id === variant);
      // The variant's own delay, from the previous text (the first step: from the reminder time).
      if (v?.delay != null) {
        const base = w.c.step > 0 && w.c.last_sent_at ? w.c.last_sent_at : w.c.remind_at;
        const due = new Date(new Date(base).getTime() + v.delay * delayUnitMs);
        if (due.getTime() > ctx.now.getTime()) {
          w.variantDue = due;
          return;
        }
      }
      w.variant = { id: variant, ...(v ? pick(v) : {}) };
    },
  });
}

function pick(v: ExperimentVariant): Pick<ExperimentVariant, 'content' | 'incentive'> {
  return { content: v.content, incentive: v.incentive };
}

/**
 * A contact whose variant's delay is later than the step's earliest waits for it: its row is due again then (the
 * same step), the lease given up, nothing logged or claimed.
 */
export function smsVariantDelayStep({ store, scheduler }: { store: ContactSteps; scheduler: SequenceScheduler }): FlowStep<SmsWork, TwilioConfig> {
  return step('variant delay', async (open, ctx) => {
    const waiting = open.filter((w) => w.variantDue);
    if (waiting.length === 0) return;
    for (const w of waiting) w.outcome = 'variant_delay';
    const changed = await store.putOff(ctx, waiting.map((w) => ({ c: w.c, update: { $set: { next_at: w.variantDue! } } })));
    await Promise.all(waiting.filter((w) => changed.has(w.ref)).map((w) => scheduler.schedule(w.ref, w.variantDue!).catch(() => undefined)));
  });
}
