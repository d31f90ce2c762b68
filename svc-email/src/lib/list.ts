import type { Collection, Document, Filter, Sort } from 'mongodb';
import { BadRequestError } from '@act/service-kit';
import type { Paged } from '@act/contracts/src/email-api';

export interface SortSpec {
  field: string;
  dir: 1 | -1;
}

export interface ListOptions {
  /** Field names a client may sort by. */
  sortable: readonly string[];
  /** Fields that may hold null: sorted with nulls last in both directions (the spec's table rule). */
  nullable?: readonly string[];
  defaultSort: SortSpec;
  maxPageSize?: number;
}

export interface ListQueryParsed {
  page: number | null;
  pageSize: number;
  sort: SortSpec;
}

/** Positive integer query value; capped so skip = (page - 1) × pageSize stays a small exact integer. */
function positiveInt(raw: unknown, label: string, max = 1_000_000): number | null {
  if (raw === undefined || raw === '') return null;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw new BadRequestError(`${label} must be a positive integer`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new BadRequestError(`${label} must be a positive integer`);
  if (n > max) throw new BadRequestError(`${label} must be at most ${max}`);
  return n;
}

/** `?page=&pageSize=&sort=` → validated values; `sort` is `field`, `-field`, `field:asc` or `field:desc`. */
export function parseListQuery(query: Record<string, unknown>, opts: ListOptions): ListQueryParsed {
  const page = positiveInt(query.page, 'page');
  const pageSize = positiveInt(query.pageSize, 'pageSize') ?? 25;
  const max = opts.maxPageSize ?? 1000;
  if (pageSize > max) throw new BadRequestError(`pageSize must be at most ${max}`);
  let sort = opts.defaultSort;
  const raw = query.sort;
  if (raw !== undefined && raw !== '') {
    if (typeof raw !== 'string') throw new BadRequestError('sort must be a field name');
    const m = /^(-)?([a-z_]+)(?::(asc|desc))?$/.exec(raw);
    if (!m || !opts.sortable.includes(m[2]!)) throw new BadRequestError(`sort must be one of: ${opts.sortable.join(', ')}`);
    const dir: 1 | -1 = m[1] === '-' || m[3] === 'desc' ? -1 : 1;
    sort = { field: m[2]!, dir };
  }
  return { page, pageSize, sort };
}

/**
 * Reads a list the way the spec's tables show it: the whole list when no page is asked for, else one page
 * with the total. A nullable sort field is read in two segments (values, then nulls) so nulls come last.
 */
export async function readList<T extends Document, R>(
  coll: Collection<T>,
  filter: Filter<T>,
  projection: Document,
  q: ListQueryParsed,
  opts: ListOptions,
  map: (doc: T) => R,
): Promise<R[] | Paged<R>> {
  const { field, dir } = q.sort;
  const order: Sort = { [field]: dir, _id: dir };
  const paged = q.page !== null;
  const skip = paged ? (q.page! - 1) * q.pageSize : 0;
  const limit = paged ? q.pageSize : 0;
  let docs: T[];
  let total = 0;

  if (!opts.nullable?.includes(field)) {
    const cursor = coll.find(filter, { projection }).sort(order);
    if (paged) cursor.skip(skip).limit(limit);
    [docs, total] = await Promise.all([cursor.toArray() as Promise<T[]>, paged ? coll.countDocuments(filter) : Promise.resolve(0)]);
  } else {
    // $and, not a spread: the filter may name the sort field itself (integration_id=3 sorted by integration_id).
    const withValue = { $and: [filter, { [field]: { $ne: null } }] } as Filter<T>;
    const withoutValue = { $and: [filter, { [field]: null }] } as Filter<T>;
    const fallback: Sort = { [opts.defaultSort.field]: opts.defaultSort.dir, _id: opts.defaultSort.dir };
    if (!paged) {
      const [a, b] = await Promise.all([coll.find(withValue, { projection }).sort(order).toArray(), coll.find(withoutValue, { projection }).sort(fallback).toArray()]);
      docs = [...a, ...b] as T[];
    } else {
      const [valued, all] = await Promise.all([coll.countDocuments(withValue), coll.countDocuments(filter)]);
      total = all;
      docs = skip < valued ? ((await coll.find(withValue, { projection }).sort(order).skip(skip).limit(limit).toArray()) as T[]) : [];
      const rest = limit - docs.length;
      if (rest > 0 && all > valued) {
        const more = await coll.find(withoutValue, { projection }).sort(fallback).skip(Math.max(0, skip - valued)).limit(rest).toArray();
        docs = docs.concat(more as T[]);
      }
    }
  }
  const items = docs.map(map);
  return paged ? { items, total, page: q.page!, pageSize: q.pageSize } : items;
}

/** Dates leave the service as ISO strings. */
export function iso(d: Date | null | undefined): string | null {
  return d ? new Date(d).toISOString() : null;
}
