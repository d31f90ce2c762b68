import type { Held, Work } from '@act/flow';
import type { Incentive } from '@act/contracts/src/incentives-api';
import type { StoredCampaignExperiment } from '@act/service-kit';
import type { ContactDoc } from '../contacts/model';
import type { NewEmailLog } from '../email-logs/service';
import type { EmailTemplateDoc } from '../templates/model';
import type { SequenceStepDoc } from './model';
import type { StepRelease } from './step-store';

/**
 * What an email flow's steps pass along (the reminder, timing, experiment, incentive and campaign steps): its own file
 * so the steps read it without importing the pipeline that lists them.
 */
export type StepOutcome =
  'not_due' | 'busy' | 'reminded' | 'held' | 'waiting' | 'not_configured' | 'sent' | 'failed' | 'skipped' | 'finished' | 'stopped';

export type StepContact = Pick<ContactDoc, 'id' | 'contact_id' | 'email' | 'first_name' | 'status' | 'integration_id' | 'reminders_held' | 'test' | 'cart'>;

/** What the gate reads once per burst: the provider's sender address (null: Resend not configured). */
export interface EmailSettings {
  from: string | null;
}

/** One contact's due step as it goes through the pipeline. */
export interface EmailWork extends Work<SequenceStepDoc> {
  outcome?: StepOutcome;
  contact?: StepContact;
  templates?: EmailTemplateDoc[];
  next?: EmailTemplateDoc;
  recoveryUrl?: string | null;
  /** Our redirect link standing for the recovery link in this email (links/step.ts), when clicks are counted with it. */
  trackedUrl?: string;
  claimId?: string;
  /** The step's code for this shopper (incentives/step.ts), the shop it was made in, or why there is none. */
  discountCode?: string | null;
  codePlatform?: string | null;
  incentiveNote?: string | null;
  /** The campaign's experiment (holdout, step variants), and the contact's variant of this step (experiment.ts). */
  experiment?: StoredCampaignExperiment | null;
  variant?: { id: string; incentive: Incentive | null };
  /** Written to the row when the burst ends its lease. */
  release?: Omit<StepRelease, 'ref'>;
  log?: NewEmailLog;
  /**
   * What became of the flow itself (started again, or ended by an exit rule): written with the burst's logs, so the
   * contact's timeline says it and why.
   */
  flowLog?: NewEmailLog;
  /** A timing rule moved the step to `until` (timing.ts): nothing claimed, a 'held' log says why. */
  held?: Held;
  /** The reminder step claimed the contact and handed it on to its campaign's steps in this burst: when it was due. */
  remindedDueAt?: Date;
}
