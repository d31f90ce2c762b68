import type { Collection, ObjectId } from 'mongodb';
import type { Contact, ContactStatus, Paged } from '@act/contracts/src/email-api';
import { createBatcher, type ListOptions, type ListQueryParsed } from '@act/service-kit';
import type { ContactDoc } from './model';

/** One contact as the list needs it: dates as epoch ms, `key` the `_id` as hex (the tie-break of every sort). */
export interface ContactRow {
  key: string;
  id: number;
  contact_id: string;
  email: string;
  created_at: number;
  remind_at: number;
  purchased_at: number | null;
  status: ContactStatus;
  integration_id: number | null;
  /** contact_id and email hold no UTF-16 unit ≥ U+D800, so JS's `<` orders them as MongoDB does. */
  plain: boolean;
}

export interface ContactListFilter {
  status?: ContactStatus;
  integrationId?: number | 'none';
}

export type RowsChange = (rows: Map<number, ContactRow>) => void;

// MongoDB orders strings by their UTF-8 bytes (code points); JS `<` by UTF-16 units. The two differ only when a
// surrogate meets a unit in U+E000-U+FFFF, so only strings holding such units take the slow path.
const HIGH = /[\uD800-\uFFFF]/;

export const ROW_PROJECTION = { _id: 1, id: 1, contact_id: 1, email: 1, created_at: 1, remind_at: 1, purchased_at: 1, status: 1, integration_id: 1 } as const;

type RowSource = Pick<ContactDoc, 'id' | 'contact_id' | 'email' | 'created_at' | 'remind_at' | 'purchased_at' | 'status' | 'integration_id'> & { _id: ObjectId | string };

export function toRow(d: RowSource): ContactRow {
  return {
    plain: !HIGH.test(d.contact_id) && !HIGH.test(d.email),
    key: typeof d._id === 'string' ? d._id : d._id.toHexString(),
    id: d.id,
    contact_id: d.contact_id,
    email: d.email,
    created_at: new Date(d.created_at).getTime(),
    remind_at: new Date(d.remind_at).getTime(),
    purchased_at: d.purchased_at ? new Date(d.purchased_at).getTime() : null,
    status: d.status,
    integration_id: d.integration_id ?? null,
  };
}

function rowToContact(r: ContactRow): Contact {
  return {
    id: r.id,
    contact_id: r.contact_id,
    email: r.email,
    created_at: new Date(r.created_at).toISOString(),
    remind_at: new Date(r.remind_at).toISOString(),
    purchased_at: r.purchased_at === null ? null : new Date(r.purchased_at).toISOString(),
    status: r.status,
    integration_id: r.integration_id,
  };
}

function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  if (!HIGH.test(a) && !HIGH.test(b)) return a < b ? -1 : 1;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** `{ field: dir, _id: dir }` over rows; plain strings, numbers and the hex keys compare natively (a sort of 50,000 rows by email: ~50 ms). */
function comparator(field: keyof ContactRow, dir: 1 | -1): (a: ContactRow, b: ContactRow) => number {
  return (a, b) => {
    const x = a[field] as string | number;
    const y = b[field] as string | number;
    const c = typeof x === 'string' && !(a.plain && b.plain) ? compareStrings(x, y as string) : x < y ? -1 : x > y ? 1 : 0;
    return dir * (c || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  };
}

export interface ContactListViewOptions {
  /** Above this many contacts the view stays off and every list is read from MongoDB (memory bound). 0: always off. */
  maxRows: number;
  /** A copy older than this is read again (behind the requests it still serves), in case a writer died before announcing. */
  maxAgeMs: number;
}

/**
 * The contacts list from memory. On the MongoDB stand-in, every sorted or counted page scans and sorts all
 * 50,000 contacts (about 50-600 ms of its CPU per page, the cause of slow sort and filter clicks); on MongoDB
 * the same page is an index walk, but a page with its count still reads every matching index entry.
 * So each instance keeps one row per contact (about 300 bytes) and sorts and pages them itself.
 *
 * Staying correct with several instances: every write to contacts, on any instance, is followed by a `$inc`
 * of one version document (coalesced: concurrent writes share one) before the write's caller gets its answer.
 * A list request first reads that version (one lookup by `_id`): when it equals the version this copy
 * reflects, the page comes from memory; otherwise the request is answered from MongoDB as before and the copy
 * is read again in the background. The instance's own writes are applied to its copy before they announce
 * their version, so they never force a reload. So a page is never staler than the last announced write:
 * after a webhook or a mark-purchased has answered, the next load shows it, whichever instance serves it.
 * A writer that dies between its write and its `$inc` leaves a change unannounced until the next write
 * anywhere, or at most `maxAgeMs`.
 */
export class ContactListView {
  private rows: Map<number, ContactRow> | null = null;
  /** The announced version this copy reflects (-1: no copy). */
  private known = -1;
  /** Versions this instance's own announcements returned, not yet contiguous with `known`. */
  private readonly own = new Set<number>();
  private loading: Promise<void> | null = null;
  /** Changes made while a reload reads the collection, replayed onto what it read. */
  private buffered: RowsChange[] | null = null;
  private loadedAt = 0;
  private offUntil = 0;
  private bumping = 0;
  private epoch = 0;
  private readonly sorted = new Map<string, { epoch: number; rows: ContactRow[]; nulls?: ContactRow[] }>();

  constructor(
    private readonly coll: Collection<ContactDoc>,
    private readonly meta: Collection<{ _id: string; v: number }>,
    private readonly list: ListOptions,
    private readonly opts: ContactListViewOptions,
  ) {}

  private readonly announce = createBatcher(
    async (items: null[]) => {
      const v = await this.inc();
      return items.map(() => v);
    },
    { maxInFlight: 1 },
  );

  private async inc(): Promise<number> {
    for (let attempt = 0; ; attempt++) {
      try {
        const doc = await this.meta.findOneAndUpdate({ _id: 'contacts' }, { $inc: { v: 1 } }, { upsert: true, returnDocument: 'after' });
        return doc!.v;
      } catch (err) {
        // The first upsert of two instances at once: one loses on the _id key and simply increments again.
        if ((err as { code?: number }).code === 11000 && attempt === 0) continue;
        throw err;
      }
    }
  }

  /** After a write to contacts succeeded: applies it to this copy, then announces it to every instance. */
  async changed(change: RowsChange): Promise<void> {
    if (this.rows) change(this.rows);
    this.buffered?.push(change);
    this.epoch++;
    this.bumping++;
    try {
      const v = await this.announce(null);
      this.own.add(v);
      this.advance();
    } catch (err) {
      // Not announced: other instances may keep their copy until maxAgeMs; this one reads again.
      this.known = -1;
      throw err;
    } finally {
      this.bumping--;
    }
  }

  private advance(): void {
    while (this.known >= 0 && this.own.has(this.known + 1)) this.own.delete(++this.known);
    for (const v of this.own) if (v <= this.known) this.own.delete(v);
  }

  private async version(): Promise<number> {
    return (await this.meta.findOne({ _id: 'contacts' }))?.v ?? 0;
  }

  /** The list from memory, or null when the caller must read MongoDB (no current copy yet). */
  async read(q: ListQueryParsed, filter: ContactListFilter): Promise<Contact[] | Paged<Contact> | null> {
    if (this.opts.maxRows <= 0 || Date.now() < this.offUntil) return null;
    const v = await this.version();
    if (this.rows && v === this.known) {
      // An old copy is still served (it matches every announced write) while a fresh one is read behind it.
      if (Date.now() - this.loadedAt >= this.opts.maxAgeMs) this.startReload();
      return this.serve(q, filter);
    }
    // Our own announcement still on its way back: the copy is newer than `known`, no reason to read it all again.
    if (this.bumping > 0 && this.rows && v > this.known) return null;
    this.startReload();
    return null;
  }

  /**
   * How many contacts match, from memory under the same rule as `read` (the copy reflects every announced write),
   * or null when the caller must ask MongoDB. The revenue summary's "contacts that came in": a count on the stand-in
   * scans every contact (a few hundred ms at 50,000).
   */
  async count(match: (r: ContactRow) => boolean): Promise<number | null> {
    if (this.opts.maxRows <= 0 || Date.now() < this.offUntil) return null;
    const v = await this.version();
    if (!this.rows || v !== this.known) {
      if (!(this.bumping > 0 && this.rows && v > this.known)) this.startReload();
      return null;
    }
    if (Date.now() - this.loadedAt >= this.opts.maxAgeMs) this.startReload();
    let n = 0;
    for (const r of this.rows.values()) if (match(r)) n++;
    return n;
  }

  private startReload(): void {
    this.loading ??= this.reload()
      .catch(() => {
        this.rows = null;
        this.known = -1;
      })
      .finally(() => {
        this.loading = null;
      });
  }

  /** Resolves once a reload in progress (if any) is done; for tests and benchmarks that want the fast path. */
  async settle(): Promise<void> {
    await this.loading;
  }

  private async reload(): Promise<void> {
    this.buffered = [];
    try {
      const v0 = await this.version();
      const rows = new Map<number, ContactRow>();
      const cursor = this.coll.find({}, { projection: ROW_PROJECTION, batchSize: 10_000 });
      for await (const d of cursor) {
        if (rows.size >= this.opts.maxRows) {
          await cursor.close();
          this.rows = null;
          this.known = -1;
          this.offUntil = Date.now() + this.opts.maxAgeMs;
          return;
        }
        const r = toRow(d as unknown as RowSource);
        rows.set(r.id, r);
      }
      for (const change of this.buffered) change(rows);
      this.rows = rows;
      this.known = v0;
      this.advance();
      this.epoch++;
      this.loadedAt = Date.now();
    } finally {
      this.buffered = null;
    }
  }

  private sortedBy(field: keyof ContactRow, dir: 1 | -1): ContactRow[] {
    const id = `${field}:${dir}`;
    const hit = this.sorted.get(id);
    if (hit && hit.epoch === this.epoch) return hit.rows;
    // The same orders as readList: { field: dir, _id: dir }; a nullable field's nulls after, in the default order.
    // Descending is ascending reversed (ties by _id reverse too), so a direction toggle costs no second sort.
    let asc = this.sorted.get(`${field}:asc`);
    if (!asc || asc.epoch !== this.epoch) {
      const all = [...this.rows!.values()];
      const nullable = this.list.nullable?.includes(field);
      const valued = (nullable ? all.filter((r) => r[field] !== null) : all).sort(comparator(field, 1));
      const def = this.list.defaultSort;
      const nulls = nullable ? all.filter((r) => r[field] === null).sort(comparator(def.field as keyof ContactRow, def.dir)) : [];
      asc = { epoch: this.epoch, rows: valued, nulls };
      this.sorted.set(`${field}:asc`, asc);
    }
    const rows = (dir === 1 ? asc.rows : asc.rows.slice().reverse()).concat(asc.nulls!);
    this.sorted.set(id, { epoch: this.epoch, rows });
    return rows;
  }


  private serve(q: ListQueryParsed, filter: ContactListFilter): Contact[] | Paged<Contact> {
    const sorted = this.sortedBy(q.sort.field as keyof ContactRow, q.sort.dir);
    const integration = filter.integrationId === 'none' ? null : filter.integrationId;
    const matching =
      filter.status === undefined && filter.integrationId === undefined
        ? sorted
        : sorted.filter((r) => (filter.status === undefined || r.status === filter.status) && (filter.integrationId === undefined || r.integration_id === integration));
    if (q.page === null) return matching.map(rowToContact);
    const skip = (q.page - 1) * q.pageSize;
    return { items: matching.slice(skip, skip + q.pageSize).map(rowToContact), total: matching.length, page: q.page, pageSize: q.pageSize };
  }
}
