import { randomUUID } from 'node:crypto';
import type { AnyBulkWriteOperation, Collection, Filter, UpdateFilter } from 'mongodb';
import { underLease, type StepStore as FlowStepStore } from '@act/flow';
import type { SequenceStepDoc } from './model';

/** What a step's lease ends with: the row's new fields, and one more accepted email when it sent. */
export interface StepRelease {
  ref: number;
  set: Partial<SequenceStepDoc>;
  sent?: boolean;
  /** The reminder step is done: the row is on the campaign's steps (or ended). */
  reminded?: boolean;
}

/** A contact's flow as intake starts it: its reminder due at remind_at. */
export interface FlowStart {
  id: number;
  contact_id: string;
  integration_id: number | null;
  remind_at: Date;
}

/**
 * The flow rows as the flow runner's step store: the due ones found by an indexed range on due_at, leases taken
 * many at a time by one compare-and-set write, given back by one write. A lease needs no transaction: each row's
 * take is one conditional update of one document, atomic on any MongoDB. With `campaignSteps` off (live sending off: the kill switch) only reminders are
 * due; the campaign's steps wait where they are.
 */
export class StepStore implements FlowStepStore<SequenceStepDoc> {
  constructor(
    private readonly steps: Collection<SequenceStepDoc>,
    private readonly campaignSteps: boolean,
    /** How long a reminder's step holds its row: it calls no provider, so a crash mid-claim comes back soon. */
    private readonly reminderLeaseMs: number,
    /** The flows' clock (the runner's). */
    private readonly now: () => Date = () => new Date(),
  ) {}

  ref(row: SequenceStepDoc): number {
    return row.contact_ref;
  }

  /** Waiting rows due by now, oldest first: served by the (state, due_at) index, or (state, stage, due_at). */
  due(now: Date, limit: number): Promise<number[]> {
    return this.campaignSteps ? this.dueOf({ state: 'waiting' }, now, limit) : this.dueReminders(now, limit);
  }

  /** The reminders due by now, oldest first. */
  dueReminders(now: Date, limit: number): Promise<number[]> {
    return this.dueOf({ state: 'waiting', stage: 'remind' }, now, limit);
  }

  private async dueOf(filter: Filter<SequenceStepDoc>, now: Date, limit: number): Promise<number[]> {
    const rows = await this.steps
      .find({ ...filter, due_at: { $lte: now } }, { projection: { _id: 0, contact_ref: 1 } })
      .sort({ due_at: 1 })
      .limit(limit)
      .toArray();
    return rows.map((r) => r.contact_ref);
  }

  async readDue(refs: number[], now: Date): Promise<SequenceStepDoc[]> {
    const rows = await this.read(refs);
    return rows.filter(
      (r) => r.state === 'waiting' && r.due_at && r.due_at.getTime() <= now.getTime() && (this.campaignSteps || r.stage === 'remind'),
    );
  }

  /**
   * The flows of new contacts, their reminder due at remind_at: one upsert each on the unique contact_ref, so a
   * repeated write (intake retried, adoption) leaves a row as it is. Returns how many rows it wrote.
   */
  async start(items: FlowStart[], at = new Date()): Promise<number> {
    if (items.length === 0) return 0;
    const res = await this.steps.bulkWrite(
      items.map((c) => ({
        updateOne: {
          filter: { contact_ref: c.id },
          update: {
            $setOnInsert: {
              contact_ref: c.id,
              contact_id: c.contact_id,
              integration_id: c.integration_id,
              campaign_id: null,
              stage: 'remind' as const,
              last_order: 0,
              last_template_id: 0,
              base_at: c.remind_at,
              due_at: c.remind_at,
              lease_id: null,
              state: 'waiting' as const,
              sent: 0,
              stop_reason: null,
              created_at: at,
              updated_at: at,
            },
          },
          upsert: true,
        },
      })),
      { ordered: false },
    );
    return res.upsertedCount;
  }

  /** Which of these contacts have a row ($in on the unique contact_ref). */
  async existing(refs: number[]): Promise<Set<number>> {
    if (refs.length === 0) return new Set();
    const rows = await this.steps.find({ contact_ref: { $in: refs } }, { projection: { _id: 0, contact_ref: 1 } }).toArray();
    return new Set(rows.map((r) => r.contact_ref));
  }

  /** The flows of deleted contacts ($in on the unique contact_ref). */
  async remove(refs: number[]): Promise<void> {
    if (refs.length) await this.steps.deleteMany({ contact_ref: { $in: refs } });
  }

  async removeAll(): Promise<void> {
    await this.steps.deleteMany({});
  }

  /** The rows of these contacts ($in on the unique contact_ref). */
  read(refs: number[]): Promise<SequenceStepDoc[]> {
    if (refs.length === 0) return Promise.resolve([]);
    return this.steps.find({ contact_ref: { $in: refs } }, { projection: { _id: 0 } }).toArray();
  }

  /**
   * Takes the lease of each row still as read (waiting, same due_at and lease_id), moving due_at to `until`:
   * another instance that read the same rows changes none of them. Returns the lease id and the rows taken (read back
   * only when some were not).
   */
  async take(rows: SequenceStepDoc[], until: Date): Promise<{ leaseId: string; taken: SequenceStepDoc[] }> {
    const leaseId = randomUUID();
    if (rows.length === 0) return { leaseId, taken: [] };
    const reminderUntil = new Date(Math.min(until.getTime(), this.now().getTime() + this.reminderLeaseMs));
    const ops: AnyBulkWriteOperation<SequenceStepDoc>[] = rows.map((r) => ({
      updateOne: {
        filter: { contact_ref: r.contact_ref, state: 'waiting', due_at: r.due_at, lease_id: r.lease_id } as Filter<SequenceStepDoc>,
        update: { $set: { due_at: r.stage === 'remind' ? reminderUntil : until, lease_id: leaseId } },
      },
    }));
    const res = await this.steps.bulkWrite(ops, { ordered: false });
    if (res.modifiedCount === rows.length) return { leaseId, taken: rows };
    const mine = await this.steps
      .find({ contact_ref: { $in: rows.map((r) => r.contact_ref) } }, { projection: { _id: 0, contact_ref: 1, lease_id: 1 } })
      .toArray();
    const ours = new Set(mine.filter((m) => m.lease_id === leaseId).map((m) => m.contact_ref));
    return { leaseId, taken: rows.filter((r) => ours.has(r.contact_ref)) };
  }

  /** Writes each row's outcome and ends the lease, in one write; a row whose lease is no longer ours is left alone. */
  async release(leaseId: string, releases: StepRelease[], at = new Date()): Promise<void> {
    if (releases.length === 0) return;
    await this.steps.bulkWrite(
      releases.map(({ ref, set, sent, reminded }) => ({
        updateOne: {
          filter: { contact_ref: ref, ...underLease({ leaseId }) },
          update: {
            $set: { lease_id: null, updated_at: at, ...set },
            ...(reminded ? { $unset: { stage: '' } } : {}),
            ...(sent ? { $inc: { sent: 1 } } : {}),
          } as UpdateFilter<SequenceStepDoc>,
        },
      })),
      { ordered: false },
    );
  }
}
