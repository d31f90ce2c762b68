import type { Connection } from 'mongoose';
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import { setTimeout as sleep } from 'node:timers/promises';

/** After a failed count in MongoDB, the next try. */
const STORE_RETRY_MS = 100;
/** How far into a clock second a call that waited for it goes out. */
const SECOND_MARGIN_MS = 20;
/**
 * A call not yet on its way this close to a second's end waits for the next: it may reach Resend in that one (the
 * batch's body is built and sent after the count), where it would be one call too many.
 */
const SECOND_EDGE_MS = 60;

/**
 * Paces every call to Resend under `maxPerSecond` for the whole deployment: Resend's limit is per team, not per
 * process, so the instances count in one MongoDB document per second (rate-limiter-flexible's Mongo store: an
 * upsert with $inc). A call over the budget waits for the next second instead of earning a 429.
 *
 * The seconds are the clock's (the document's key is the second), not windows opened by a first call: a limiter
 * that counts per clock second, as a fixed-window one keyed by the second does (the fake Resend does), otherwise
 * sees the end of one of our windows and the start of the next in one of its seconds, twice the budget, and
 * answers 429, each costing a call's place and a second's retry-after (docs/delivery.md has the figures).
 */
/**
 * Sleeps until the clock second after `second`, a few milliseconds in (a call sent at its very start may reach
 * Resend's clock in the second before); false, without sleeping, when that is past `deadline`.
 */
async function nextSecond(second: number, deadline: number): Promise<boolean> {
  const at = (second + 1) * 1000 + SECOND_MARGIN_MS;
  if (at > deadline) return false;
  await sleep(Math.max(5, at - Date.now()));
  return true;
}

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
      // A second's document outlives its second, and MongoDB's TTL monitor takes it away later.
      duration: 2,
    });
  }

  /**
   * Resolves when this call may go out; waits as long as the window says (`deadline`: give up after). A failed
   * count in MongoDB (concurrent first upserts of one document may fail with a duplicate key, as MongoDB documents)
   * is tried again shortly, not passed on: it would fail every email waiting for the call.
   */
  async take(deadline: number): Promise<boolean> {
    for (;;) {
      const second = Math.floor(Date.now() / 1000);
      const edge = (second + 1) * 1000 - SECOND_EDGE_MS;
      if (Date.now() >= edge) {
        if (!(await nextSecond(second, deadline))) return false;
        continue;
      }
      try {
        await this.limiter.consume(`calls:${second}`, 1);
        // A count that took until the second's edge: the call waits for the next (this second's place is spent).
        if (Date.now() < edge) return true;
        continue;
      } catch (res) {
        if (!(res instanceof RateLimiterRes)) {
          if (Date.now() + STORE_RETRY_MS > deadline) throw res;
          await sleep(STORE_RETRY_MS);
          continue;
        }
        if (!(await nextSecond(second, deadline))) return false;
        this.waits += 1;
      }
    }
  }

  /** How often a call had to wait for the budget (for the logs and, later, metrics). */
  get waited(): number {
    return this.waits;
  }
}
