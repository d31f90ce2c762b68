import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import type { AnyBulkWriteOperation, Collection, Filter, UpdateFilter } from 'mongodb';
import type { StepStore } from '@act/flow';
import { contactModel, type ContactDoc } from '../contacts/model';
import { OPEN_STATUSES } from '../contacts/service';

export const isOpen = (status: string) => (OPEN_STATUSES as readonly string[]).includes(status);

/** A contact's step as a burst ends it: what its row becomes (with step + 1), and whether a message went out. */
export interface StepEnd {
  c: ContactDoc;
  set: Partial<ContactDoc>;
  sent?: boolean;
}

/**
 * The SMS flows' positions: the contacts themselves (step, next_at, status). A step is taken by a compare-and-set on
 * (id, step, next_at) as read, moving next_at to the lease's end; it is written back with step + 1 while next_at is
 * still that lease. A closed contact always has next_at null (purchase, STOP and every end of a sequence clear it).
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

  async take(rows: ContactDoc[], until: Date): Promise<{ leaseId: string; taken: ContactDoc[] }> {
    const { token, changed } = await this.casAll(rows.map((c) => ({ c, next_at: c.next_at!, update: { $set: { next_at: until } } })));
    return { leaseId: token, taken: rows.filter((c) => changed.has(c.id)) };
  }

  /** The fresh status and next_at of these contacts (right before sending: a purchase or STOP may have landed). */
  async fresh(refs: number[]): Promise<Map<number, Pick<ContactDoc, 'status' | 'next_at'>>> {
    const rows = await this.contacts
      .find({ id: { $in: refs } }, { projection: { _id: 0, id: 1, status: 1, next_at: 1 } })
      .toArray();
    return new Map(rows.map((f) => [f.id, f]));
  }

  /**
   * Compare-and-set on many contacts in one write: each row changes only while its step and next_at are still as
   * given. Returns the write's token and the ids that changed (read back only when some did not).
   */
  async casAll(
    items: { c: ContactDoc; next_at: Date; update: UpdateFilter<ContactDoc> }[],
  ): Promise<{ token: string; changed: Set<number> }> {
    const token = randomUUID();
    if (items.length === 0) return { token, changed: new Set() };
    const ops: AnyBulkWriteOperation<ContactDoc>[] = items.map(({ c, next_at, update }) => ({
      updateOne: {
        filter: { id: c.id, step: c.step, next_at } as Filter<ContactDoc>,
        update: { ...update, $set: { ...(update.$set ?? {}), lease_by: token } } as UpdateFilter<ContactDoc>,
      },
    }));
    const res = await this.contacts.bulkWrite(ops, { ordered: false });
    if (res.modifiedCount === items.length) return { token, changed: new Set(items.map((i) => i.c.id)) };
    // Some were taken by another attempt: ours carry this write's token.
    const rows = await this.contacts
      .find({ id: { $in: items.map((i) => i.c.id) } }, { projection: { _id: 0, id: 1, lease_by: 1 } })
      .toArray();
    return { token, changed: new Set(rows.filter((r) => r.lease_by === token).map((r) => r.id)) };
  }

  /**
   * Writes each step's end with step + 1, in one write, while next_at is still the lease: a purchase or STOP
   * meanwhile cleared it, and wins (then only the step, and the message, are recorded). Returns the ids stopped so.
   */
  async finishAll(ends: StepEnd[], lease: Date, at: Date): Promise<Set<number>> {
    if (ends.length === 0) return new Set();
    const ops: AnyBulkWriteOperation<ContactDoc>[] = ends.map(({ c, set, sent }) => ({
      updateOne: {
        filter: { id: c.id, step: c.step, next_at: lease } as Filter<ContactDoc>,
        update: {
          $set: { ...set, step: c.step + 1, updated_at: at },
          $unset: { lease_by: '' },
          ...(sent ? { $inc: { sent_count: 1 } } : {}),
        } as UpdateFilter<ContactDoc>,
      },
    }));
    const res = await this.contacts.bulkWrite(ops, { ordered: false });
    const stopped = new Set<number>();
    if (res.modifiedCount === ends.length) return stopped;
    const rows = await this.contacts
      .find({ id: { $in: ends.map((e) => e.c.id) } }, { projection: { _id: 0, id: 1, step: 1 } })
      .toArray();
    const stepOf = new Map(rows.map((r) => [r.id, r.step]));
    for (const e of ends) {
      if (stepOf.get(e.c.id) !== e.c.step) continue;
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
        ...(sent ? { $inc: { sent_count: 1 } } : {}),
      },
    );
    // A STOP during the first send marked it abandoned, yet the message went out.
    if (sent) await this.contacts.updateOne({ id: c.id, status: 'abandoned' }, { $set: { status: 'sent' } });
  }
}
