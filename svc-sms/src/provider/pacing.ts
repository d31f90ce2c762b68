import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
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
}

export interface Reservation {
  /** When each reserved message may leave, ascending. */
  slots: Date[];
  /** The first moment after the reservation with room again (where a message left out is due). */
  nextFree: Date;
}

/**
 * Send slots per sender, shared by every instance through one MongoDB document per sender: a reservation moves
 * the sender's `next_at` forward by one interval per message with a compare-and-set (no transaction, no pipeline
 * update: the stand-in has neither), so two instances never hand out the same second.
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

  /**
   * Up to `count` slots for `sender` no later than `until` (fewer, or none, when the sender is busy until then), none
   * before `notBefore` (a retry's backoff: it then takes its place in the pace like a first attempt).
   */
  async reserve(sender: string, count: number, until: Date, notBefore?: Date): Promise<Reservation> {
    const interval = 1000 / Math.max(0.001, this.perSecond(sender));
    for (let attempt = 0; attempt < 20; attempt++) {
      const doc = await this.coll.findOne({ _id: sender });
      const now = Math.max(this.now().getTime(), notBefore?.getTime() ?? 0);
      const start = Math.max(now, doc?.next_at.getTime() ?? 0);
      const fit = start > until.getTime() ? 0 : Math.floor((until.getTime() - start) / interval) + 1;
      const k = Math.max(0, Math.min(count, fit));
      const next = new Date(start + k * interval);
      if (k === 0) return { slots: [], nextFree: new Date(start) };
      if (doc) {
        const moved = await this.coll.updateOne({ _id: sender, next_at: doc.next_at }, { $set: { next_at: next } });
        if (moved.modifiedCount !== 1) continue; // another instance reserved meanwhile: read again
      } else {
        try {
          await this.coll.insertOne({ _id: sender, next_at: next });
        } catch (err) {
          if (isDuplicateKeyError(err)) continue;
          throw err;
        }
      }
      return { slots: Array.from({ length: k }, (_, i) => new Date(start + i * interval)), nextFree: next };
    }
    throw new Error(`could not reserve send slots for ${sender}: too much contention`);
  }
}
