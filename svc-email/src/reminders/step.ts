import type { Collection } from 'mongodb';
import type { SequenceStepDoc } from '../live-sending/model';
import { step, underLease, type BurstContext, type FlowStep } from '@act/flow';
import type { ContactDoc } from '../contacts/model';
import type { NewEmailLog } from '../email-logs/service';
import { normaliseEmail } from '../unsubscribe/model';
import type { EmailSettings, EmailWork, StepOutcome } from '../live-sending/work';
import { heldEntry, heldReason, reminderLogKey, unsubscribedMessage, wouldSendMessage, type ClaimedContact } from './sender';

/** A reminder claimed by this step and handled (logged, or its campaign started). */
export const REMINDED = 'reminded';
/** A claimed contact whose reminder is held (reminders_held, a test delivery): logged, never sent. */
const HELD = 'held';
/** No reminder: the contact purchased or is gone. */
const STOPPED = 'stopped';

export interface ReminderStepDeps {
  contacts: Collection<ContactDoc>;
  /** The flow rows: a contact going on with its campaign has its row moved to the campaign here. */
  rows: Collection<SequenceStepDoc>;
  /** Of these addresses, the ones on the unsubscribe list (normalised). */
  unsubscribedAmong(emails: string[]): Promise<Set<string>>;
  /** Contacts whose reminder was withheld for the unsubscribe list: they show `unsubscribed`. */
  markUnsubscribed(ids: number[]): Promise<void>;
  /**
   * The campaign this contact's flow goes on with (live sending on and its integration's campaign can send), else
   * null: the flow ends with the reminder. `memo` lives for one burst.
   */
  campaignFor?(c: ClaimedContact, memo: Map<number, boolean>): Promise<number | null>;
  /** Told of the contacts whose reminder this step handled (logged, or handed on to the campaign). */
  onReminded?(refs: number[]): void;
}

type Read = ClaimedContact & Pick<ContactDoc, 'status'>;
const CLAIMED = { _id: 0, id: 1, contact_id: 1, email: 1, integration_id: 1, reminders_held: 1, test: 1, status: 1 } as const;

/**
 * The first step of every email flow: the reminder. The contact is claimed pending → sent (conditional, so a
 * purchase and the claim never both win), and the reminder handed on: a held contact gets a log saying why, an
 * unsubscribed address a log saying so (and shows `unsubscribed`), a contact whose integration has a campaign that
 * can send goes on with its templates in the same burst, any other gets the spec's `would_send` log and its flow ends.
 * The row's lease makes this instance the only one working the contact; a contact already `sent` (or
 * `unsubscribed`) here was claimed by a step that died before its row was written, and is handled again: every
 * reminder log is keyed by contact, so a repeat writes none twice.
 */
export function reminderStep(deps: ReminderStepDeps): FlowStep<EmailWork, EmailSettings> {
  return step('remind', async (open: EmailWork[], ctx: BurstContext<EmailSettings>) => {
    const due = open.filter((w) => w.row.stage === 'remind');
    if (due.length === 0) return;
    await deps.contacts.bulkWrite(
      due.map((w) => ({
        updateOne: { filter: { id: w.ref, status: 'pending' as const }, update: { $set: { status: 'sent' as const, sent_at: ctx.now } } },
      })),
      { ordered: false },
    );
    const read = (await deps.contacts.find({ id: { $in: due.map((w) => w.ref) } }, { projection: CLAIMED }).toArray()) as unknown as Read[];
    const byId = new Map(read.map((c) => [c.id, c]));
    const end = (w: EmailWork, outcome: StepOutcome, state: 'finished' | 'stopped', reason: string | null, log?: NewEmailLog) => {
      w.outcome = outcome;
      w.release = { set: { state, due_at: null, stop_reason: reason }, reminded: true };
      if (log) w.log = log;
    };

    const claimed: { w: EmailWork; c: Read }[] = [];
    for (const w of due) {
      const c = byId.get(w.ref);
      if (!c) end(w, STOPPED, 'stopped', 'contact_deleted');
      else if (c.status === 'purchased') end(w, STOPPED, 'stopped', 'purchased');
      // Not moved by the claim (a write that failed for it): left to its lease, and tried again after it.
      else if (c.status === 'pending') w.outcome = 'busy';
      else if (heldReason(c)) end(w, HELD, 'stopped', 'reminders_held', heldEntry(c));
      else claimed.push({ w, c });
    }

    const unsubscribed = claimed.length ? await deps.unsubscribedAmong(claimed.map(({ c }) => c.email)) : new Set<string>();
    const suppressed: number[] = [];
    const memo = new Map<number, boolean>();
    const handOn: { w: EmailWork; campaignId: number }[] = [];
    for (const { w, c } of claimed) {
      const entry = (message: string, status: string): NewEmailLog => ({ key: reminderLogKey(c.id), contact_id: c.contact_id, contact_ref: c.id, email: c.email, message, status });
      if (c.status === 'unsubscribed' || unsubscribed.has(normaliseEmail(c.email))) {
        suppressed.push(c.id);
        end(w, REMINDED, 'stopped', 'unsubscribed', entry(unsubscribedMessage(c.email), 'unsubscribed'));
        continue;
      }
      const campaignId = deps.campaignFor ? await deps.campaignFor(c, memo) : null;
      if (campaignId === null) {
        end(w, REMINDED, 'finished', null, entry(wouldSendMessage(c.email), 'would_send'));
        continue;
      }
      handOn.push({ w, campaignId });
    }
    // Before the rows are written: a crash in between leaves the row at this step, which then writes the log.
    if (suppressed.length) await deps.markUnsubscribed(suppressed);
    const reminded = due.filter((w) => w.outcome === REMINDED).map((w) => w.ref);
    if (handOn.length === 0) {
      deps.onReminded?.(reminded);
      return;
    }
    // The campaign's first template (due delay_hours after the claim) is looked at in this same burst, by the steps
    // after this one: the claim is the campaign's first step, not a second schedule. The row is moved to the campaign
    // first, only while the burst still holds it, so a crash from here on resumes the campaign, never the reminder.
    const res = await deps.rows.bulkWrite(
      handOn.map(({ w, campaignId }) => ({
        // Its lease becomes the campaign steps' (the reminder's own is shorter): they send, and read it as theirs.
        updateOne: {
          filter: { contact_ref: w.ref, ...underLease(ctx) },
          update: { $set: { campaign_id: campaignId, base_at: ctx.now, due_at: ctx.leaseUntil }, $unset: { stage: '' } },
        },
      })),
      { ordered: false },
    );
    const lost = res.matchedCount < handOn.length ? await leaseLost(deps.rows, handOn.map(({ w }) => w.ref), ctx.leaseId) : new Set<number>();
    for (const { w, campaignId } of handOn) {
      // The reminder's lease ran out before its row was moved (a slow burst): whoever took the row next goes on.
      if (lost.has(w.ref)) {
        w.outcome = 'busy';
        continue;
      }
      w.remindedDueAt = w.row.base_at;
      w.row.campaign_id = campaignId;
      w.row.base_at = ctx.now;
      w.row.due_at = ctx.leaseUntil;
      delete w.row.stage;
      reminded.push(w.ref);
    }
    deps.onReminded?.(reminded);
  });
}

/** Of these rows, the ones no longer held by this lease. */
async function leaseLost(rows: Collection<SequenceStepDoc>, refs: number[], leaseId: string): Promise<Set<number>> {
  const read = await rows.find({ contact_ref: { $in: refs } }, { projection: { _id: 0, contact_ref: 1, lease_id: 1 } }).toArray();
  const held = new Set(read.filter((r) => r.lease_id === leaseId).map((r) => r.contact_ref));
  return new Set(refs.filter((ref) => !held.has(ref)));
}
