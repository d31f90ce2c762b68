import type { Connection } from 'mongoose';
import type { Collection, Document } from 'mongodb';
import type { Logger } from './logger';
import { envInt } from './config';

/**
 * A collection whose rows expire once `field` (a date) is older than the retention period, by a TTL index on that
 * field: `index` names it (default `<field>_-1`, the name MongoDB gives the descending single-field index that the
 * newest-first reads already had, so that index is the one that becomes the TTL index).
 */
export interface RetentionRule {
  collection: string;
  field: string;
  index?: string;
}

/** Days raw data is kept when DATA_RETENTION_DAYS is not set. */
export const DATA_RETENTION_DAYS_DEFAULT = 180;

/** DATA_RETENTION_DAYS as every service reads it (0 keeps everything). */
export function retentionDays(): number {
  return envInt('DATA_RETENTION_DAYS', DATA_RETENTION_DAYS_DEFAULT);
}

/**
 * The filter that leaves out rows past the retention period: MongoDB's TTL monitor deletes once a minute (and may
 * fall behind), so a read does not rely on it. Empty when everything is kept.
 */
export function retainedFilter(field: string, days = retentionDays()): Record<string, { $gte: Date }> {
  return days > 0 ? { [field]: { $gte: new Date(Date.now() - days * 86_400_000) } } : {};
}

const COMMAND_NOT_FOUND = 59;

async function indexNamed(coll: Collection, name: string): Promise<Document | undefined> {
  try {
    return (await coll.indexes()).find((ix) => ix.name === name);
  } catch {
    // No collection yet: no index either.
    return undefined;
  }
}

/**
 * Makes the rule's index a TTL index of `days` (or a plain one when `days` is 0). An index that exists with another
 * period, or none, is changed in place by `collMod` (MongoDB 5.1+ also turns a plain index into a TTL one); MongoDB
 * has no way to take the TTL off an index, so for 0 it is rebuilt plain. Returns false when the server does not know
 * `collMod`: the test stand-in, which has no TTL monitor either (the index is rebuilt there, so it reads back right).
 */
export async function ensureRetentionIndex(conn: Connection, rule: RetentionRule, days: number): Promise<boolean> {
  const db = conn.db!;
  const coll = db.collection(rule.collection);
  const name = rule.index ?? `${rule.field}_-1`;
  const key = { [rule.field]: -1 } as const;
  const options = { name, ...(days > 0 ? { expireAfterSeconds: days * 86_400 } : {}) };
  const existing = await indexNamed(coll, name);
  const rebuild = async () => {
    await coll.dropIndex(name).catch(() => undefined);
    await coll.createIndex(key, options);
  };
  // An option-less collMod is a no-op on MongoDB; a server that does not know the command has no TTL monitor.
  let change: Document = {};
  if (existing && existing.expireAfterSeconds !== options.expireAfterSeconds && days > 0) change = { index: { name, expireAfterSeconds: options.expireAfterSeconds } };
  else if (existing && existing.expireAfterSeconds !== undefined && days <= 0) await rebuild();
  let ttlMonitor = true;
  try {
    await db.command({ collMod: rule.collection, ...change });
  } catch (err) {
    const code = (err as { code?: number }).code;
    if (code === COMMAND_NOT_FOUND) ttlMonitor = false;
    // The stand-in, or a MongoDB before 5.1 that cannot make a plain index a TTL one: built again with the period.
    if ('index' in change) await rebuild();
  }
  // Declared on every start (a no-op when it is there as wanted), so the index check knows who declares it.
  await coll.createIndex(key, options);
  return ttlMonitor;
}

/**
 * Raw webhook payloads and logs older than `days` expire (people's data is not kept for ever) by a TTL
 * index per rule, set to `days` at start (`collMod` when the setting changed). The purge below runs only where no
 * TTL monitor removes them (a server without `collMod`: the test stand-in), every `everyMs`; every
 * instance may run it, a delete of what is already gone is a no-op. `days` 0 keeps everything.
 */
export function startRetentionPurge({
  conn,
  logger,
  rules,
  days,
  everyMs = 3_600_000,
}: {
  conn: Connection;
  logger: Logger;
  rules: RetentionRule[];
  days: number;
  everyMs?: number;
}): { stop(): void; purge(): Promise<number>; ready: Promise<boolean> } {
  let running: Promise<number> | null = null;
  let stopped = false;
  const purge = () =>
    (running ??= (async () => {
      if (days <= 0) return 0;
      const cutoff = new Date(Date.now() - days * 86_400_000);
      let removed = 0;
      for (const { collection, field } of rules) {
        const r = await conn.db!.collection(collection).deleteMany({ [field]: { $lt: cutoff } });
        removed += r.deletedCount;
        if (r.deletedCount > 0) logger.info({ collection, removed: r.deletedCount, olderThan: cutoff.toISOString() }, 'retention purge');
      }
      return removed;
    })().finally(() => (running = null)));
  const run = () => void purge().catch((err) => logger.warn({ err: (err as Error).message }, 'retention purge failed'));
  let timer: NodeJS.Timeout | undefined;
  const ready = (async () => {
    let monitored = true;
    for (const rule of rules) monitored = (await ensureRetentionIndex(conn, rule, days)) && monitored;
    return monitored;
  })();
  ready
    .then((monitored) => {
      if (monitored || days <= 0 || stopped) return;
      timer = setInterval(run, everyMs);
      timer.unref();
    })
    .catch((err) => logger.warn({ err: (err as Error).message }, 'retention indexes not set'));
  return {
    purge,
    ready,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/**
 * Retention as every service configures it: DATA_RETENTION_DAYS (default 180, 0 keeps everything) and
 * RETENTION_PURGE_EVERY_MS (default hourly, for a server without a TTL monitor) read here, once, rather than by
 * each service.
 */
export function startRetentionPurgeFromEnv({ conn, logger, rules }: { conn: Connection; logger: Logger; rules: RetentionRule[] }) {
  return startRetentionPurge({
    conn,
    logger,
    rules,
    days: retentionDays(),
    everyMs: envInt('RETENTION_PURGE_EVERY_MS', 3_600_000),
  });
}
