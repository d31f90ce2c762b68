import { randomUUID } from 'node:crypto';
import type { AnyBulkWriteOperation, Collection, Filter, UpdateFilter } from 'mongodb';
import type { SequenceStepDoc } from './model';

/** What a step's lease ends with: the row's new fields, and one more accepted email when it sent. */
export interface StepRelease {
  ref: number;
  set: Partial<SequenceStepDoc>;
  sent?: boolean;
}

/**
 * The sequence rows' leases, many at a time: one read and one compare-and-set write take a burst of due steps, one
 * write gives them back. No transaction and no pipeline update (the MongoDB stand-in has neither); every filter is
 * exactly the keys of a unique index (model.ts), so the stand-in serves each row from an index, not a scan.
 */
export class StepStore {
  constructor(private readonly steps: Collection<SequenceStepDoc>) {}

  /** The rows of these contacts ($in on the unique contact_ref: an index lookup on the stand-in too). */
  read(refs: number[]): Promise<SequenceStepDoc[]> {
    if (refs.length === 0) return Promise.resolve([]);
    return this.steps.find({ contact_ref: { $in: refs } }, { projection: { _id: 0 } }).toArray();
  }

  /**
   * Takes the lease of each row still as read (waiting, same due_at and lease_id), moving due_at to `leaseUntil`:
   * another instance that read the same rows changes none of them. Returns the lease id and the rows taken (read back
   * only when some were not).
   */
  async take(rows: SequenceStepDoc[], leaseUntil: Date): Promise<{ leaseId: string; taken: SequenceStepDoc[] }> {
    const leaseId = randomUUID();
    if (rows.length === 0) return { leaseId, taken: [] };
    const ops: AnyBulkWriteOperation<SequenceStepDoc>[] = rows.map((r) => ({
      updateOne: {
        filter: { contact_ref: r.contact_ref, state: 'waiting', due_at: r.due_at, lease_id: r.lease_id } as Filter<SequenceStepDoc>,
        update: { $set: { due_at: leaseUntil, lease_id: leaseId } },
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
