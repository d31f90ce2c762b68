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
  type Channel,
  type Touch,
} from '@act/contracts/src/attribution';
import { randomUUID } from 'node:crypto';
import type { AnyBulkWriteOperation } from 'mongodb';
import { isDuplicateKeyError } from '../errors';
import { nextId } from '../mongo';
import { createBatcher } from '../batcher';
import {
  campaignDayId,
  campaignField,
  campaignRemindedOf,
  channelRemindedOf,
  dayOf,
  daysIn,
  funnelField,
  linkEntry,
  purchaseDayId,
  purchaseEntry,
  purchasesOf,
  remindedDayId,
  remindedEntry,
  remindedOf,
  type DayDoc,
  type DayPurchase,
} from './days';
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
  /** The sender's checkout this purchase recovered (Stripe's `recovered_from`: the expired session), when it said. */
  recoveredFrom?: string;
}

export type TouchInput = Touch & Buyer;
export type PurchaseInput = Buyer & { amount: number | null; currency: string | null; purchasedAt: Date; source: string; eventId: string; recoveredFrom?: string | null };

const MAX_WINDOW_MS = MAX_WINDOW_DAYS * DAY_MS;
/**
 * The `revenue_days` document that says the day documents were built from the records (no summary reads it). `-2`:
 * since the per-campaign reminded sets (`c|` documents); a ledger marked by the older `built` only is built again.
 */
export const BUILT = 'built-2';
/**
 * The `revenue_funnels` document whose value changes whenever numbers are taken away or renamed (a clear, an erase):
 * every instance reads it with each batch and forgets the numbers it remembers when it changed (funnel ids are
 * JSON, so no funnel is named this).
 */
const EPOCH = 'epoch';
/** Numbers remembered per instance (~150 bytes each); funnels are few. */
const MAX_CACHED_CONTACTS = 100_000;
const MAX_CACHED_FUNNELS = 10_000;

/** A touch as a batch writes it: its record and its names. */
interface TouchItem {
  touch: Touch;
  keys: string[];
  who: string;
}

/** Duplicate-key failures of an unordered bulk write: the indexes of the operations that failed so (else null). */
function duplicateIndexes(err: unknown): number[] | null {
  const errors = [(err as { writeErrors?: { code?: number; index?: number }[] | { code?: number; index?: number } }).writeErrors ?? []].flat();
  if (errors.length === 0 || !errors.every((e) => e.code === 11000 && typeof e.index === 'number')) return null;
  return errors.map((e) => e.index!);
}

/** Funnel and contact numbers once read or drawn (immutable while the epoch stays), bounded, oldest out first. */
class NumberCache {
  /** The epoch the numbers belong to; undefined before the first read. */
  epoch: string | null | undefined = undefined;
  /** Bumped by every reset: a lookup begun before one does not store what it found. */
  generation = 0;
  readonly funnels = new Map<string, number>();
  readonly contacts = new Map<string, number>();

  reset(epoch?: string | null): void {
    this.funnels.clear();
    this.contacts.clear();
    this.epoch = epoch;
    this.generation++;
  }

  store(map: Map<string, number>, id: string, n: number, max: number): void {
    if (map.size >= max && !map.has(id)) map.delete(map.keys().next().value!);
    map.set(id, n);
  }
}

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

  private readonly cache = new NumberCache();

  /** Touch batches written and the touches in them (tests: a burst goes in batches). */
  readonly touchBatches = { batches: 0, touches: 0 };

  /**
   * The numbers of the funnels and contacts of a batch of touches: the remembered ones, the rest with one `$in` read
   * per kind (the funnel read also brings the epoch, so a clear or an erase seen by another instance reaches this one
   * with its next batch), and the ones never seen drawn with one counter step per kind. Two first sights at once
   * (another instance) both draw; the unique `_id` keeps one and the other reads it (numbers only grow, so one freed
   * by a clear is never given again).
   */
  private async numbersOf(pairs: { funnelId: string | null; who: string }[]): Promise<{ funnel: Map<string, number>; contact: Map<string, number> }> {
    const funnelIds = new Map(pairs.map((p) => [JSON.stringify(p.funnelId), p.funnelId] as const));
    const contactIds = [...new Set(pairs.map((p) => remindedEntry(p.funnelId, p.who)))];
    for (let attempt = 0; ; attempt++) {
      const { cache } = this;
      let generation = cache.generation;
      const funnel = new Map<string, number>();
      const contact = new Map<string, number>();
      for (const id of funnelIds.keys()) {
        const n = cache.funnels.get(id);
        if (n !== undefined) funnel.set(id, n);
      }
      for (const id of contactIds) {
        const n = cache.contacts.get(id);
        if (n !== undefined) contact.set(id, n);
      }
      const missC = contactIds.filter((id) => !contact.has(id));
      const [fdocs, cdocs] = await Promise.all([
        this.funnels.find({ _id: { $in: [EPOCH, ...[...funnelIds.keys()].filter((id) => !funnel.has(id))] } }).toArray(),
        missC.length ? this.contacts.find({ _id: { $in: missC } }, { projection: { n: 1 } }).toArray() : Promise.resolve([]),
      ]);
      const epoch = (fdocs.find((d) => d._id === EPOCH) as { v?: string } | undefined)?.v ?? null;
      if (cache.epoch !== epoch) {
        // Cleared or renamed since these were remembered (or the first batch): forget them all; what came from memory
        // is looked up again.
        if (cache.generation === generation) {
          cache.reset(epoch);
          generation = cache.generation;
        }
        if ((funnel.size > 0 || contact.size > 0) && attempt < 3) continue;
      }
      for (const d of fdocs) if (d._id !== EPOCH) funnel.set(d._id, d.n);
      for (const d of cdocs) contact.set(d._id, d.n);
      await Promise.all([
        this.draw(this.funnels, 'revenue_funnels', [...funnelIds.keys()].filter((id) => !funnel.has(id)), funnel, (id, n) => ({ _id: id, n, funnelId: funnelIds.get(id)! })),
        this.draw(this.contacts as unknown as typeof this.funnels, 'revenue_contacts', contactIds.filter((id) => !contact.has(id)), contact, (id, n) => ({ _id: id, n }) as never),
      ]);
      // Remembered only if nothing was reset meanwhile (a clear here, or another batch that saw a new epoch).
      if (cache.generation === generation && cache.epoch === epoch) {
        for (const [id, n] of funnel) cache.store(cache.funnels, id, n, MAX_CACHED_FUNNELS);
        for (const [id, n] of contact) cache.store(cache.contacts, id, n, MAX_CACHED_CONTACTS);
      }
      return { funnel, contact };
    }
  }

  /** Numbers for ids seen the first time: one counter step for all, one unordered insert; a lost race reads the winner's. */
  private async draw(
    coll: Collection<{ _id: string; n: number; funnelId: string | null }>,
    counter: string,
    ids: string[],
    into: Map<string, number>,
    doc: (id: string, n: number) => { _id: string; n: number; funnelId: string | null },
  ): Promise<void> {
    if (ids.length === 0) return;
    const first = await nextId(this.conn, counter, ids.length);
    let lost: string[] = [];
    try {
      await coll.insertMany(
        ids.map((id, i) => doc(id, first + i)),
        { ordered: false },
      );
    } catch (err) {
      const failed = duplicateIndexes(err) ?? (isDuplicateKeyError(err) && ids.length === 1 ? [0] : null);
      if (!failed) throw err;
      lost = failed.map((i) => ids[i]!);
    }
    ids.forEach((id, i) => into.set(id, first + i));
    if (lost.length === 0) return;
    const winners = await coll.find({ _id: { $in: lost } }, { projection: { n: 1 } }).toArray();
    for (const w of winners) into.set(w._id, w.n);
    // Taken and gone again (a clear between the two): the batch fails and its events come again.
    if (winners.length !== lost.length) throw new Error(`${counter}: a number neither drawn nor found; the batch goes again`);
  }

  /** Forgets the numbers this instance remembers (the others see the epoch change, or hear the clear). */
  forgetNumbers(): void {
    this.cache.reset();
  }

  /**
   * Numbers were taken away or renamed (an erase renames reminded contacts): every instance forgets the numbers it
   * remembers, this one now, the others with their next batch (they read the epoch with it).
   */
  async numbersChanged(): Promise<void> {
    await this.funnels.updateOne({ _id: EPOCH }, { $set: { v: randomUUID() } as never }, { upsert: true }).catch((err: unknown) => {
      if (!isDuplicateKeyError(err)) throw err;
    });
    this.cache.reset();
  }

  /** The reminded entries of some touches: per funnel (`r|` documents) and per funnel and campaign (`c|`). */
  private async addReminded(items: { touch: Touch; who: string }[]): Promise<void> {
    if (items.length === 0) return;
    const { funnel, contact } = await this.numbersOf(items.map((i) => ({ funnelId: i.touch.funnelId, who: i.who })));
    const adds = new Map<string, Record<string, (string | number)[]>>();
    const add = (id: string, field: string, v: number) => {
      let doc = adds.get(id);
      if (!doc) adds.set(id, (doc = {}));
      (doc[field] ??= []).push(v);
    };
    for (const { touch, who } of items) {
      const k = funnel.get(JSON.stringify(touch.funnelId))!;
      const n = contact.get(remindedEntry(touch.funnelId, who))!;
      const day = dayOf(touch.sentAt);
      add(remindedDayId(day), funnelField(k), n);
      add(campaignDayId(day), campaignField(k, touch.channel, touch.campaignId), n);
    }
    await this.addToDays(adds);
  }

  async init(): Promise<void> {
    await Promise.all([
      this.touches.createIndex({ keys: 1, sentAt: 1 }),
      this.touches.createIndex({ sentAt: 1, funnelId: 1 }),
      // A campaign's experiment results: its touches and holdout marks.
      this.touches.createIndex({ campaignId: 1, channel: 1 }),
      this.purchases.createIndex({ fingerprint: 1, purchasedAt: 1 }),
      this.purchases.createIndex({ buyerKeys: 1, purchasedAt: 1 }),
      this.purchases.createIndex({ purchasedAt: 1, funnelId: 1 }),
      // The list of recent attributed purchases (recent.ts), newest first, on all funnels or one.
      this.purchases.createIndex({ purchasedAt: -1, _id: -1 }),
      this.purchases.createIndex({ funnelId: 1, purchasedAt: -1, _id: -1 }),
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

  /**
   * Records a touch. Touches recorded at once (the consumer hands a gathered group over together) go as one batch:
   * one read of the numbers (none when remembered, but the epoch), one bulk write of the day documents, one of the
   * records, one read of the purchases they may belong to, one write of the links: a handful of round trips for up to
   * 500 sends, where each send took five to eight.
   */
  recordTouch(input: TouchInput): Promise<void> {
    return this.touchBatch(input);
  }

  private readonly touchBatch = createBatcher<TouchInput, void>(async (inputs) => {
    await this.recordTouches(inputs);
    return inputs.map(() => undefined);
  });

  private async recordTouches(inputs: TouchInput[]): Promise<void> {
    const byKey = new Map<string, TouchItem>();
    for (const input of inputs) {
      const keys = buyerKeys(input);
      if (keys.length === 0) continue;
      const touch = makeTouch(input);
      if (!byKey.has(touch.key)) byKey.set(touch.key, { touch, keys, who: keys[0]! });
    }
    const items = [...byKey.values()];
    if (items.length === 0) return;
    this.touchBatches.batches++;
    this.touchBatches.touches += items.length;
    // Reminded first, before the record a purchase finds the touch by: a summary read meanwhile never shows a
    // purchase recovered by a contact it does not yet count as reminded (a recovery rate over 100%).
    // A simulated touch (only logged) reminded nobody: it is recorded and linked, never counted as reminded. A holdout
    // mark reminded nobody either, and is never credited: recorded only (experiment results read it from the records).
    await this.addReminded(items.filter((i) => !i.touch.simulated && !i.touch.holdout));
    try {
      await this.touches.bulkWrite(
        items.map(({ touch, keys, who }) => ({ updateOne: { filter: { _id: touch.key }, update: { $setOnInsert: { ...touch, keys, who } }, upsert: true } })),
        { ordered: false },
      );
    } catch (err) {
      // Two upserts of one send at once (another instance): the record is there either way.
      if (!duplicateIndexes(err) && !isDuplicateKeyError(err)) throw err;
    }
    // The purchases any of them may belong to, in one read; each touch then takes those of its buyer and window.
    const linkable = items.filter((i) => !i.touch.holdout);
    if (linkable.length === 0) return;
    let lo = Infinity;
    let hi = -Infinity;
    for (const { touch } of linkable) {
      lo = Math.min(lo, touch.sentAt.getTime());
      hi = Math.max(hi, touch.sentAt.getTime());
    }
    const candidates = await this.purchases
      .find(
        { buyerKeys: { $in: [...new Set(linkable.flatMap((i) => i.keys))] }, purchasedAt: { $gte: new Date(lo), $lte: new Date(hi + MAX_WINDOW_MS) } },
        { projection: { _id: 1, purchasedAt: 1, buyerKeys: 1 } },
      )
      .toArray();
    if (candidates.length === 0) return;
    const touchesOf = new Map<string, Touch[]>();
    const links = new Map<string, Record<string, string[]>>();
    for (const { touch, keys } of linkable) {
      const t = touch.sentAt.getTime();
      for (const p of candidates) {
        const at = p.purchasedAt.getTime();
        if (at < t || at > t + MAX_WINDOW_MS || !p.buyerKeys.some((k) => keys.includes(k))) continue;
        let ts = touchesOf.get(p._id);
        if (!ts) touchesOf.set(p._id, (ts = []));
        ts.push(touch);
        const day = purchaseDayId(dayOf(p.purchasedAt));
        let doc = links.get(day);
        if (!doc) links.set(day, (doc = { l: [] }));
        doc.l!.push(linkEntry(p._id, touch));
      }
    }
    if (touchesOf.size === 0) return;
    await Promise.all([
      this.purchases.bulkWrite(
        [...touchesOf].map(([id, ts]) => ({ updateOne: { filter: { _id: id }, update: { $addToSet: { touches: { $each: ts } } } } })),
        { ordered: false },
      ),
      this.addToDays(links),
    ]);
  }

  /**
   * Adds set members to day documents, creating them if needed, in one unordered bulk write (two first writers of a
   * day document at once: the loser's operations go again).
   */
  private async addToDays(adds: Map<string, Record<string, (string | number)[]>>): Promise<void> {
    let ops: AnyBulkWriteOperation<DayDoc>[] = [];
    for (const [id, add] of adds) {
      const set = Object.fromEntries(
        Object.entries(add)
          .filter(([, v]) => v.length)
          .map(([k, v]) => [k, { $each: [...new Set(v)] }]),
      );
      if (Object.keys(set).length) ops.push({ updateOne: { filter: { _id: id }, update: { $addToSet: set } as never, upsert: true } });
    }
    for (let attempt = 0; ops.length; attempt++) {
      try {
        await this.days.bulkWrite(ops, { ordered: false });
        return;
      } catch (err) {
        const failed = duplicateIndexes(err) ?? (isDuplicateKeyError(err) && ops.length === 1 ? [0] : null);
        if (!failed || attempt >= 2) throw err;
        ops = failed.map((i) => ops[i]!);
      }
    }
  }

  private addToDay(id: string, add: Record<string, (string | number)[]>): Promise<void> {
    return this.addToDays(new Map([[id, add]]));
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
        { $addToSet: { heardFrom: p.source, buyerKeys: { $each: keys } }, ...(p.recoveredFrom ? { $set: { recoveredFrom: p.recoveredFrom } } : {}) },
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
          ...(p.recoveredFrom ? { recoveredFrom: p.recoveredFrom } : {}),
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
    // A holdout mark is no reminder: a purchase never holds it.
    return found.filter((t) => !t.holdout).map(makeTouch);
  }

  /**
   * A person's sends on either channel since `since` (the frequency cap's lookback), by their names: served by the
   * `{ keys: 1, sentAt: 1 }` index.
   */
  async touchesSince(keys: string[], since: Date): Promise<(Touch & { keys: string[] })[]> {
    if (keys.length === 0) return [];
    const found = await this.touches
      .find({ keys: { $in: keys }, sentAt: { $gt: since } }, { projection: { _id: 0, who: 0 } })
      .toArray();
    // A holdout mark is no send.
    return found.filter((t) => !t.holdout).map((t) => ({ ...makeTouch(t), keys: t.keys }));
  }

  /** The purchases made in the range (UTC days) with their touches: one read of the range's day documents by `_id`. */
  async purchasesIn(from: Date, until: Date, funnelId?: string | null): Promise<SummaryPurchase[]> {
    const docs = await this.days.find({ _id: { $in: daysIn(from, until).map(purchaseDayId) } }).toArray();
    return purchasesOf(docs, funnelId);
  }

  /** Distinct contacts reminded in the range, per funnel: the union of the range's reminded-day sets. */
  async remindedIn(from: Date, until: Date, funnelId?: string | null): Promise<Map<string | null, number>> {
    const funnels = await this.funnelNumbers(funnelId);
    if (funnels.size === 0) return new Map();
    const projection = Object.fromEntries([...funnels.keys()].map((k) => [funnelField(k), 1]));
    const docs = await this.days.find({ _id: { $in: daysIn(from, until).map(remindedDayId) } }, { projection }).toArray();
    return remindedOf(docs, funnels);
  }

  /**
   * Distinct contacts reminded in the range per campaign (`channel|campaignId`, as campaignKey), on one funnel or all:
   * the union of the range's per-campaign sets (`c|` documents).
   */
  async campaignRemindedIn(from: Date, until: Date, funnelId?: string | null): Promise<Map<string, number>> {
    const funnels = await this.funnelNumbers(funnelId);
    if (funnels.size === 0) return new Map();
    const docs = await this.days.find({ _id: { $in: daysIn(from, until).map(campaignDayId) } }).toArray();
    return campaignRemindedOf(docs, new Set(funnels.keys()));
  }

  /**
   * Distinct contacts reminded in the range by one channel, per funnel: the union of that channel's per-campaign sets
   * (a side that shows its own channel only).
   */
  async channelRemindedIn(from: Date, until: Date, channel: Channel, funnelId?: string | null): Promise<Map<string | null, number>> {
    const funnels = await this.funnelNumbers(funnelId);
    if (funnels.size === 0) return new Map();
    const docs = await this.days.find({ _id: { $in: daysIn(from, until).map(campaignDayId) } }).toArray();
    return channelRemindedOf(docs, funnels, channel);
  }

  /** Funnel numbers → funnel ids (one funnel's, with `funnelId`). */
  private async funnelNumbers(funnelId?: string | null): Promise<Map<number, string | null>> {
    const all = (await this.funnels.find({ _id: { $ne: EPOCH } }).toArray()).map((f) => [f.n, f.funnelId] as const);
    return new Map(funnelId === undefined ? all : all.filter(([, f]) => f === funnelId));
  }

  /**
   * The day documents again from the records (a ledger kept before they existed, or before the per-campaign sets).
   * Adds only: entries are sets, so running it beside live writes, or twice, changes nothing that is already right.
   */
  async rebuildDays(): Promise<void> {
    let batch: { touch: Touch; who: string }[] = [];
    for await (const t of this.touches.find({}, { projection: { keys: 0 } })) {
      if (!t.simulated && !t.holdout) batch.push({ touch: makeTouch(t), who: t.who });
      if (batch.length >= 500) {
        await this.addReminded(batch);
        batch = [];
      }
    }
    await this.addReminded(batch);
    for await (const p of this.purchases.find({}, { projection: { funnelId: 1, amount: 1, currency: 1, purchasedAt: 1, touches: 1 } })) {
      const record: DayPurchase = { id: p._id, funnelId: p.funnelId, amount: p.amount, currency: p.currency, purchasedAt: p.purchasedAt };
      const links = (p.touches ?? []).filter((t) => new Date(t.sentAt).getTime() <= p.purchasedAt.getTime()).map((t) => linkEntry(p._id, makeTouch(t)));
      await this.addToDay(purchaseDayId(dayOf(p.purchasedAt)), { p: [purchaseEntry(record)], l: links });
    }
  }

  /** Everything: records, day documents, numbers (Clear All Test Data). */
  async clear(): Promise<{ touches: number; purchases: number }> {
    this.cache.reset();
    const [touches, purchases] = await Promise.all([
      this.touches.deleteMany({}),
      this.purchases.deleteMany({}),
      this.days.deleteMany({}),
      this.funnels.deleteMany({}),
      this.contacts.deleteMany({}),
    ]);
    // After the numbers went: a new epoch, so every instance forgets the numbers it remembers with its next batch.
    await this.numbersChanged();
    // Empty records, empty days: they agree, so the next start needs no build.
    await this.markBuilt();
    return { touches: touches.deletedCount, purchases: purchases.deletedCount };
  }
}
