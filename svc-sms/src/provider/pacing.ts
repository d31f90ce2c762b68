import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDuplicateKeyError } from '@act/service-kit';

/**
 * Twilio's sending rate is per sender (docs: "Messaging Policy", "Understanding Twilio Rate Limits and Message
 * Queues"): a US long code takes about 1 message per second, a toll-free number 3 by default, a short code 100; a
 * messaging service spreads over its numbers. Past it Twilio queues (and after 4 hours fails with 30001) or answers
 * 429 / 20429. So sends are paced here, per sender and for the whole deployment.
 */
export function defaultMessagesPerSecond(sender: string): number {
  if (/^MG[0-9a-fA-F]{32}$/.test(sender)) return 1;
  if (/^\d{5,6}$/.test(sender)) return 100;
  if (/^\+18(00|33|44|55|66|77|88)\d{7}$/.test(sender)) return 3;
  return 1;
}

interface PaceDoc {
  _id: string;
  /** When this sender's next message may leave. */
  next_at: Date;
  /**
   * Pace time handed back by attempts Twilio refused (429, 5xx: no message was created, so none of the sender's
   * rate was used), in milliseconds; spent by packing the next slots closer together.
   */
  credit_ms?: number;
}

export interface Reservation {
  /** When each reserved message may leave, ascending. */
  slots: Date[];
  /** The first moment after the reservation with room again (where a message left out is due). */
  nextFree: Date;
}

/**
 * At most this share of each interval is made up from credit: slots come at most 1 / (1 - 0.2) = 1.25 times as fast
 * as the rate, whatever was refused, so a run of refusals (over-the-rate ones included) cannot snowball into a burst.
 * A debt (retries sent outside the pace) widens the spacing by at most as much.
 */
export const MAX_CREDIT_SHARE = 0.2;

/**
 * A sender whose pace sat unused this long has no backlog, and its credit is dropped. Shorter gaps are the sweep's
 * own (a burst waiting for its slots is scheduled at the sender's next free moment, and reads the pace a little
 * after it), not a sender at rest.
 */
export const IDLE_AFTER_MS = 1_000;

/** Tries of one reservation's compare-and-set before it gives up (the burst then comes back shortly). */
const RESERVE_TRIES = 30;

/**
 * After a lost compare-and-set, a random wait up to this many ms (doubled per loss, from 2 ms): every burst of every
 * instance reserving for one sender at once otherwise tries again in step and loses again.
 */
const RESERVE_BACKOFF_MAX_MS = 50;

const lostRace = (attempt: number) => sleep(Math.random() * Math.min(RESERVE_BACKOFF_MAX_MS, 2 ** (attempt + 1)));

/** Each reservation spends its share of the credit as if the credit were to last this much of the sender's pace. */
export const CREDIT_SPREAD_MS = 2_000;

/**
 * Credit stops growing at a second of the sender's pace: an outage refuses every attempt for minutes, and its
 * credit would otherwise send the waiting retries all at once when the provider returns.
 */
export const MAX_CREDIT_MS = 1_000;

/**
 * Send slots per sender, shared by every instance through one MongoDB document per sender: a reservation moves
 * the sender's `next_at` forward by one interval per message with a compare-and-set (one conditional update of one
 * document, atomic in MongoDB), so two instances never hand out the same second.
 *
 * Twilio's rate counts the messages it takes, not the calls: a refused attempt used none of it. Its interval is
 * handed back as credit (`refund`) while the sender has a backlog. A retry spends a whole interval of it to leave as
 * soon as its backoff ends (`retrySlot`), and reservations spend the rest by spacing their slots up to
 * MAX_CREDIT_SHARE closer, so the credit is spread over the seconds ahead rather than given back at one moment
 * (which bunched the retries over the rate). A sender idle for a while (IDLE_AFTER_MS) drops its credit: the unused
 * time has passed.
 */
export class SenderPacer {
  private readonly coll: Collection<PaceDoc>;

  constructor(
    conn: Connection,
    private readonly perSecond: (sender: string) => number,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.coll = conn.db!.collection<PaceDoc>('sms_send_pace');
  }

  private interval(sender: string): number {
    return 1000 / Math.max(0.001, this.perSecond(sender));
  }

  /**
   * Up to `count` slots for `sender` no later than `until` (fewer, or none, when the sender is busy until then), none
   * before `notBefore` (a retry's backoff: it then takes its place in the pace like a first attempt).
   */
  async reserve(sender: string, count: number, until: Date, notBefore?: Date): Promise<Reservation> {
    const interval = this.interval(sender);
    for (let attempt = 0; attempt < RESERVE_TRIES; attempt++) {
      if (attempt > 0) await lostRace(attempt);
      const doc = await this.coll.findOne({ _id: sender });
      const clock = this.now().getTime();
      const now = Math.max(clock, notBefore?.getTime() ?? 0);
      const backlog = (doc?.next_at.getTime() ?? 0) > clock - IDLE_AFTER_MS;
      const credit = backlog ? (doc?.credit_ms ?? 0) : 0;
      const frontier = doc?.next_at.getTime() ?? 0;
      // A retry whose backoff ends past the pace's next free moment: it leaves then, and the moments between stay free
      // for others (moving the pace to it left them unused); the interval it takes is owed (negative credit).
      if (doc && notBefore && count === 1 && now > frontier + interval) {
        if (now > until.getTime()) return { slots: [], nextFree: new Date(now) };
        const owed = await this.coll.updateOne({ _id: sender, next_at: doc.next_at }, { $inc: { credit_ms: -interval } });
        if (owed.modifiedCount !== 1) continue;
        return { slots: [new Date(now)], nextFree: doc.next_at };
      }
      const start = Math.max(now, frontier);
      const fitting = (spacing: number) =>
        start > until.getTime() ? 0 : Math.max(0, Math.min(count, Math.floor((until.getTime() - start) / spacing) + 1));
      const closest = interval * (1 - MAX_CREDIT_SHARE);
      // The credit is spread over the next CREDIT_SPREAD_MS of slots (or the whole reservation when longer), so a
      // steady share of refusals becomes a steady, slightly faster pace instead of bursts at the cap and none after.
      const spread = Math.max(fitting(closest), CREDIT_SPREAD_MS / interval, 1);
      const farthest = interval * (1 + MAX_CREDIT_SHARE);
      const spacing = Math.min(farthest, Math.max(closest, interval - credit / spread));
      const k = fitting(spacing);
      if (k === 0) return { slots: [], nextFree: new Date(start) };
      // Credit spent (or, when negative, debt paid back by the wider spacing).
      const spent = credit > 0 ? Math.min(credit, k * (interval - spacing)) : Math.max(credit, k * (interval - spacing));
      const next = new Date(start + k * spacing);
      if (doc) {
        const moved = await this.coll.updateOne(
          { _id: sender, next_at: doc.next_at },
          // No backlog: the credit is dropped ($set), else what was spent comes off ($inc keeps refunds made meanwhile).
          backlog
            ? { $set: { next_at: next }, $inc: { credit_ms: -spent } }
            : { $set: { next_at: next, credit_ms: 0 } },
        );
        if (moved.modifiedCount !== 1) continue; // another instance reserved meanwhile: read again
      } else {
        try {
          await this.coll.insertOne({ _id: sender, next_at: next, credit_ms: 0 });
        } catch (err) {
          if (isDuplicateKeyError(err)) continue;
          throw err;
        }
      }
      return { slots: Array.from({ length: k }, (_, i) => new Date(start + i * spacing)), nextFree: next };
    }
    throw new Error(`could not reserve send slots for ${sender}: too much contention`);
  }

  /**
   * A retry's slot: at once (its backoff over) while the sender has credit for a whole interval, which it spends:
   * the refused attempt's unused slot comes back as this retry, without waiting behind every slot reserved since
   * (seconds ahead in a backlog). Else a slot of the pace like a first attempt (`reserve`).
   */
  async retrySlot(sender: string, notBefore: Date, until: Date): Promise<Date | null> {
    const interval = this.interval(sender);
    const clock = this.now().getTime();
    const at = Math.max(clock, notBefore.getTime());
    if (at <= until.getTime()) {
      const spent = await this.coll.updateOne(
        { _id: sender, next_at: { $gt: new Date(clock - IDLE_AFTER_MS) }, credit_ms: { $gte: interval } },
        { $inc: { credit_ms: -interval } },
      );
      if (spent.modifiedCount === 1) return new Date(at);
    }
    return (await this.reserve(sender, 1, until, notBefore)).slots[0] ?? null;
  }

  /**
   * An attempt Twilio refused took no part of the sender's rate: its interval is credit for the slots ahead, if the
   * sender still has a backlog to spend it on (one atomic $inc, no read).
   */
  async refund(sender: string, attempts = 1): Promise<void> {
    await this.coll.updateOne(
      {
        _id: sender,
        next_at: { $gt: new Date(this.now().getTime() - IDLE_AFTER_MS) },
        $or: [{ credit_ms: { $exists: false } }, { credit_ms: { $lt: MAX_CREDIT_MS } }],
      },
      { $inc: { credit_ms: Math.min(attempts * this.interval(sender), MAX_CREDIT_MS) } },
    );
  }
}
