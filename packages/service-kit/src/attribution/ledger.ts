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
import { nextId } from '../mongo';
import { dayOf, daysIn, funnelField, linkEntry, purchaseDayId, purchaseEntry, purchasesOf, remindedDayId, remindedEntry, remindedOf, type DayDoc, type DayPurchase } from './days';
import type { SummaryPurchase } from './summary';

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
/** The `revenue_days` document that says the day documents were built from the records (no summary reads it). */
const BUILT = 'built';

/**
 * Each service's record of every reminder and purchase it heard of (its own and the other side's, all from NATS).
 * Exact under duplicates and any arrival order: a touch is keyed by its send; a purchase by its fingerprint (one
 * record for the same purchase reported twice within SAME_PURCHASE_MS); and the touches a purchase holds are a set
 * union both ways ($addToSet): a purchase takes the touches already there, a late touch joins the purchases already
 * there, so whichever comes second links them.
 *
 * What the summary reads is kept beside, in day documents (days.ts): the contacts reminded each day and the
 * purchases of each day with their links to touches, all sets of strings written after the record they mirror, so
 * an event redelivered after a crash between the two writes completes them.
 */
export class AttributionLedger {
  readonly touches: Collection<TouchDoc>;
  readonly purchases: Collection<PurchaseDoc>;
  readonly days: Collection<DayDoc>;
  /** A number per funnel (`_id`: the funnel id as JSON) and per reminded contact (`_id`: remindedEntry), given once. */
  readonly funnels: Collection<{ _id: string; n: number; funnelId: string | null }>;
  readonly contacts: Collection<{ _id: string; n: number }>;

  constructor(private readonly conn: Connection) {
    this.touches = conn.collection<TouchDoc>('revenue_touches');
    this.purchases = conn.collection<PurchaseDoc>('revenue_purchases');
    this.days = conn.collection<DayDoc>('revenue_days');
    this.funnels = conn.collection('revenue_funnels');
    this.contacts = conn.collection('revenue_contacts');
  }

  /**
   * The number of a funnel or contact, given on first sight. Two first sights at once both draw a number; the
   * unique `_id` keeps one and the other reads it (its number is never used: numbers only grow, so one freed by a
   * clear is never given again).
   */
  private async numberOf(kind: 'funnel' | 'contact', id: string, funnelId: string | null): Promise<number> {
    const coll = kind === 'funnel' ? this.funnels : (this.contacts as unknown as typeof this.funnels);
    for (let attempt = 0; ; attempt++) {
      const found = await coll.findOne({ _id: id }, { projection: { n: 1 } });
      if (found) return found.n;
      const n = await nextId(this.conn, kind === 'funnel' ? 'revenue_funnels' : 'revenue_contacts');
      try {
        await coll.insertOne(kind === 'funnel' ? { _id: id, n, funnelId } : ({ _id: id, n } as never));
        return n;
      } catch (err) {
        if (!isDuplicateKeyError(err) || attempt >= 2) throw err;
      }
    }
  }

  private async addReminded(day: string, funnelId: string | null, who: string): Promise<void> {
    const [k, n] = await Promise.all([this.numberOf('funnel', JSON.stringify(funnelId), funnelId), this.numberOf('contact', remindedEntry(funnelId, who), funnelId)]);
    await this.addToDay(remindedDayId(day), { [funnelField(k)]: [n] });
  }

  async init(): Promise<void> {
    await Promise.all([
      this.touches.createIndex({ keys: 1, sentAt: 1 }),
      this.touches.createIndex({ sentAt: 1, funnelId: 1 }),
      this.purchases.createIndex({ fingerprint: 1, purchasedAt: 1 }),
      this.purchases.createIndex({ buyerKeys: 1, purchasedAt: 1 }),
      this.purchases.createIndex({ purchasedAt: 1, funnelId: 1 }),
    ]);
    // A ledger from before the day documents: build them from the records, behind the start (a large ledger takes
    // minutes; until then the summary shows less). Set unions, so a second run (another instance, a restart before
    // the mark) changes nothing that is right. The mark says the day documents follow every record.
    if (await this.days.findOne({ _id: BUILT }, { projection: { _id: 1 } })) return;
    const hasRecords = (await this.purchases.findOne({}, { projection: { _id: 1 } })) ?? (await this.touches.findOne({}, { projection: { _id: 1 } }));
    if (!hasRecords) {
      await this.markBuilt();
      return;
    }
    this.rebuilt = this.rebuildDays()
      .then(() => this.markBuilt())
      .catch((err: unknown) => {
        // Left without the mark: the next start builds again.
        this.rebuildError = err;
      });
  }

  /** The build of the day documents that init started, if any (tests, and a caller that wants to wait for it). */
  rebuilt: Promise<void> = Promise.resolve();
  rebuildError: unknown = null;

  private async markBuilt(): Promise<void> {
    await this.days.updateOne({ _id: BUILT }, { $set: { at: new Date() } as never }, { upsert: true }).catch((err: unknown) => {
      if (!isDuplicateKeyError(err)) throw err;
    });
  }

  async recordTouch(input: TouchInput): Promise<void> {
    const keys = buyerKeys(input);
    if (keys.length === 0) return;
    const touch = makeTouch(input);
    // Reminded first, before the record a purchase finds the touch by: a summary read meanwhile never shows a
    // purchase recovered by a contact it does not yet count as reminded (a recovery rate over 100%).
    await this.addReminded(dayOf(touch.sentAt), touch.funnelId, keys[0]!);
    await this.touches.updateOne({ _id: touch.key }, { $setOnInsert: { ...touch, keys, who: keys[0]! } }, { upsert: true });
    const linked = await this.purchases
      .find(
        { buyerKeys: { $in: keys }, purchasedAt: { $gte: touch.sentAt, $lte: new Date(touch.sentAt.getTime() + MAX_WINDOW_MS) } },
        { projection: { _id: 1, purchasedAt: 1 } },
      )
      .toArray();
    await Promise.all([
      linked.length ? this.purchases.updateMany({ _id: { $in: linked.map((p) => p._id) } }, { $addToSet: { touches: touch } }) : null,
      ...linked.map((p) => this.addToDay(purchaseDayId(dayOf(p.purchasedAt)), { l: [linkEntry(p._id, touch)] })),
    ]);
  }

  /** Adds set members to a day document, creating it if needed (two first writers of a day: the loser tries again). */
  private async addToDay(id: string, add: Record<string, (string | number)[]>): Promise<void> {
    const set = Object.fromEntries(Object.entries(add).filter(([, v]) => v.length).map(([k, v]) => [k, { $each: v }]));
    if (Object.keys(set).length === 0) return;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.days.updateOne({ _id: id }, { $addToSet: set }, { upsert: true });
        return;
      } catch (err) {
        if (!isDuplicateKeyError(err) || attempt >= 2) throw err;
      }
    }
  }

  /** Records a purchase report; the same purchase reported again only adds who reported it (and any new names). */
  async recordPurchase(p: PurchaseInput): Promise<{ duplicate: boolean }> {
    const keys = buyerKeys(p);
    const fingerprint = purchaseFingerprint(p);
    const at = p.purchasedAt;
    const currency = p.currency ? p.currency.toUpperCase() : null;
    /** The purchase as first recorded: the day documents hold it, so a second report cannot change them. */
    let stored: DayPurchase | null = null;
    const merge = async (id: string) => {
      const doc = await this.purchases.findOneAndUpdate(
        { _id: id },
        { $addToSet: { heardFrom: p.source, buyerKeys: { $each: keys } } },
        { returnDocument: 'after', projection: { _id: 1, funnelId: 1, amount: 1, currency: 1, purchasedAt: 1 } },
      );
      if (doc) stored = { id: doc._id, funnelId: doc.funnelId, amount: doc.amount, currency: doc.currency, purchasedAt: doc.purchasedAt };
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
        stored = { id: newId, funnelId: p.funnelId, amount: p.amount, currency, purchasedAt: at };
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        await merge(newId);
        duplicate = true;
      }
      id = newId;
    }
    const record = stored as DayPurchase | null;
    if (!record) return { duplicate };
    // Read once more after the write: a touch recorded meanwhile searched before this purchase existed.
    const again = keys.length ? await this.touchesBefore(keys, record.purchasedAt) : [];
    if (again.length) await this.purchases.updateOne({ _id: id }, { $addToSet: { touches: { $each: again } } });
    const links = new Set([...known, ...again].filter((t) => t.sentAt.getTime() <= record.purchasedAt.getTime()).map((t) => linkEntry(record.id, t)));
    await this.addToDay(purchaseDayId(dayOf(record.purchasedAt)), { p: [purchaseEntry(record)], l: [...links] });
    return { duplicate };
  }

  private async touchesBefore(keys: string[], at: Date): Promise<Touch[]> {
    const found = await this.touches
      .find({ keys: { $in: keys }, sentAt: { $gte: new Date(at.getTime() - MAX_WINDOW_MS), $lte: at } }, { projection: { _id: 0, keys: 0, who: 0 } })
      .toArray();
    return found.map(makeTouch);
  }

  /** The purchases made in the range (UTC days) with their touches: one read of the range's day documents by `_id`. */
  async purchasesIn(from: Date, until: Date, funnelId?: string | null): Promise<SummaryPurchase[]> {
    const docs = await this.days.find({ _id: { $in: daysIn(from, until).map(purchaseDayId) } }).toArray();
    return purchasesOf(docs, funnelId);
  }

  /** Distinct contacts reminded in the range, per funnel: the union of the range's reminded-day sets. */
  async remindedIn(from: Date, until: Date, funnelId?: string | null): Promise<Map<string | null, number>> {
    let funnels = new Map((await this.funnels.find({}).toArray()).map((f) => [f.n, f.funnelId] as const));
    if (funnelId !== undefined) funnels = new Map([...funnels].filter(([, f]) => f === funnelId));
    if (funnels.size === 0) return new Map();
    const projection = Object.fromEntries([...funnels.keys()].map((k) => [funnelField(k), 1]));
    const docs = await this.days.find({ _id: { $in: daysIn(from, until).map(remindedDayId) } }, { projection }).toArray();
    return remindedOf(docs, funnels);
  }

  /**
   * The day documents again from the records (a ledger kept before they existed). Adds only: entries are sets, so
   * running it beside live writes, or twice, changes nothing that is already right.
   */
  async rebuildDays(): Promise<void> {
    for await (const t of this.touches.find({}, { projection: { sentAt: 1, funnelId: 1, who: 1 } })) await this.addReminded(dayOf(t.sentAt), t.funnelId ?? null, t.who);
    for await (const p of this.purchases.find({}, { projection: { funnelId: 1, amount: 1, currency: 1, purchasedAt: 1, touches: 1 } })) {
      const record: DayPurchase = { id: p._id, funnelId: p.funnelId, amount: p.amount, currency: p.currency, purchasedAt: p.purchasedAt };
      const links = (p.touches ?? []).filter((t) => new Date(t.sentAt).getTime() <= p.purchasedAt.getTime()).map((t) => linkEntry(p._id, makeTouch(t)));
      await this.addToDay(purchaseDayId(dayOf(p.purchasedAt)), { p: [purchaseEntry(record)], l: links });
    }
  }

  /** Everything: records, day documents (Clear All Test Data). */
  async clear(): Promise<{ touches: number; purchases: number }> {
    const [touches, purchases] = await Promise.all([
      this.touches.deleteMany({}),
      this.purchases.deleteMany({}),
      this.days.deleteMany({}),
      this.funnels.deleteMany({}),
      this.contacts.deleteMany({}),
    ]);
    // Empty records, empty days: they agree, so the next start needs no build.
    await this.markBuilt();
    return { touches: touches.deletedCount, purchases: purchases.deletedCount };
  }
}
