import type { Collection } from 'mongodb';
import { experimentStep, underLease, type FlowStep } from '@act/flow';
import { ExperimentsService, experimentOf, type StoredCampaignExperiment } from '@act/service-kit';
import type { ExperimentVariant } from '@act/contracts/src/experiments-api';
import type { EmailTemplateDoc } from '../templates/model';
import type { NewEmailLog } from '../email-logs/service';
import type { SequenceStepDoc } from './model';
import type { EmailSettings, EmailWork } from './work';

/** The timeline's and the Email Logs' words for a contact of the control group. */
export const HELD_OUT_MESSAGE = 'held out (control group)';

/** The step's delay for the earliest of its variants: a contact is looked at then, and waits on if its variant is later. */
export function earliestDelayHours(next: EmailTemplateDoc, experiment: StoredCampaignExperiment | null | undefined): number {
  const delays = experiment?.steps.find((s) => s.template_id === next.id)?.variants.map((v) => v.delay ?? next.delay_hours) ?? [];
  return delays.length ? Math.min(...delays) : next.delay_hours;
}

/** The template as a variant sends it: its subject and content when it has them. */
export function variantTemplate(next: EmailTemplateDoc, v: Pick<ExperimentVariant, 'subject' | 'content'> | undefined): EmailTemplateDoc {
  if (!v) return next;
  return { ...next, subject: v.subject ?? next.subject, html_content: v.content ?? next.html_content };
}

/**
 * The email flow's assignment step (the shared one of @act/flow), after the template step and before the send rules
 * and the claim: the campaign's holdout and the step's variant, kept on the flow row (`experiment`). A held-out
 * contact gets no email: its flow stops with a `held_out` log (the ledger's holdout mark); a contact whose variant
 * has a later delay than the step's earliest waits for it; otherwise the variant's subject and content are sent.
 */
export function emailExperimentStep({ rows, hourMs }: { rows: Collection<SequenceStepDoc>; hourMs: number }): FlowStep<EmailWork, EmailSettings> {
  const variantOf = (w: EmailWork, id: string) => w.experiment?.steps.find((s) => s.template_id === w.next!.id)?.variants.find((v) => v.id === id);
  return experimentStep<EmailWork, EmailSettings>({
    target(w) {
      if (!w.next || !w.contact || w.row.campaign_id === null) return null;
      return {
        campaignId: `email:${w.row.campaign_id}`,
        campaign: w.row.campaign_id,
        step: w.next.id,
        contactKey: `${w.contact.integration_id ?? 0}:${w.contact.contact_id}`,
        stored: w.row.experiment,
      };
    },
    plan: (t, w) => ExperimentsService.planOf(w.experiment ? experimentOf(t.campaign, w.experiment) : null, t.step),
    async keep(items, ctx) {
      // Only on a row the burst still holds: a row whose lease ran out belongs to whoever took it next.
      await rows.bulkWrite(
        items.map(({ w, holdout, step, variant }) => {
          const stored = w.row.experiment ?? {};
          const experiment = {
            ...(holdout !== undefined ? { holdout } : stored.holdout !== undefined ? { holdout: stored.holdout } : {}),
            variants: { ...(stored.variants ?? {}), ...(variant !== undefined ? { [String(step)]: variant } : {}) },
          };
          w.row.experiment = experiment;
          return { updateOne: { filter: { contact_ref: w.ref, ...underLease(ctx) }, update: { $set: { experiment } } } };
        }),
        { ordered: false },
      );
    },
    holdOut(w, ctx) {
      const c = w.contact!;
      const log: NewEmailLog = {
        // One mark per contact and campaign: a retry writes none twice.
        key: `holdout:${w.row.campaign_id}:${c.id}`,
        contact_id: c.contact_id,
        contact_ref: c.id,
        email: c.email,
        message: HELD_OUT_MESSAGE,
        status: 'held_out',
        timestamp: ctx.now,
        touch: { integration_id: c.integration_id ?? null, campaign_id: w.row.campaign_id, template_id: w.next!.id, step: w.next!.template_order, holdout: true },
      };
      w.log = log;
      w.outcome = 'stopped';
      w.release = { set: { state: 'stopped', due_at: null, stop_reason: 'holdout' } };
    },
    apply(w, id, ctx) {
      const v = variantOf(w, id);
      const delay = v?.delay ?? w.next!.delay_hours;
      const due = new Date(w.row.base_at.getTime() + delay * hourMs);
      if (due.getTime() > ctx.now.getTime()) {
        w.outcome = 'waiting';
        w.release = { set: { due_at: due } };
        return;
      }
      w.variant = { id, incentive: v?.incentive ?? null };
      w.next = variantTemplate(w.next!, v);
    },
  });
}
