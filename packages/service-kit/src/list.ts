/**
 * Paged lists of both services (moved here from svc-email so svc-sms reads its pages the same way): the query's
 * validation (`?page=&pageSize=&sort=`, a search text) and the read of one page with its total.
 */
import type { Collection, Document, Filter, Sort } from 'mongodb';
import { BadRequestError } from './errors';
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
  /** Second sort key for rows equal on the sort field (default `_id`; svc-sms orders ties by its numeric `id`). */
  tieBreak?: string;
  /** Fields no two rows share (a unique index): sorted by themselves, so that index serves the order. */
  unique?: readonly string[];
  maxPageSize?: number;
  /** Page size when none is asked for (default 25, the email side's). */
  defaultPageSize?: number;
  /** When set, the only page sizes accepted (the SMS side's 25, 50, 100, 250, 500). */
  pageSizes?: readonly number[];
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
  const pageSize = positiveInt(query.pageSize, 'pageSize') ?? opts.defaultPageSize ?? 25;
  if (opts.pageSizes && !opts.pageSizes.includes(pageSize)) {
    throw new BadRequestError(`pageSize must be one of: ${opts.pageSizes.join(', ')}`);
  }
  const max = opts.maxPageSize ?? 1000;
  if (pageSize > max) throw new BadRequestError(`pageSize must be at most ${max}`);
  let sort = opts.defaultSort;
  const raw = query.sort;
  if (raw !== undefined && raw !== '') {
    if (typeof raw !== 'string') throw new BadRequestError('sort must be a field name');
    const m = /^(-)?([a-z_]+)(?::(asc|desc))?$/.exec(raw);
    if (!m || !opts.sortable.includes(m[2]!))
      throw new BadRequestError(`sort must be one of: ${opts.sortable.join(', ')}`);
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
  /**
   * The filter's count when the caller has it anyway (from a summary it reads alongside, hence a promise too):
   * no count query then.
   */
  knownTotal?: number | Promise<number>,
): Promise<R[] | Paged<R>> {
  const { field, dir } = q.sort;
  const tie = opts.tieBreak ?? '_id';
  const order: Sort = field === tie || opts.unique?.includes(field) ? { [field]: dir } : { [field]: dir, [tie]: dir };
  const paged = q.page !== null;
  const skip = paged ? (q.page! - 1) * q.pageSize : 0;
  const limit = paged ? q.pageSize : 0;
  let docs: T[];
  let total = 0;

  if (!opts.nullable?.includes(field)) {
    const cursor = coll.find(filter, { projection }).sort(order);
    if (paged) cursor.skip(skip).limit(limit);
    const count = !paged ? 0 : (knownTotal ?? coll.countDocuments(filter));
    [docs, total] = await Promise.all([cursor.toArray() as Promise<T[]>, count]);
  } else {
    // $and, not a spread: the filter may name the sort field itself (integration_id=3 sorted by integration_id).
    const withValue = { $and: [filter, { [field]: { $ne: null } }] } as Filter<T>;
    const withoutValue = { $and: [filter, { [field]: null }] } as Filter<T>;
    const fallback: Sort = { [opts.defaultSort.field]: opts.defaultSort.dir, [tie]: opts.defaultSort.dir };
    if (!paged) {
      const [a, b] = await Promise.all([
        coll.find(withValue, { projection }).sort(order).toArray(),
        coll.find(withoutValue, { projection }).sort(fallback).toArray(),
      ]);
      docs = [...a, ...b] as T[];
    } else {
      // The rows with a value are the total less those without: `field: null` is an equality an index bound serves.
      const [nulls, all] = await Promise.all([
        coll.countDocuments(withoutValue),
        knownTotal ?? coll.countDocuments(filter),
      ]);
      const valued = Math.max(0, all - nulls);
      total = all;
      docs =
        skip < valued
          ? ((await coll.find(withValue, { projection }).sort(order).skip(skip).limit(limit).toArray()) as T[])
          : [];
      const rest = limit - docs.length;
      if (rest > 0 && all > valued) {
        const more = await coll
          .find(withoutValue, { projection })
          .sort(fallback)
          .skip(Math.max(0, skip - valued))
          .limit(rest)
          .toArray();
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

/** The longest search text a list accepts (a longer one cannot be a substring of any stored field worth finding). */
export const MAX_SEARCH_LENGTH = 200;

/**
 * `?search=`: a plain text, trimmed; null when absent or blank. Anything but one string (an array from
 * `?search=a&search=b`, an over-long text) is a 400, never a query operator.
 */
export function parseSearch(raw: unknown, label = 'search'): string | null {
  if (raw === undefined) return null;
  if (typeof raw !== 'string') throw new BadRequestError(`${label} must be a single text`);
  const text = raw.trim();
  if (text.length > MAX_SEARCH_LENGTH)
    throw new BadRequestError(`${label} must be at most ${MAX_SEARCH_LENGTH} characters`);
  return text === '' ? null : text;
}

/** Every regular-expression metacharacter of `text` escaped, so it matches itself and nothing more. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * A case-insensitive substring match of `text` on any of `fields` (the browser's `includes` on lower-cased
 * values): an `$or` of escaped regular expressions. Only a string ever reaches the pattern.
 */
export function substringFilter(text: string, fields: readonly string[]): Document {
  const pattern = new RegExp(escapeRegex(text), 'i');
  return { $or: fields.map((f) => ({ [f]: pattern })) };
}
