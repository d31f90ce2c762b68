import type { Connection } from 'mongoose';
import type { Logger } from './logger';
import { envInt } from './config';

/** A collection whose rows are removed once `field` (a date) is older than the retention period. */
export interface RetentionRule {
  collection: string;
  field: string;
}

/**
 * Removes raw webhook payloads and logs older than `days` (issue 18: people's data is not kept for ever), at start
 * and every `everyMs`. Every instance may run it: a delete of what is already gone is a no-op. `days` 0 keeps
 * everything. A deleteMany rather than a TTL index: the period is a setting that may change, and these collections
 * already carry a sort index on the same field that a TTL index would have to replace.
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
}): { stop(): void; purge(): Promise<number> } {
  let running: Promise<number> | null = null;
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
  const first = setTimeout(run, Math.min(everyMs, 5_000));
  const timer = setInterval(run, everyMs);
  first.unref();
  timer.unref();
  return {
    purge,
    stop() {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}

/** Days raw data is kept when DATA_RETENTION_DAYS is not set. */
export const DATA_RETENTION_DAYS_DEFAULT = 180;

/**
 * The purge as every service configures it: DATA_RETENTION_DAYS (default 180, 0 keeps everything) and
 * RETENTION_PURGE_EVERY_MS (default hourly) read here, once, rather than by each service.
 */
export function startRetentionPurgeFromEnv({ conn, logger, rules }: { conn: Connection; logger: Logger; rules: RetentionRule[] }) {
  return startRetentionPurge({
    conn,
    logger,
    rules,
    days: envInt('DATA_RETENTION_DAYS', DATA_RETENTION_DAYS_DEFAULT),
    everyMs: envInt('RETENTION_PURGE_EVERY_MS', 3_600_000),
  });
}
