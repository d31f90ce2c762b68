import type { Collection, Document, Filter } from 'mongodb';
import { BadRequestError, parseListQuery, parseSearch, type ListOptions, type ListQueryParsed } from '@act/service-kit';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '@act/contracts/src/sms-api';

/**
 * The paged form of the SMS lists (GET /api/sms-contacts, /api/sms-logs, /api/sms-webhook-events with `?page=`).
 * Without `page` those routes answer the spec's plain list (newest SMS_LIST_LIMIT rows); with it, one page, its
 * total over the filters and the page's summary cards over every row. Page sizes are section 9's.
 */
export interface SmsPageQuery extends ListQueryParsed {
  page: number;
  search: string | null;
}

/** Newest first, ties by the numeric id: the plain list's order, so both forms list rows alike. */
export function smsListOptions(dateField: string): ListOptions {
  return {
    sortable: [dateField],
    defaultSort: { field: dateField, dir: -1 },
    tieBreak: 'id',
    defaultPageSize: DEFAULT_PAGE_SIZE,
    pageSizes: PAGE_SIZE_OPTIONS,
  };
}

/**
 * `?page=&pageSize=&search=` and the route's own filters, validated; null for the plain list. A filter without
 * `page` is refused rather than ignored: the plain list is never filtered, and answering it would look like one.
 */
export function parseSmsPageQuery(
  query: Record<string, unknown>,
  opts: ListOptions,
  filterKeys: readonly string[],
): SmsPageQuery | null {
  const q = parseListQuery(query, opts);
  const search = parseSearch(query.search);
  if (q.page === null) {
    const given = ['pageSize', 'sort', 'search', ...filterKeys].filter((k) => query[k] !== undefined);
    if (given.length) throw new BadRequestError(`page is required with ${given.join(', ')}`);
    return null;
  }
  return { ...q, page: q.page, search };
}

/** A filter value that must be one of `values` (a single text). */
export function oneOf<T extends string>(raw: unknown, label: string, values: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !values.includes(raw as T)) {
    throw new BadRequestError(`${label} must be one of: ${values.join(', ')}`);
  }
  return raw as T;
}

/**
 * Rows per value of `field` over the collection (those `match` keeps), in one `$group`: the summary cards of a page,
 * and the total when no filter narrows it.
 */
export async function countBy<T extends Document>(coll: Collection<T>, field: string, match: Filter<Document> = {}): Promise<Map<string, number>> {
  const group = { $group: { _id: `$${field}`, n: { $sum: 1 } } };
  const pipeline = Object.keys(match).length ? [{ $match: match }, group] : [group];
  const rows = await coll.aggregate<{ _id: unknown; n: number }>(pipeline).toArray();
  return new Map(rows.map((r) => [String(r._id), r.n]));
}

/** The sum of some (or all) values of a countBy. */
export function sumOf(counts: Map<string, number>, keys?: readonly string[]): number {
  let n = 0;
  for (const [k, v] of counts) if (!keys || keys.includes(k)) n += v;
  return n;
}

/** `a AND b` without spreading (both may name the same field). */
export function and(parts: (Filter<Document> | null | undefined)[]): Filter<Document> {
  const list = parts.filter((p): p is Filter<Document> => !!p && Object.keys(p).length > 0);
  if (list.length === 0) return {};
  return list.length === 1 ? list[0]! : { $and: list };
}
