import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import type { AnyBulkWriteOperation, Collection, Filter, UpdateFilter } from 'mongodb';
import { underLease, type BurstContext, type StepStore } from '@act/flow';
import { contactModel, type ContactDoc } from '../contacts/model';
import { OPEN_STATUSES } from '../contacts/service';

export const isOpen = (status: string) => (OPEN_STATUSES as readonly string[]).includes(status);

/** A burst's lease (its context's fields): its id, written on every contact it took, and its end, the next_at the take wrote. */
export type SmsLease = Pick<BurstContext<unknown>, 'leaseId' | 'leaseUntil'>;

/**
 * A contact the lease still holds: its lease id, and next_at still the lease's end. A purchase, STOP or erase clears
 * next_at meanwhile, and nothing else writes it while the lease id stays (a write under the lease that moves it also
 * writes its own id), so this asks what `next_at: { $ne: null }` would, with one value per field: MongoDB serves it
 * by the unique id index, the stand-in by an exact-key index of its own (model.ts).
 */
function held(id: number, lease: SmsLease): Filter<ContactDoc> {
  return { id, ...underLease(lease), next_at: lease.leaseUntil } as Filter<ContactDoc>;
}

/** A contact's step as a burst ends it: what its row becomes (with step + 1), and whether a message went out. */
export interface StepEnd {
  c: ContactDoc;
  set: Partial<ContactDoc>;
  sent?: boolean;
}

/**
 * The SMS flows' positions: the contacts themselves (step, next_at, status). A step is taken by a compare-and-set on
 * (id, step, next_at) as read, moving next_at to the lease's end and writing the lease's id (lease_id); every write
 * under the lease, and the step's end with step + 1, names that id. A purchase, a STOP or an erase clears next_at
 * (a closed contact always has it null), so a write under the lease also asks for next_at still the lease's end:
 * they win.
 */
export class ContactSteps implements StepStore<ContactDoc> {
  readonly contacts: Collection<ContactDoc>;

  constructor(conn: Connection) {
    this.contacts = contactModel(conn).collection as unknown as Collection<ContactDoc>;
  }

  ref(c: ContactDoc): number {
    return c.id;
  }

  /** Served by the `next_at` index: the range and the sort on it, the status tested on the rows it finds. */
  async due(now: Date, limit: number): Promise<number[]> {
    const rows = await this.contacts
      .find({ next_at: { $lte: now }, status: { $in: [...OPEN_STATUSES] } }, { projection: { _id: 0, id: 1 } })
      .sort({ next_at: 1 })
      .limit(limit)
      .toArray();
    return rows.map((r) => r.id);
  }

  async readDue(refs: number[], now: Date): Promise<ContactDoc[]> {
    const read = await this.contacts.find({ id: { $in: refs } }).toArray();
    return read.filter((c) => isOpen(c.status) && c.next_at && c.next_at.getTime() <= now.getTime());
  }

  /** Each contact still at the step and next_at read: next_at moved to `until`, the write's id its lease id. */
  async take(rows: ContactDoc[], until: Date): Promise<{ leaseId: string; taken: ContactDoc[] }> {
    const token = randomUUID();
    const changed = await this.writeAll(
      token,
      rows.map((c) => ({ c, filter: { id: c.id, step: c.step, next_at: c.next_at! }, update: { $set: { next_at: until } } })),
    );
    return { leaseId: token, taken: rows.filter((c) => changed.has(c.id)) };
  }

  /**
   * Gives up the lease of these contacts, each due again at its own time (the same step): only on a contact the
   * burst still holds. Returns the ids written.
   */
  async putOff(lease: SmsLease, items: { c: ContactDoc; update: UpdateFilter<ContactDoc> }[]): Promise<Set<number>> {
    // The write's own id replaces the lease's: the row is no longer held, and the read-back tells which it changed.
    return this.writeAll(
      randomUUID(),
      items.map(({ c, update }) => ({ c, filter: held(c.id, lease), update })),
    );
  }

  /** The fresh status, next_at and lease of these contacts (right before sending: a purchase or STOP may have landed). */
  async fresh(refs: number[]): Promise<Map<number, Pick<ContactDoc, 'status' | 'next_at' | 'lease_id'>>> {
    const rows = await this.contacts
      .find({ id: { $in: refs } }, { projection: { _id: 0, id: 1, status: 1, next_at: 1, lease_id: 1 } })
      .toArray();
    return new Map(rows.map((f) => [f.id, f]));
  }

  /**
   * Conditional updates of many contacts in one write, each writing `token` as its lease id. Returns the ids that
   * changed (read back by the token only when some did not).
   */
  private async writeAll(
    token: string,
    items: { c: ContactDoc; filter: Filter<ContactDoc>; update: UpdateFilter<ContactDoc> }[],
  ): Promise<Set<number>> {
    if (items.length === 0) return new Set();
    const ops: AnyBulkWriteOperation<ContactDoc>[] = items.map(({ filter, update }) => ({
      updateOne: { filter, update: { ...update, $set: { ...(update.$set ?? {}), lease_id: token } } as UpdateFilter<ContactDoc> },
    }));
    const res = await this.contacts.bulkWrite(ops, { ordered: false });
    if (res.modifiedCount === items.length) return new Set(items.map((i) => i.c.id));
    const rows = await this.contacts
      .find({ id: { $in: items.map((i) => i.c.id) } }, { projection: { _id: 0, id: 1, lease_id: 1 } })
      .toArray();
    return new Set(rows.filter((r) => r.lease_id === token).map((r) => r.id));
  }

  /**
   * Writes each step's end with step + 1, in one write, while the burst still holds the contact: a purchase or STOP
   * meanwhile cleared next_at, and wins (then only the step, and the message, are recorded); a contact whose lease
   * ran out and was taken by another attempt is left to it. Returns the ids stopped so.
   */
  async finishAll(ends: StepEnd[], lease: SmsLease, at: Date): Promise<Set<number>> {
    if (ends.length === 0) return new Set();
    const ops: AnyBulkWriteOperation<ContactDoc>[] = ends.map(({ c, set, sent }) => ({
      updateOne: {
        filter: { ...held(c.id, lease), step: c.step } as Filter<ContactDoc>,
        update: {
          $set: { ...set, step: c.step + 1, updated_at: at },
          $unset: { lease_id: '' },
          ...(sent ? { $inc: { sent_count: 1 } } : {}),
        } as UpdateFilter<ContactDoc>,
      },
    }));
    const res = await this.contacts.bulkWrite(ops, { ordered: false });
    const stopped = new Set<number>();
    if (res.modifiedCount === ends.length) return stopped;
    const rows = await this.contacts
      .find({ id: { $in: ends.map((e) => e.c.id) } }, { projection: { _id: 0, id: 1, step: 1, lease_id: 1, next_at: 1 } })
      .toArray();
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const e of ends) {
      const r = byId.get(e.c.id);
      // Still ours, at this step, with next_at cleared: stopped meanwhile.
      if (!r || r.step !== e.c.step || r.lease_id !== lease.leaseId || r.next_at != null) continue;
      stopped.add(e.c.id);
      await this.recordStopped(e.c, at, !!e.sent);
    }
    return stopped;
  }

  /** Stopped while we were sending: keep that status and next_at, only record the step (and the message). */
  private async recordStopped(c: ContactDoc, at: Date, sent: boolean): Promise<void> {
    await this.contacts.updateOne(
      { id: c.id, step: c.step },
      {
        $set: { step: c.step + 1, updated_at: at, ...(sent ? { last_sent_at: at } : {}) },
        $unset: { lease_id: '' },
        ...(sent ? { $inc: { sent_count: 1 } } : {}),
      },
    );
    // A STOP during the first send marked it abandoned, yet the message went out.
    if (sent) await this.contacts.updateOne({ id: c.id, status: 'abandoned' }, { $set: { status: 'sent' } });
  }
}
