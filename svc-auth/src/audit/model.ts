import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import type { AuditRecord } from '@act/contracts/src/audit';

/** As stored: the record with `at` as a date (filters and the retention index work on dates). */
export type AuditDoc = Omit<AuditRecord, 'at'> & { at: Date };

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
  await coll.createIndex({ service: 1, at: -1 }, { name: 'service_at' });
  const ttl = retentionDays * 86_400;
  try {
    await coll.createIndex({ at: -1 }, { name: 'at_retention', expireAfterSeconds: ttl });
  } catch {
    // The retention setting changed since the index was made: the index is replaced with the new period.
    await coll.dropIndex('at_retention').catch(() => undefined);
    await coll.createIndex({ at: -1 }, { name: 'at_retention', expireAfterSeconds: ttl });
  }
}
