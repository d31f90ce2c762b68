import { randomUUID } from 'node:crypto';
import type { AnyBulkWriteOperation, Collection, Filter, UpdateFilter } from 'mongodb';
import type { StepStore as FlowStepStore } from '@act/flow';
import type { SequenceStepDoc } from './model';

/** What a step's lease ends with: the row's new fields, and one more accepted email when it sent. */
export interface StepRelease {
  ref: number;
  set: Partial<SequenceStepDoc>;
  sent?: boolean;
}

/**
 * The sequence rows as the flow runner's step store: the due ones found by an indexed range on due_at, leases taken
 * many at a time by one compare-and-set write, given back by one write. No transaction and no pipeline update (the
 * MongoDB stand-in has neither).
 */
export class StepStore implements FlowStepStore<SequenceStepDoc> {
  constructor(private readonly steps: Collection<SequenceStepDoc>) {}

  ref(row: SequenceStepDoc): number {
    return row.contact_ref;
  }

  /** Waiting rows due by now, oldest first: served by the (state, due_at) index. */
  async due(now: Date, limit: number): Promise<number[]> {
    const rows = await this.steps
      .find({ state: 'waiting', due_at: { $lte: now } }, { projection: { _id: 0, contact_ref: 1 } })
      .sort({ due_at: 1 })
      .limit(limit)
      .toArray();
    return rows.map((r) => r.contact_ref);
  }

  async readDue(refs: number[], now: Date): Promise<SequenceStepDoc[]> {
    const rows = await this.read(refs);
    return rows.filter((r) => r.state === 'waiting' && r.due_at && r.due_at.getTime() <= now.getTime());
  }

  /** The rows of these contacts ($in on the unique contact_ref: an index lookup on the stand-in too). */
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
    const ops: AnyBulkWriteOperation<SequenceStepDoc>[] = rows.map((r) => ({
      updateOne: {
        filter: { contact_ref: r.contact_ref, state: 'waiting', due_at: r.due_at, lease_id: r.lease_id } as Filter<SequenceStepDoc>,
        update: { $set: { due_at: until, lease_id: leaseId } },
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
      releases.map(({ ref, set, sent }) => ({
        updateOne: {
          filter: { contact_ref: ref, lease_id: leaseId },
          update: {
            $set: { lease_id: null, updated_at: at, ...set },
            ...(sent ? { $inc: { sent: 1 } } : {}),
          } as UpdateFilter<SequenceStepDoc>,
        },
      })),
      { ordered: false },
    );
  }
}
