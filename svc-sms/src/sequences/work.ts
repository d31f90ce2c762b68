import type { Held, Work } from '@act/flow';
import type { Incentive } from '@act/contracts/src/incentives-api';
import type { ContactDoc } from '../contacts/model';
import type { IntegrationDoc } from '../integrations/model';
import type { CampaignDoc } from '../campaigns/model';
import type { TemplateDoc } from '../templates/model';
import type { LogDoc } from '../logs/model';
import type { SendClaimDoc } from './model';

/** A contact sharing a burst contact's phone (the contact itself among them), as the exit rules read it. */
export type PhoneMate = Pick<ContactDoc, 'id' | 'phone' | 'contact_id' | 'integration_id' | 'status' | 'purchased_at' | 'created_at'>;

/**
 * What an SMS flow's steps pass along (the timing, experiment, incentive and sequence steps): its own file so the
 * steps read it without importing the pipeline that lists them.
 */
export type StepOutcome =
  | 'not_due'
  | 'busy'
  | 'not_configured'
  /** Over the sender's rate (TWILIO_MAX_MPS): moved to the sender's next free second, not sent now. */
  | 'paced'
  | 'sent'
  | 'failed'
  | 'skipped_duplicate'
  | 'blocked_toll_free'
  | 'skipped_no_link'
  /**
   * reminders_held on the contact, or a test delivery (its stored flag): the sequence ends, nothing sent; or, with
   * `held` on the work, a timing rule (quiet hours on the shopper's clock, the frequency cap) moved the step.
   */
  | 'held'
  /** The contact is in the campaign's holdout (control group): the sequence ends, nothing sent. */
  | 'held_out'
  /** The contact's variant of the step has a later delay: due again then, nothing sent. */
  | 'variant_delay'
  | 'stopped'
  | 'finished';

/** A (contact, template, step) claim as read back, with its _id (an interrupted one is deleted by it). */
export type Claim = SendClaimDoc & { _id: unknown };

/** One contact's due step as it goes through the pipeline. */
export interface SmsWork extends Work<ContactDoc> {
  outcome?: StepOutcome;
  c: ContactDoc;
  integration?: IntegrationDoc;
  campaign?: CampaignDoc;
  /** The step's variant for this contact (experiment.ts): its text replaces the template's message. */
  variant?: { id: string; content?: string | null; incentive?: Incentive | null };
  /** The variant's delay puts the step off until then (experiment.ts). */
  variantDue?: Date;
  templates?: TemplateDoc[];
  /** Claims of the contact's earlier (and, after a crash, current) steps. */
  claims?: Claim[];
  /** The contacts of the same phone, read once for the burst by the first exit rule that wants them (same-phone.ts). */
  samePhone?: PhoneMate[];
  tpl?: TemplateDoc;
  following?: TemplateDoc;
  message?: string;
  /** The link the message carries (before any code is applied to it). */
  link?: string | null;
  /** The step's code for this shopper (incentives/step.ts), or why there is none. */
  discountCode?: string | null;
  /** The shop the code was made in: a link applies it there (Shopify). */
  codePlatform?: string | null;
  incentiveNote?: string | null;
  /** The template needs a checkout link and neither the contact nor the integration has one. */
  noLink?: boolean;
  /** Why there is no link, when not simply none (the recovery link expired). */
  noLinkReason?: string;
  /** When the sender's pace lets this message leave. */
  slot?: Date;
  /** Written to the contact when the burst ends, with step + 1 (absent: nothing to write; the lease runs out). */
  set?: Partial<ContactDoc>;
  sent?: boolean;
  log?: Omit<LogDoc, 'id'>;
  /** What became of the sequence itself (started again, ended by an exit rule): a log row the timeline shows. */
  flowLog?: Omit<LogDoc, 'id'>;
  /** A timing rule moved the step to `until` (its row and a log row say so; nothing claimed). */
  held?: Held;
}
