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

/** Uploaded code pools: each code is handed out once, whatever the number of instances sending. */
export class IncentivePools {
  constructor(private readonly m: IncentiveModels) {}

  async create(name: string, csv: string, at = new Date()): Promise<PoolSummary> {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 100) throw new BadRequestError('Pool name is required (at most 100 characters)');
    const codes = codesFromCsv(csv);
    const _id = new mongoose.Types.ObjectId();
    await this.m.Code.collection.insertMany(
      codes.map((code) => ({ pool_id: String(_id), code, owner: null, claimed_at: null })),
      { ordered: false },
    );
    await this.m.Pool.collection.insertOne({ _id, name: trimmed, total: codes.length, created_at: at });
    return this.summary({ _id, name: trimmed, total: codes.length, created_at: at });
  }

  async list(): Promise<PoolSummary[]> {
    const pools = await this.m.Pool.find().sort({ created_at: -1 }).limit(200).lean<IncentivePoolDoc[]>();
    return Promise.all(pools.map((p) => this.summary(p)));
  }

  async get(id: string): Promise<PoolSummary> {
    const pool = /^[0-9a-f]{24}$/.test(id) ? await this.m.Pool.findById(id).lean<IncentivePoolDoc>() : null;
    if (!pool) throw new NotFoundError('Code pool not found');
    return this.summary(pool);
  }

  remaining(poolId: string): Promise<number> {
    return this.m.Code.countDocuments({ pool_id: poolId, owner: null });
  }

  /**
   * The code of this owner (a retry gets the one it was given), else a free one taken by one atomic update: two
   * instances never get the same code. null: the pool is empty.
   */
  async claim(poolId: string, owner: string, at = new Date()): Promise<string | null> {
    const mine = await this.m.Code.collection.findOne({ pool_id: poolId, owner }, { projection: { _id: 0, code: 1 } });
    if (mine) return mine.code as string;
    const taken = await this.m.Code.collection.findOneAndUpdate(
      { pool_id: poolId, owner: null },
      { $set: { owner, claimed_at: at } },
      { returnDocument: 'after', projection: { _id: 0, code: 1 } },
    );
    return (taken?.code as string | undefined) ?? null;
  }

  private async summary(p: Pick<IncentivePoolDoc, '_id' | 'name' | 'total' | 'created_at'>): Promise<PoolSummary> {
    const remaining = await this.remaining(String(p._id));
    return { id: String(p._id), name: p.name, total: p.total, remaining, low: remaining < LOW_POOL, created_at: p.created_at.toISOString() };
  }
}
