import mongoose from 'mongoose';
import { parse } from 'csv-parse/sync';
import { BadRequestError, NotFoundError } from '../errors';
import { LOW_POOL, type PoolSummary } from '@act/contracts/src/incentives-api';
import { CODE_MESSAGE, CODE_PATTERN } from './config';
import type { IncentiveModels, IncentivePoolDoc } from './model';

/** One upload's codes at most (the request body's limit comes first for long codes). */
export const MAX_POOL_UPLOAD = 100_000;

export { LOW_POOL, type PoolSummary } from '@act/contracts/src/incentives-api';

/**
 * Codes from a CSV: the first column of each row, a header row (`code`, `coupon`, ...) left out, blanks and repeats
 * dropped. Any other code is refused with its line, so nobody uploads half a list by mistake.
 */
export function codesFromCsv(csv: string): string[] {
  let rows: string[][];
  try {
    rows = parse(csv, { skip_empty_lines: true, relax_column_count: true, trim: true, bom: true }) as string[][];
  } catch (err) {
    throw new BadRequestError(`The CSV could not be read: ${(err as Error).message}`);
  }
  const codes = new Set<string>();
  rows.forEach((row, i) => {
    const code = (row[0] ?? '').trim();
    if (!code) return;
    if (i === 0 && /^(discount[ _-]?)?(code|coupon)s?$/i.test(code)) return;
    if (!CODE_PATTERN.test(code)) throw new BadRequestError(`Line ${i + 1}: "${code.slice(0, 70)}": ${CODE_MESSAGE}`);
    codes.add(code);
  });
  if (codes.size === 0) throw new BadRequestError('The CSV holds no codes');
  if (codes.size > MAX_POOL_UPLOAD) throw new BadRequestError(`At most ${MAX_POOL_UPLOAD} codes per upload`);
  return [...codes];
}

const poolObjectId = (id: string) => (/^[0-9a-f]{24}$/.test(id) ? new mongoose.Types.ObjectId(id) : null);

/** Uploaded code pools: each code is handed out once, whatever the number of instances sending. */
export class IncentivePools {
  constructor(private readonly m: IncentiveModels) {}

  async create(name: string, csv: string, at = new Date()): Promise<PoolSummary> {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 100) throw new BadRequestError('Pool name is required (at most 100 characters)');
    const codes = codesFromCsv(csv);
    const _id = new mongoose.Types.ObjectId();
    await this.m.Code.collection.insertMany(
      codes.map((code, seq) => ({ pool_id: String(_id), seq, code, owner: null, claimed_at: null })),
      { ordered: false },
    );
    // The pool last: a claim finds it only once every place holds its code.
    const pool = { _id, name: trimmed, total: codes.length, next_seq: 0, left: codes.length, created_at: at };
    await this.m.Pool.collection.insertOne(pool);
    return this.summary(pool);
  }

  async list(): Promise<PoolSummary[]> {
    const pools = await this.m.Pool.find().sort({ created_at: -1 }).limit(200).lean<IncentivePoolDoc[]>();
    return Promise.all(pools.map((p) => this.summary(p)));
  }

  async get(id: string): Promise<PoolSummary> {
    const _id = poolObjectId(id);
    const pool = _id ? await this.m.Pool.findById(_id).lean<IncentivePoolDoc>() : null;
    if (!pool) throw new NotFoundError('Code pool not found');
    return this.summary(pool);
  }

  async remaining(poolId: string): Promise<number> {
    const _id = poolObjectId(poolId);
    const pool = _id && (await this.m.Pool.collection.findOne({ _id }, { projection: { _id: 0, left: 1 } }));
    if (!pool) return 0;
    return typeof pool.left === 'number' ? pool.left : this.countFree(poolId);
  }

  /**
   * The code of this owner (a retry gets the one it was given), else the code at the pool's next place: the place is
   * handed out by one atomic update of the pool's counter, so two instances never get the same one, and every read
   * and write after it is by exact key. The owner's place is recorded before its code is taken: a crash between the
   * two leaves the retry the same code; a crash between the counter and that record skips one code (never given to
   * anyone, no longer counted as remaining). null: the pool is empty.
   */
  async claim(poolId: string, owner: string, at = new Date()): Promise<string | null> {
    const held = await this.m.Claim.collection.findOne({ pool_id: poolId, owner }, { projection: { _id: 0, seq: 1 } });
    let seq = held ? (held.seq as number) : null;
    let moving = false;
    for (;;) {
      if (seq === null) {
        const next = await this.nextPlace(poolId);
        if (next === 'unplaced') return this.claimUnplaced(poolId, owner, at);
        if (next === null) return moving ? null : this.heldMeanwhile(poolId, owner, at);
        seq = await this.hold(poolId, owner, next, moving, at);
      }
      const code = await this.take(poolId, seq, owner, at);
      if (code !== null) return code;
      // Someone else holds the code at this place: an instance that claims by owner (before places) took it.
      seq = null;
      moving = true;
    }
  }

  /**
   * Codes for a burst's owners in one pool, in four round trips whatever their number: the burst's places are handed
   * out by one update of the pool's counter, recorded in one insert, their codes taken in one bulk write by exact
   * key and read back in one read. An owner who holds a place already (a retry after a crash between its place and
   * its grant) keeps its own, and the place reserved for it is skipped, as a crash's is. Fewer codes left than
   * owners, a pool uploaded before places, and a place whose code someone else holds go one owner at a time (`claim`).
   */
  async claimMany(poolId: string, owners: string[], at = new Date()): Promise<Map<string, string | null>> {
    const unique = [...new Set(owners)];
    const out = new Map<string, string | null>();
    const oneByOne = (list: string[]) => Promise.all(list.map(async (o) => void out.set(o, await this.claim(poolId, o, at))));
    const first = unique.length > 1 ? await this.reservePlaces(poolId, unique.length) : null;
    if (first === null) {
      await oneByOne(unique);
      return out;
    }
    const seqOf = new Map(unique.map((owner, i) => [owner, first + i]));
    for (const owner of await this.holdMany(poolId, seqOf, at)) {
      const held = await this.m.Claim.collection.findOne({ pool_id: poolId, owner }, { projection: { _id: 0, seq: 1 } });
      if (held) seqOf.set(owner, held.seq as number);
      else seqOf.delete(owner);
    }
    const places = [...seqOf];
    if (places.length > 0)
      await this.m.Code.collection.bulkWrite(
        places.map(([owner, seq]) => ({ updateOne: { filter: { pool_id: poolId, seq, owner: null }, update: { $set: { owner, claimed_at: at } } } })),
        { ordered: false },
      );
    const rows = places.length
      ? await this.m.Code.collection.find({ pool_id: poolId, seq: { $in: places.map(([, seq]) => seq) } }, { projection: { _id: 0, seq: 1, code: 1, owner: 1 } }).toArray()
      : [];
    const atPlace = new Map(rows.map((r) => [r.seq as number, r]));
    const astray = unique.filter((owner) => {
      const row = atPlace.get(seqOf.get(owner) ?? -1);
      if (row?.owner !== owner) return true;
      out.set(owner, row.code as string);
      return false;
    });
    await oneByOne(astray);
    return out;
  }

  /** `count` places at once, moving the counter on by as many; null: fewer left, or a pool uploaded before places. */
  private async reservePlaces(poolId: string, count: number): Promise<number | null> {
    const _id = poolObjectId(poolId);
    if (!_id) return null;
    const before = await this.m.Pool.collection.findOneAndUpdate(
      { _id, left: { $gte: count } },
      { $inc: { left: -count, next_seq: count } },
      { returnDocument: 'before', projection: { _id: 0, next_seq: 1 } },
    );
    return before ? (before.next_seq as number) : null;
  }

  /** Records the owners' places in one insert; the owners who held one already (their insert met the unique index). */
  private async holdMany(poolId: string, seqOf: Map<string, number>, at: Date): Promise<string[]> {
    const docs = [...seqOf].map(([owner, seq]) => ({ pool_id: poolId, owner, seq, claimed_at: at }));
    try {
      await this.m.Claim.collection.insertMany(docs, { ordered: false });
      return [];
    } catch (err) {
      const writeErrors = (err as { writeErrors?: { index: number; code: number }[] | { index: number; code: number } }).writeErrors;
      const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
      if (list.length === 0 || list.some((e) => e.code !== 11000)) throw err;
      return list.map((e) => docs[e.index]!.owner);
    }
  }

  /** The pool is empty: the code of another attempt of this owner that took the last place meanwhile, or none. */
  private async heldMeanwhile(poolId: string, owner: string, at: Date): Promise<string | null> {
    const held = await this.m.Claim.collection.findOne({ pool_id: poolId, owner }, { projection: { _id: 0, seq: 1 } });
    return held ? this.take(poolId, held.seq as number, owner, at) : null;
  }

  /** The pool's next place, moving its counter on; null: none left; 'unplaced': a pool uploaded before places. */
  private async nextPlace(poolId: string): Promise<number | null | 'unplaced'> {
    const _id = poolObjectId(poolId);
    if (!_id) return null;
    const before = await this.m.Pool.collection.findOneAndUpdate(
      { _id, left: { $gt: 0 } },
      { $inc: { left: -1, next_seq: 1 } },
      { returnDocument: 'before', projection: { _id: 0, next_seq: 1 } },
    );
    if (before) return before.next_seq as number;
    const pool = await this.m.Pool.collection.findOne({ _id }, { projection: { _id: 0, left: 1 } });
    return pool && typeof pool.left !== 'number' ? 'unplaced' : null;
  }

  /**
   * Records the owner's place; the place it holds (another attempt of the same owner, at the same time, may have
   * recorded its own first: both then take that one, and this place's code is skipped).
   */
  private async hold(poolId: string, owner: string, seq: number, moving: boolean, at: Date): Promise<number> {
    const filter = { pool_id: poolId, owner };
    const update = moving ? { $set: { seq, claimed_at: at } } : { $setOnInsert: { seq, claimed_at: at } };
    for (let attempt = 0; ; attempt++) {
      try {
        const doc = await this.m.Claim.collection.findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'after', projection: { _id: 0, seq: 1 } });
        return doc!.seq as number;
      } catch (err) {
        // Two upserts of one owner at once: the other inserted it; read again.
        if ((err as { code?: number }).code !== 11000 || attempt > 0) throw err;
      }
    }
  }

  /** The code at this place, taken for the owner; null: it is someone else's. */
  private async take(poolId: string, seq: number, owner: string, at: Date): Promise<string | null> {
    const taken = await this.m.Code.collection.findOneAndUpdate(
      { pool_id: poolId, seq, owner: null },
      { $set: { owner, claimed_at: at } },
      { returnDocument: 'after', projection: { _id: 0, code: 1 } },
    );
    if (taken) return taken.code as string;
    const there = await this.m.Code.collection.findOne({ pool_id: poolId, seq }, { projection: { _id: 0, code: 1, owner: 1 } });
    return there?.owner === owner ? (there.code as string) : null;
  }

  /** A pool uploaded before places: its owner's code, else a free one, each found through { pool_id, owner }. */
  private async claimUnplaced(poolId: string, owner: string, at: Date): Promise<string | null> {
    const mine = await this.m.Code.collection.findOne({ pool_id: poolId, owner }, { projection: { _id: 0, code: 1 } });
    if (mine) return mine.code as string;
    const taken = await this.m.Code.collection.findOneAndUpdate(
      { pool_id: poolId, owner: null },
      { $set: { owner, claimed_at: at } },
      { returnDocument: 'after', projection: { _id: 0, code: 1 } },
    );
    return (taken?.code as string | undefined) ?? null;
  }

  private countFree(poolId: string): Promise<number> {
    return this.m.Code.countDocuments({ pool_id: poolId, owner: null });
  }

  private async summary(p: Pick<IncentivePoolDoc, '_id' | 'name' | 'total' | 'left' | 'created_at'>): Promise<PoolSummary> {
    const remaining = typeof p.left === 'number' ? p.left : await this.countFree(String(p._id));
    return { id: String(p._id), name: p.name, total: p.total, remaining, low: remaining < LOW_POOL, created_at: p.created_at.toISOString() };
  }
}
