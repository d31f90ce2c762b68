import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import {
  ConflictError,
  NotFoundError,
  createIdAllocator,
  emailSuppressionKeys,
  erasedEmail,
  isDuplicateKeyError,
  isErasedEmail,
  inTransaction,
  type Outbox,
  type Tx,
} from '@act/service-kit';
import { Subjects, type UnsubscribeEvent } from '@act/contracts';
import type { UnsubscribeCheckResponse, UnsubscribeEntry, UnsubscribeResultStatus } from '@act/contracts/src/email-api';
import {
  normaliseEmail,
  toUnsubscribeEntry,
  unsubscribeModel,
  type UnsubscribeDoc,
  type UnsubscribeSource,
} from './model';

export const UNSUBSCRIBE_MESSAGES = {
  subscribed: 'This email address is subscribed.',
  already: 'This email address is already unsubscribed.',
  unsubscribed: 'You have been unsubscribed and will no longer receive these emails.',
  added: 'Email unsubscribed',
  addedAlready: 'Email is already on the unsubscribe list',
  removed: 'Email removed',
} as const;

/**
 * The unsubscribe list (svc-email owns it). Addresses are stored lower-cased under a unique index: every
 * comparison is case-insensitive and a race of two requests leaves one entry. Changes are published through
 * the outbox (`unsubscribe.email.added|removed`).
 */
/** Told of addresses put on (`listed`) or taken off the list, after the list's write (the contacts' flag follows it). */
export type UnsubscribeObserver = (emails: string[], listed: boolean) => Promise<void>;

export class UnsubscribeService {
  readonly coll: Collection<UnsubscribeDoc>;
  private readonly allocateId: () => Promise<number>;
  private readonly observers: UnsubscribeObserver[] = [];

  constructor(
    private readonly conn: Connection,
    private readonly outbox: Outbox,
  ) {
    this.coll = unsubscribeModel(conn).collection as unknown as Collection<UnsubscribeDoc>;
    this.allocateId = createIdAllocator(conn, 'email_unsubscribes', 20);
  }

  observe(fn: UnsubscribeObserver): void {
    this.observers.push(fn);
  }

  private async tell(emails: string[], listed: boolean): Promise<void> {
    for (const fn of this.observers) await fn(emails, listed);
  }

  /** Every address on the list in clear (an erased person's hash left out), in the order they were stored. */
  async *addresses(): AsyncIterable<string> {
    for await (const d of this.coll.find({}, { projection: { _id: 0, email: 1 } }).sort({ _id: 1 })) {
      if (!isErasedEmail(d.email)) yield d.email;
    }
  }

  /** On the list as written, or erased (the list then holds the address's salted hash, see docs/privacy.md). */
  async isUnsubscribed(email: string): Promise<boolean> {
    return (await this.unsubscribedAmong([email])).size > 0;
  }

  /** Of these addresses, the ones on the list (lower-cased), in clear or hashed. One query for a batch of reminders. */
  async unsubscribedAmong(emails: string[]): Promise<Set<string>> {
    const wanted = [...new Set(emails.map(normaliseEmail))];
    if (wanted.length === 0) return new Set();
    const keyOf = new Map<string, string>();
    for (const e of wanted) for (const k of emailSuppressionKeys(e)) keyOf.set(k, e);
    const docs = await this.coll
      .find({ email: { $in: [...keyOf.keys()] } }, { projection: { _id: 0, email: 1 } })
      .toArray();
    return new Set(docs.map((d) => keyOf.get(d.email)!));
  }

  /**
   * Erase: the hashed entry of each address, whether it was on the list or not (an erased person is never
   * emailed again). Returns how many were added (0 when all were there: an erase run twice adds nothing). Nothing is
   * published: the event would carry the address.
   */
  async addErased(emails: string[], requestId: number): Promise<number> {
    let added = 0;
    for (const email of emails) {
      const key = erasedEmail(email);
      if (!key || (await this.coll.countDocuments({ email: key }, { limit: 1 })) > 0) continue;
      try {
        await this.coll.insertOne({
          id: await this.allocateId(),
          email: key,
          unsubscribed_at: new Date(),
          reason: `Erased (privacy request ${requestId})`,
          source: 'erased',
        });
        added++;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
    return added;
  }

  /** GET /api/unsubscribe: only whether the address is on the list, nothing about when or why. */
  async check(email: string): Promise<UnsubscribeCheckResponse> {
    return (await this.isUnsubscribed(email))
      ? { status: 'already-unsubscribed', message: UNSUBSCRIBE_MESSAGES.already }
      : { status: 'subscribed', message: UNSUBSCRIBE_MESSAGES.subscribed };
  }

  /** Adds the address unless it is there already (idempotent); publishes only for a new entry. */
  async add(
    email: string,
    reason: string | null,
    source: UnsubscribeSource,
  ): Promise<{ status: UnsubscribeResultStatus; entry: UnsubscribeEntry }> {
    const address = normaliseEmail(email);
    const existing = await this.coll.findOne({ email: address }, { projection: { _id: 0 } });
    // Told again for an address already there: a retry after a failed first telling completes it.
    if (existing) {
      await this.tell([address], true);
      return { status: 'already-unsubscribed', entry: toUnsubscribeEntry(existing) };
    }
    const doc: UnsubscribeDoc = {
      id: await this.allocateId(),
      email: address,
      unsubscribed_at: new Date(),
      reason,
      source,
    };
    try {
      // The entry and its event land together (one transaction on a replica set).
      await inTransaction(this.conn, async (tx) => {
        await this.coll.insertOne({ ...doc }, { session: tx.session });
        await this.publish(Subjects.unsubscribeAdded, { email: address, reason }, tx);
      });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const winner = await this.coll.findOne({ email: address }, { projection: { _id: 0 } });
      if (!winner) throw err;
      await this.tell([address], true);
      return { status: 'already-unsubscribed', entry: toUnsubscribeEntry(winner) };
    }
    await this.tell([address], true);
    return { status: 'unsubscribed', entry: toUnsubscribeEntry(doc) };
  }

  async list(): Promise<UnsubscribeEntry[]> {
    const docs = await this.coll
      .find({}, { projection: { _id: 0 } })
      .sort({ unsubscribed_at: -1, id: -1 })
      .toArray();
    return docs.map(toUnsubscribeEntry);
  }

  async remove(id: number): Promise<UnsubscribeEntry> {
    // An erased person's entry is what keeps them from being emailed: it stays (docs/privacy.md). The removal and its
    // event land together (one transaction on a replica set).
    const doc = await inTransaction(this.conn, async (tx) => {
      const removed = await this.coll.findOneAndDelete({ id, source: { $ne: 'erased' } }, { projection: { _id: 0 }, session: tx.session });
      if (removed) await this.publish(Subjects.unsubscribeRemoved, { email: removed.email, reason: null }, tx);
      return removed;
    });
    if (!doc) {
      const kept = await this.coll.findOne({ id }, { projection: { _id: 0, email: 1 } });
      if (kept && isErasedEmail(kept.email))
        throw new ConflictError('This entry stands for an erased person and cannot be removed');
      throw new NotFoundError('Unsubscribe entry not found');
    }
    await this.tell([doc.email], false);
    return toUnsubscribeEntry(doc as UnsubscribeDoc);
  }

  private async publish(
    subject: string,
    body: Omit<UnsubscribeEvent, 'eventId' | 'source' | 'occurredAt'>,
    tx?: Tx,
  ): Promise<void> {
    await this.outbox.add(subject, { ...body }, undefined, tx);
  }
}
