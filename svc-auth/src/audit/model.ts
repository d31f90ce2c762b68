import type { Connection } from 'mongoose';
import type { AnyBulkWriteOperation, Collection } from 'mongodb';
import type { AuditRecord } from '@act/contracts/src/audit';
import { mentionKeys } from './mentions';

/**
 * As stored: the record with `at` as a date (filters and the retention index work on dates), and `mentions`: the
 * hashed addresses and numbers its change names (`mentionKeys`), which a privacy erase finds it by. Never answered.
 */
export type AuditDoc = Omit<AuditRecord, 'at'> & { at: Date; mentions?: string[] };

export function auditCollection(conn: Connection): Collection<AuditDoc> {
  return conn.db!.collection<AuditDoc>('audit_log');
}

/**
 * The indexes: one record per event id (a record heard twice is stored once), newest-first reads, and retention by
 * a TTL index on `at` (MongoDB removes what is older; nothing else ever deletes or changes a record).
 */
export async function ensureAuditIndexes(coll: Collection<AuditDoc>, retentionDays: number): Promise<void> {
  await coll.createIndex({ id: 1 }, { unique: true, name: 'id_unique' });
  await coll.createIndex({ 'actor.username': 1, at: -1 }, { name: 'actor_at' });
  // Pages read newest first with the id as tiebreak: both in the index, so no page is sorted in memory.
  await coll.createIndex({ at: -1, id: -1 }, { name: 'at_id' });
  await coll.createIndex({ service: 1, at: -1, id: -1 }, { name: 'service_at_id' });
  // The service's index without the tiebreak, which the one above replaces.
  await coll.dropIndex('service_at').catch(() => undefined);
  await coll.createIndex({ mentions: 1 }, { name: 'mentions' });
  // A contact's staff actions (the contact page's timeline).
  await coll.createIndex({ target_kind: 1, target_id: 1, at: -1 }, { name: 'target_at' });
  const ttl = retentionDays * 86_400;
  try {
    await coll.createIndex({ at: -1 }, { name: 'at_retention', expireAfterSeconds: ttl });
  } catch {
    // The retention setting changed since the index was made: the index is replaced with the new period.
    await coll.dropIndex('at_retention').catch(() => undefined);
    await coll.createIndex({ at: -1 }, { name: 'at_retention', expireAfterSeconds: ttl });
  }
}

/**
 * Records stored before `mentions` existed get theirs (once; bulk writes of 500). Until then an erase also reads the
 * records that have none, so none is missed meanwhile.
 */
export async function backfillMentions(coll: Collection<AuditDoc>): Promise<number> {
  let done = 0;
  let ops: AnyBulkWriteOperation<AuditDoc>[] = [];
  const flush = async () => {
    if (ops.length) await coll.bulkWrite(ops, { ordered: false });
    done += ops.length;
    ops = [];
  };
  for await (const rec of coll.find({ mentions: { $exists: false } }, { projection: { _id: 1, change: 1 } })) {
    ops.push({ updateOne: { filter: { _id: rec._id }, update: { $set: { mentions: mentionKeys(rec.change) } } } });
    if (ops.length >= 500) await flush();
  }
  await flush();
  return done;
}
