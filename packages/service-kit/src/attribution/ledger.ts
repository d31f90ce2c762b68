import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import {
  buyerKeys,
  DAY_MS,
  makeTouch,
  MAX_WINDOW_DAYS,
  purchaseFingerprint,
  SAME_PURCHASE_MS,
  type Buyer,
  type Touch,
} from '@act/contracts/src/attribution';
import { isDuplicateKeyError } from '../errors';

export interface TouchDoc extends Touch {
  _id: string;
  /** The contact's names (buyerKeys): how purchases find it. */
  keys: string[];
  /** The first of them: one contact, however many reminders, in "reminded" counts. */
  who: string;
}

export interface PurchaseDoc {
  /** fingerprint + 10-minute slot: two instances inserting the same report at once collide here. */
  _id: string;
  fingerprint: string | null;
  funnelId: string | null;
  buyerKeys: string[];
  amount: number | null;
  currency: string | null;
  purchasedAt: Date;
  /** Which services reported it (both, when the funnel posts to both webhooks or one side relays it). */
  heardFrom: string[];
  /** Every reminder to this buyer in the MAX_WINDOW_DAYS before the purchase, whatever order they arrived in. */
  touches: Touch[];
}

export type TouchInput = Touch & Buyer;
export type PurchaseInput = Buyer & { amount: number | null; currency: string | null; purchasedAt: Date; source: string; eventId: string };

const MAX_WINDOW_MS = MAX_WINDOW_DAYS * DAY_MS;

/**
 * Each service's record of every reminder and purchase it heard of (its own and the other side's, all from NATS).
 * Exact under duplicates and any arrival order: a touch is keyed by its send; a purchase by its fingerprint (one
 * record for the same purchase reported twice within SAME_PURCHASE_MS); and the touches a purchase holds are a set
 * union both ways ($addToSet): a purchase takes the touches already there, a late touch joins the purchases already
 * there, so whichever comes second links them.
 */
export class AttributionLedger {
  readonly touches: Collection<TouchDoc>;
  readonly purchases: Collection<PurchaseDoc>;

  constructor(conn: Connection) {
    this.touches = conn.collection<TouchDoc>('revenue_touches');
    this.purchases = conn.collection<PurchaseDoc>('revenue_purchases');
  }

  async init(): Promise<void> {
    await Promise.all([
      this.touches.createIndex({ keys: 1, sentAt: 1 }),
      this.touches.createIndex({ sentAt: 1, funnelId: 1 }),
      this.purchases.createIndex({ fingerprint: 1, purchasedAt: 1 }),
      this.purchases.createIndex({ buyerKeys: 1, purchasedAt: 1 }),
      this.purchases.createIndex({ purchasedAt: 1, funnelId: 1 }),
    ]);
  }

  async recordTouch(input: TouchInput): Promise<void> {
    const keys = buyerKeys(input);
    if (keys.length === 0) return;
    const touch = makeTouch(input);
    await this.touches.updateOne({ _id: touch.key }, { $setOnInsert: { ...touch, keys, who: keys[0]! } }, { upsert: true });
    await this.purchases.updateMany(
      { buyerKeys: { $in: keys }, purchasedAt: { $gte: touch.sentAt, $lte: new Date(touch.sentAt.getTime() + MAX_WINDOW_MS) } },
      { $addToSet: { touches: touch } },
    );
  }

  /** Records a purchase report; the same purchase reported again only adds who reported it (and any new names). */
  async recordPurchase(p: PurchaseInput): Promise<{ duplicate: boolean }> {
    const keys = buyerKeys(p);
    const fingerprint = purchaseFingerprint(p);
    const at = p.purchasedAt;
    const currency = p.currency ? p.currency.toUpperCase() : null;
    const merge = async (id: string) => {
      await this.purchases.updateOne({ _id: id }, { $addToSet: { heardFrom: p.source, buyerKeys: { $each: keys } } });
      return id;
    };
    let id: string | null = null;
    let duplicate = false;
    // The touches already known go in with the insert, so a summary read right after the webhook shows it credited.
    const known = keys.length ? await this.touchesBefore(keys, at) : [];
    if (fingerprint) {
      const same = await this.purchases.findOne(
        { fingerprint, purchasedAt: { $gte: new Date(at.getTime() - SAME_PURCHASE_MS), $lte: new Date(at.getTime() + SAME_PURCHASE_MS) } },
        { projection: { _id: 1 } },
      );
      if (same) {
        id = await merge(same._id);
        duplicate = true;
      }
    }
    if (!id) {
      const newId = fingerprint ? `${fingerprint}|${Math.floor(at.getTime() / SAME_PURCHASE_MS)}` : `event:${p.eventId}`;
      try {
        await this.purchases.insertOne({
          _id: newId,
          fingerprint,
          funnelId: p.funnelId,
          buyerKeys: keys,
          amount: p.amount,
          currency,
          purchasedAt: at,
          heardFrom: [p.source],
          touches: known,
        });
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        await merge(newId);
        duplicate = true;
      }
      id = newId;
    }
    // Read once more after the write: a touch recorded meanwhile searched before this purchase existed.
    if (keys.length) await this.linkTouches(id, keys, at);
    return { duplicate };
  }

  private async touchesBefore(keys: string[], at: Date): Promise<Touch[]> {
    const found = await this.touches
      .find({ keys: { $in: keys }, sentAt: { $gte: new Date(at.getTime() - MAX_WINDOW_MS), $lte: at } }, { projection: { _id: 0, keys: 0, who: 0 } })
      .toArray();
    return found.map(makeTouch);
  }

  private async linkTouches(id: string, keys: string[], at: Date): Promise<void> {
    const found = await this.touchesBefore(keys, at);
    if (found.length) await this.purchases.updateOne({ _id: id }, { $addToSet: { touches: { $each: found } } });
  }

  purchasesIn(from: Date, until: Date, funnelId?: string | null): Promise<PurchaseDoc[]> {
    return this.purchases
      .find(
        { purchasedAt: { $gte: from, $lt: until }, ...(funnelId !== undefined ? { funnelId } : {}) },
        { projection: { _id: 0, funnelId: 1, amount: 1, currency: 1, purchasedAt: 1, touches: 1, buyerKeys: 1 } },
      )
      .toArray() as Promise<PurchaseDoc[]>;
  }

  /** Distinct contacts reminded in the range, per funnel. */
  async remindedIn(from: Date, until: Date, funnelId?: string | null): Promise<Map<string | null, number>> {
    const rows = await this.touches
      .aggregate<{ _id: string | null; n: number }>([
        { $match: { sentAt: { $gte: from, $lt: until }, ...(funnelId !== undefined ? { funnelId } : {}) } },
        { $group: { _id: { f: '$funnelId', w: '$who' } } },
        { $group: { _id: '$_id.f', n: { $sum: 1 } } },
      ])
      .toArray();
    return new Map(rows.map((r) => [r._id ?? null, r.n]));
  }

  async clear(): Promise<void> {
    await Promise.all([this.touches.deleteMany({}), this.purchases.deleteMany({})]);
  }
}
