import type { Connection } from 'mongoose';
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import { setTimeout as sleep } from 'node:timers/promises';

/** After a failed count in MongoDB, the next try. */
const STORE_RETRY_MS = 100;

/**
 * Paces every call to Resend under `maxPerSecond` for the whole deployment: Resend's limit is per team, not per
 * process, so the instances count in one MongoDB document per second (rate-limiter-flexible's Mongo store: an
 * upsert with $inc). A call over the budget waits for the next second instead of earning a 429.
 */
export class ResendPacer {
  private readonly limiter: RateLimiterMongo;
  private waits = 0;

  constructor(conn: Connection, private readonly maxPerSecond: number) {
    this.limiter = new RateLimiterMongo({
      storeClient: conn.getClient(),
      dbName: conn.db!.databaseName,
      tableName: 'resend_rate',
      keyPrefix: 'resend',
      points: Math.max(1, maxPerSecond),
      duration: 1,
    });
  }

  /**
   * Resolves when this call may go out; waits as long as the window says (`deadline`: give up after). A failed
   * count in MongoDB (concurrent first upserts of one document may fail with a duplicate key, as MongoDB documents)
   * is tried again shortly, not passed on: it would fail every email waiting for the call.
   */
  async take(deadline: number): Promise<boolean> {
    for (;;) {
      try {
        await this.limiter.consume('calls', 1);
        return true;
      } catch (res) {
        if (!(res instanceof RateLimiterRes)) {
          if (Date.now() + STORE_RETRY_MS > deadline) throw res;
          await sleep(STORE_RETRY_MS);
          continue;
        }
        const wait = Math.max(5, res.msBeforeNext);
        if (Date.now() + wait > deadline) return false;
        this.waits += 1;
        await sleep(wait);
      }
    }
  }

  /** How often a call had to wait for the budget (for the logs and, later, metrics). */
  get waited(): number {
    return this.waits;
  }
}
