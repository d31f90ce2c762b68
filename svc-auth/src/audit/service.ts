import type { Collection, Filter } from 'mongodb';
import { stringify } from 'csv-stringify/sync';
import { escapeRegex, isDuplicateKeyError } from '@act/service-kit';
import type { AuditPage, AuditQuery, AuditRecord } from '@act/contracts/src/audit';
import type { AuditDoc } from './model';
import { mentionKeys } from './mentions';

/** At most this many rows in one CSV export (the newest): a bigger span is exported in parts by date. */
export const AUDIT_EXPORT_LIMIT = 50_000;

export interface AuditLog {
  /** Stores one record heard from a service; the same record twice is stored once. */
  store(record: AuditRecord): Promise<void>;
  page(query: AuditQuery): Promise<AuditPage>;
  csv(query: AuditQuery): Promise<string>;
}

/**
 * `retentionDays`: records older than this are not answered, though kept until MongoDB's TTL monitor (every 60 s)
 * removes them by the `at_retention` index.
 */
export function createAuditLog(coll: Collection<AuditDoc>, retentionDays: number): AuditLog {
  function filterOf(q: AuditQuery): Filter<AuditDoc> {
    const f: Filter<AuditDoc> = {};
    if (q.user) f['actor.username'] = { $regex: escapeRegex(q.user), $options: 'i' };
    if (q.service) f.service = q.service as AuditDoc['service'];
    if (q.action) f.action = { $regex: escapeRegex(q.action), $options: 'i' };
    const at: { $gte?: Date; $lte?: Date } = {};
    const kept = new Date(Date.now() - retentionDays * 86_400_000);
    at.$gte = q.from && new Date(q.from) > kept ? new Date(q.from) : kept;
    // A bare date as "to" means the whole of that day.
    if (q.to) at.$lte = /^\d{4}-\d{2}-\d{2}$/.test(q.to) ? new Date(`${q.to}T23:59:59.999Z`) : new Date(q.to);
    f.at = at;
    return f;
  }
  const toRecord = ({ at, ...rest }: AuditDoc & { _id?: unknown }): AuditRecord => {
    delete (rest as { _id?: unknown })._id;
    delete rest.mentions;
    return { ...rest, at: at.toISOString() };
  };

  return {
    async store(record) {
      try {
        await coll.insertOne({ ...record, at: new Date(record.at), mentions: mentionKeys(record.change) });
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    },

    async page(q) {
      const filter = filterOf(q);
      const [docs, total] = await Promise.all([
        coll
          .find(filter, { projection: { _id: 0, mentions: 0 } })
          .sort({ at: -1, id: -1 })
          .skip((q.page - 1) * q.pageSize)
          .limit(q.pageSize)
          .toArray(),
        coll.countDocuments(filter),
      ]);
      return { items: docs.map(toRecord), total, page: q.page, pageSize: q.pageSize };
    },

    async csv(q) {
      const docs = await coll.find(filterOf(q), { projection: { _id: 0, mentions: 0 } }).sort({ at: -1, id: -1 }).limit(AUDIT_EXPORT_LIMIT).toArray();
      const rows = docs.map(toRecord).map((r) => [
        r.at,
        r.service,
        r.actor?.username ?? '',
        r.actor?.role ?? '',
        r.ip ?? '',
        r.action,
        r.route,
        r.status,
        r.target_kind ?? '',
        r.target_id ?? '',
        r.change.before ? JSON.stringify(r.change.before) : '',
        r.change.after ? JSON.stringify(r.change.after) : '',
      ]);
      return stringify(rows, {
        header: true,
        columns: ['At', 'Service', 'User', 'Role', 'Address', 'Action', 'Route', 'Status', 'Target', 'Target ID', 'Before', 'After'],
        // A cell starting with = + - @ is read as a formula by spreadsheets: prefixed so it stays text.
        cast: { string: (v) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v) },
      });
    },
  };
}
