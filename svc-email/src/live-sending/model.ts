import mongoose, { type Connection } from 'mongoose';
import type { StoredExperiment } from '@act/flow';
import { standInIndex } from '@act/service-kit';

export type SequenceState = 'waiting' | 'finished' | 'stopped';

/**
 * A contact's email flow: one row per contact, written with the contact at intake, holding where it is and when its
 * next step is due. Its first step is the reminder (`stage: 'remind'`, due at remind_at); an integration with a
 * sending campaign goes on with the campaign's templates, any other contact's flow ends with the reminder. Every
 * instance scans `{ state: 'waiting', due_at <= now }`; a step is taken by a compare-and-set that moves due_at
 * to a lease and writes a lease id, so one instance works a contact at a time and a crashed one's step comes
 * back after the lease.
 */
export interface SequenceStepDoc {
  /** Numeric contact id (unique: one sequence per contact). */
  contact_ref: number;
  contact_id: string;
  integration_id: number | null;
  /** Chosen when the reminder is claimed (null before, and for a flow that ends with the reminder). */
  campaign_id: number | null;
  /** 'remind' until the reminder step is done; absent on the campaign's steps. */
  stage?: 'remind';
  /** Position: template_order and id of the last template handled (0, 0 before the first). */
  last_order: number;
  last_template_id: number;
  /** When the previous step went out (the reminder's claim for the first template): the next one is delay_hours after it. */
  base_at: Date;
  /**
   * The sender's time of the cart the last template showed (null: it showed none; absent on rows written before
   * it was kept): a cart changed after it is a change the shopper has not seen.
   */
  cart_at?: Date | null;
  /** When to look at this contact next (a lease while a step is being worked); null once finished or stopped. */
  due_at: Date | null;
  lease_id: string | null;
  state: SequenceState;
  /** Emails accepted by the provider so far. */
  sent: number;
  /** purchased, unsubscribed, contact_deleted, campaign_unavailable, reminders_held, higher_priority_campaign. */
  stop_reason: string | null;
  created_at: Date;
  updated_at: Date;
  /** The campaign's holdout and the variant per step, drawn once (experiment.ts) and never again. */
  experiment?: StoredExperiment | null;
}

const stepSchema = new mongoose.Schema<SequenceStepDoc>(
  {
    contact_ref: { type: Number, required: true },
    contact_id: { type: String, required: true },
    integration_id: { type: Number, default: null },
    campaign_id: { type: Number, default: null },
    stage: { type: String },
    last_order: { type: Number, required: true },
    last_template_id: { type: Number, required: true },
    base_at: { type: Date, required: true },
    cart_at: { type: Date, default: undefined },
    due_at: { type: Date, default: null },
    lease_id: { type: String, default: null },
    state: { type: String, required: true },
    sent: { type: Number, default: 0 },
    stop_reason: { type: String, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    experiment: { type: mongoose.Schema.Types.Mixed, default: undefined },
  },
  { versionKey: false, collection: 'email_sequence_steps' },
);
stepSchema.index({ contact_ref: 1 }, { unique: true });
// The due scan: equality on state, then due_at (its range and its sort).
stepSchema.index({ state: 1, due_at: 1 });
// The reminders alone (live sending off, and "Process Missed Emails"): state and stage, then due_at.
stepSchema.index({ state: 1, stage: 1, due_at: 1 });
// On the MongoDB stand-in only (MONGO_STANDIN_INDEXES): the keys of the step's two compare-and-sets, taking it
// { contact_ref, state, due_at, lease_id } and writing under its lease { contact_ref, lease_id }. MongoDB serves both
// by the unique contact_ref index; the stand-in scanned every row for each of the two writes per step (measured in
// docs/production.md: about ten times the time per burst at 10,000 rows, and bench:reminders' p99 out of reach).
standInIndex(stepSchema, { contact_ref: 1, state: 1, due_at: 1, lease_id: 1 }, 'standin_flow_take');
standInIndex(stepSchema, { contact_ref: 1, lease_id: 1 }, 'standin_flow_lease');
/** Their names now, and as MongoDB named them before the switch: production drops them (SequenceEngine.init). */
export const STANDIN_STEP_INDEXES = [
  'standin_flow_take',
  'standin_flow_lease',
  'contact_ref_1_state_1_due_at_1_lease_id_1',
  'contact_ref_1_lease_id_1',
] as const;

export function sequenceStepModel(conn: Connection) {
  return (
    (conn.models.EmailSequenceStep as mongoose.Model<SequenceStepDoc>) ??
    conn.model<SequenceStepDoc>('EmailSequenceStep', stepSchema)
  );
}

/**
 * One row per (contact, template), inserted before the provider is called: the unique index makes a second
 * send of the same template to the same contact impossible, whatever the scheduler or the instances do.
 */
export interface SendClaimDoc {
  contact_ref: number;
  template_id: number;
  claimed_at: Date;
  /** claimed (provider call in flight, or the instance died during it), sent, failed. */
  status: 'claimed' | 'sent' | 'failed';
  message_id: string | null;
  error: string | null;
}

const claimSchema = new mongoose.Schema<SendClaimDoc>(
  {
    contact_ref: { type: Number, required: true },
    template_id: { type: Number, required: true },
    claimed_at: { type: Date, required: true },
    status: { type: String, required: true },
    message_id: { type: String, default: null },
    error: { type: String, default: null },
  },
  { versionKey: false, collection: 'email_send_claims' },
);
claimSchema.index({ contact_ref: 1, template_id: 1 }, { unique: true });

export function sendClaimModel(conn: Connection) {
  return (
    (conn.models.EmailSendClaim as mongoose.Model<SendClaimDoc>) ??
    conn.model<SendClaimDoc>('EmailSendClaim', claimSchema)
  );
}
