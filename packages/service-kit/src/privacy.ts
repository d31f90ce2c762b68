import type { Connection } from 'mongoose';
import type { AnyBulkWriteOperation, Document } from 'mongodb';
import {
  PRIVACY_COMPLETED,
  PRIVACY_EXPORT_LIMIT,
  PRIVACY_REQUESTED,
  type PrivacyCompleted,
  type PrivacyRequested,
  type PrivacyService,
  type PrivacySubject,
} from '@act/contracts/src/privacy';
import { consume } from './consumer';
import { isErasedEmail, isErasedPhone } from './privacy-hash';
import { escapeRegex } from './list';
import type { Bus } from './nats';
import type { Outbox } from './outbox';
import { inTransaction, type Tx } from './transactions';
import type { Logger } from './logger';

/** One kind of record a service holds about people: where it lives and how to find one person's. */
export interface PersonalData {
  kind: string;
  collection: string;
  /**
   * The filter for this person, or null when there is nothing to look for here (no phone, say). `found`: the kinds
   * collected before this one (rows keyed by a contact's id follow the contacts).
   */
  filter: (subject: PrivacySubject, found: Record<string, Document[]>) => Document | null;
  /**
   * How one found record is erased: a plain update ($set / $unset, values computed here in Node from the found
   * record), several such updates (one field cannot take two operators in one update), 'delete',
   * or null (nothing to change). Absent: nothing of this kind is erased. `found`: every kind found for the person.
   */
  erase?: (doc: Document, person: ErasePerson, found: Record<string, Document[]>) => Document | Document[] | 'delete' | null;
  /**
   * For records whose `_id` holds the person's names (it cannot be updated): the record to put in its place. The new
   * one is inserted before the old one is deleted, so a crash between the two leaves both and a redelivery finishes.
   */
  replace?: (doc: Document, person: ErasePerson) => Document | null;
}

/** Who is being erased: the request's address and number, and those on the contacts found for them. */
export interface ErasePerson {
  requestId: number;
  emails: string[];
  phones: string[];
}

/**
 * The person's addresses and numbers: the request's, and every one on the contacts found (an erase asked by address
 * also covers the number the same contact gave, and the other way round). Erased forms are left out.
 */
export function personOf(subject: PrivacySubject, found: Record<string, Document[]>, requestId = 0): ErasePerson {
  const emails = new Set<string>();
  const phones = new Set<string>();
  if (subject.email) emails.add(subject.email.trim().toLowerCase());
  if (subject.phone) phones.add(subject.phone.trim());
  for (const c of found.contacts ?? []) {
    if (typeof c.email === 'string' && c.email.trim() && !isErasedEmail(c.email)) emails.add(c.email.trim().toLowerCase());
    if (typeof c.phone === 'string' && c.phone.trim() && !isErasedPhone(c.phone)) phones.add(c.phone.trim());
  }
  return { requestId, emails: [...emails], phones: [...phones] };
}

/** Raw bodies (`field`) that mention any of the person's addresses or numbers. */
export function mentioning(field: string, { emails, phones }: { emails: string[]; phones: string[] }): Document | null {
  const digits = phones.map(phoneDigitsPattern).filter((d): d is string => d !== null);
  const or = [...emails.map((e) => textMentioning(field, e)), ...digits.map((d) => ({ [field]: { $regex: d } }))];
  return or.length ? { $or: or } : null;
}

/** `$or` of the filters for each value, or null when there is none. */
export function anyOf(values: string[], one: (v: string) => Document | null): Document | null {
  const or = values.map(one).filter((f): f is Document => f !== null);
  return or.length ? { $or: or } : null;
}

/** A case-insensitive match of the address anywhere in a text field (raw webhook bodies). */
export function textMentioning(field: string, text: string): Document {
  return { [field]: { $regex: escapeRegex(text), $options: 'i' } };
}

/** The number's last ten digits in order, whatever separators a sender wrote between them ("(415) 555-0123"). */
export function phoneDigitsPattern(phone: string): string | null {
  const digits = phone.replace(/\D/g, '').slice(-10);
  return digits.length >= 7 ? digits.split('').join('\\D{0,3}') : null;
}

/** Everything `holdings` names about one person, as stored (without MongoDB's `_id`), at most the export limit each. */
export async function collectPerson(conn: Connection, holdings: PersonalData[], subject: PrivacySubject) {
  const records: Record<string, Document[]> = {};
  const counts: Record<string, number> = {};
  const truncated: string[] = [];
  for (const h of holdings) {
    const filter = h.filter(subject, records);
    if (!filter) continue;
    const docs = await conn.db!.collection(h.collection).find(filter, { projection: { _id: 0 } }).limit(PRIVACY_EXPORT_LIMIT + 1).toArray();
    if (docs.length > PRIVACY_EXPORT_LIMIT) truncated.push(h.kind);
    records[h.kind] = docs.slice(0, PRIVACY_EXPORT_LIMIT);
    counts[h.kind] = records[h.kind]!.length;
  }
  return { records, counts, truncated };
}

/** Erase batches: a bulk write of this many updates at most. */
const ERASE_BATCH = 500;

/**
 * Erases one person: every record `holdings` finds is anonymised in place or removed, and `suppress` first puts the
 * person on the service's suppression list in hashed form (so a crash half-way still leaves them unreachable).
 * Safe to run again, and after a crash at any point: what is already erased is no longer found (a second run counts
 * 0), and the kinds are erased in reverse order, so the records found through the contacts (logs, steps) go before
 * the contacts that lead to them. Given a transaction (`tx`, on a replica set), the records are read and erased in
 * it, so the erase lands across collections at once; see docs/privacy.md.
 */
export async function erasePerson(
  conn: Connection,
  holdings: PersonalData[],
  subject: PrivacySubject,
  requestId: number,
  suppress: (person: ErasePerson) => Promise<number>,
  tx?: Tx,
): Promise<{ counts: Record<string, number>; erased: Record<string, Document[]>; person: ErasePerson }> {
  const session = tx?.session;
  const found: Record<string, Document[]> = {};
  for (const h of holdings) {
    const filter = h.filter(subject, found);
    found[h.kind] = filter ? await conn.db!.collection(h.collection).find(filter, { session }).toArray() : [];
  }
  const person = personOf(subject, found, requestId);
  const counts: Record<string, number> = { suppression_entries: await suppress(person) };
  for (const h of [...holdings].reverse()) {
    const docs = found[h.kind] ?? [];
    const coll = conn.db!.collection(h.collection);
    let n = 0;
    if (h.replace) {
      for (const doc of docs) {
        const next = h.replace(doc, person);
        if (!next) continue;
        if (next._id === doc._id) {
          await coll.replaceOne({ _id: doc._id }, next, { session });
        } else {
          // An upsert, not an insert that may meet a duplicate key: a write error would abort a transaction.
          await coll.replaceOne({ _id: next._id }, next, { upsert: true, session });
          await coll.deleteOne({ _id: doc._id }, { session });
        }
        n++;
      }
    } else if (h.erase) {
      const ops: AnyBulkWriteOperation[] = [];
      for (const doc of docs) {
        const op = h.erase(doc, person, found);
        if (op === 'delete') ops.push({ deleteOne: { filter: { _id: doc._id } } });
        else if (op) for (const update of [op].flat()) ops.push({ updateOne: { filter: { _id: doc._id }, update } });
      }
      for (let i = 0; i < ops.length; i += ERASE_BATCH) {
        const r = await coll.bulkWrite(ops.slice(i, i + ERASE_BATCH), { ordered: false, session });
        n += r.modifiedCount + r.deletedCount;
      }
    } else continue;
    counts[h.kind] = n;
  }
  return { counts, erased: found, person };
}

/**
 * Answers the privacy requests svc-auth publishes: a durable consumer, so a service that was down when the request was
 * made answers when it is back; the answer goes out through the outbox. A request handled twice answers the same.
 */
export function startPrivacyResponder({
  conn,
  bus,
  outbox,
  logger,
  service,
  holdings,
  suppress,
  onErased,
}: {
  conn: Connection;
  bus: Bus;
  outbox: Outbox;
  logger: Logger;
  service: PrivacyService;
  holdings: PersonalData[];
  /** Puts the person on the service's suppression list in hashed form; returns the entries added (0 when there). */
  suppress: (person: ErasePerson) => Promise<number>;
  /** Told what was erased (an in-memory copy of the contacts list, say, must forget it). */
  onErased?: (erased: Record<string, Document[]>) => Promise<void>;
}) {
  return consume({
    conn,
    bus,
    durable: `${service}-privacy`,
    subjects: [PRIVACY_REQUESTED],
    logger,
    concurrency: 4,
    handler: async ({ payload }) => {
      const req = payload as unknown as PrivacyRequested;
      const subject = { email: req.email ?? null, phone: req.phone ?? null };
      let answer: PrivacyCompleted;
      if (req.kind === 'erase') {
        // A failure is thrown: the message is not acknowledged and comes again (the erase is safe to run twice), so
        // the request stays pending rather than half-done and reported. On a replica set the erase of every
        // collection and its answer land in one transaction (what `onErased` changes is told before the answer,
        // outside it: safe to repeat).
        const eraseAndAnswer = async (tx: Tx) => {
          const done = await erasePerson(conn, holdings, subject, req.requestId, suppress, tx);
          await onErased?.(done.erased);
          const reply: PrivacyCompleted = { requestId: req.requestId, service, records: {}, result: { status: 'done', finished_at: new Date().toISOString(), counts: done.counts, truncated: [], error: null } };
          await outbox.add(PRIVACY_COMPLETED, reply as unknown as Record<string, unknown>, `privacy-${req.requestId}-${service}`, tx);
          return done;
        };
        const { counts } = await inTransaction(conn, eraseAndAnswer);
        logger.info({ requestId: req.requestId, counts }, 'privacy erase done');
        return;
      }
      try {
        const { records, counts, truncated } = await collectPerson(conn, holdings, subject);
        answer = { requestId: req.requestId, service, records, result: { status: 'done', finished_at: new Date().toISOString(), counts, truncated, error: null } };
      } catch (err) {
        logger.error({ err, requestId: req.requestId }, 'privacy request failed');
        answer = {
          requestId: req.requestId,
          service,
          records: {},
          result: { status: 'failed', finished_at: new Date().toISOString(), counts: {}, truncated: [], error: 'The service could not read its data; ask again later' },
        };
      }
      // One answer per request and service: a redelivered request publishes under the same event id (dropped).
      await outbox.add(PRIVACY_COMPLETED, answer as unknown as Record<string, unknown>, `privacy-${req.requestId}-${service}`);
    },
  });
}
