import { createHash } from 'node:crypto';
import type { Collection, Document, Filter, WithId } from 'mongodb';
import {
  compareEntries,
  decodeCursor,
  isAfterCursor,
  keyId,
  TIMELINE_MAX_PAGE_SIZE,
  TIMELINE_PAGE_SIZE,
  type TimelinePerson,
  type TimelineCursor,
  type TimelineEntry,
  type TimelineSide,
} from '@act/contracts/src/timeline';
import { creditedTouch, DEFAULT_WINDOW_DAYS, type Touch } from '@act/contracts/src/attribution';
import type { PurchaseDoc } from './attribution/ledger';
import { BadRequestError } from './errors';

/**
 * One collection's part of a person's timeline: which rows are the person's (`filter`, equalities the model's index
 * leads with), which date places a row in time (`at`), and the row's entry. `id: '<field>'` when the index goes on
 * `{ ...filter, [at]: -1, [field]: -1 }` and the entries' keys are `<prefix>:<keyId(field)>`, so the database's order
 * is the timeline's and a page reads at most `limit + 1` rows; `id: 'few'` when a person has only a handful of rows
 * there (an unsubscribe per address, a purchase or two): all of them are read by the filter's index and ordered here.
 */
export interface TimelineSource<D extends Document> {
  coll: Collection<D>;
  prefix: string;
  filter: Filter<D>;
  at: string;
  id: string;
  /** Rows without the date have no entry (a message the provider never reported on): the range leaves them out. */
  dated?: true;
  entry(doc: WithId<D>): TimelineEntry | null;
}

/**
 * The source's newest `limit` entries after the cursor, and whether more remain. Two reads at most, each one index
 * range: the rows of the cursor's own instant that come after it (by id), then the older rows.
 */
export async function readTimelineSource<D extends Document>(src: TimelineSource<D>, cursor: TimelineCursor | null, limit: number): Promise<{ entries: TimelineEntry[]; more: boolean }> {
  let rows: WithId<D>[];
  if (src.id === 'few') rows = await src.coll.find(src.filter).toArray();
  else {
    const sort = { [src.at]: -1, [src.id]: -1 } as Record<string, -1>;
    const find = (f: Record<string, unknown>) =>
      src.coll
        .find({ ...src.filter, ...f } as Filter<D>)
        .sort(sort)
        .limit(limit + 1)
        .toArray();
    if (!cursor) rows = await find(src.dated ? { [src.at]: { $gt: new Date(0) } } : {});
    else {
      const at = new Date(cursor.at);
      const ties = tieFilter(src.prefix, src.id, cursor);
      const [same, older] = await Promise.all([ties === null ? Promise.resolve([] as WithId<D>[]) : find({ [src.at]: at, ...ties }), find({ [src.at]: { $lt: at } })]);
      rows = [...same, ...older];
    }
  }
  const entries = rows
    .map((r) => src.entry(r))
    .filter((e): e is TimelineEntry => e !== null && isAfterCursor(e, cursor))
    .sort(compareEntries);
  return { entries: entries.slice(0, limit), more: entries.length > limit || (src.id !== 'few' && rows.length > limit) };
}

/** Which of the source's rows of the cursor's instant come after it: by id, all (`{}`), or none (null). */
function tieFilter(prefix: string, idField: string, c: TimelineCursor): Record<string, unknown> | null {
  const own = `${prefix}:`;
  if (c.key.startsWith(own)) {
    const id = Number(c.key.slice(own.length));
    return Number.isFinite(id) ? { [idField]: { $lt: id } } : null;
  }
  // Every key of this source compares with the cursor's key as its prefix does.
  return `${own}${keyId(0)}` < c.key ? {} : null;
}

/** The merged newest `limit` of several sources, and whether any has more. */
export async function readTimeline(sources: readonly TimelineSource<Document>[], cursor: TimelineCursor | null, limit: number): Promise<{ entries: TimelineEntry[]; more: boolean }> {
  const parts = await Promise.all(sources.map((s) => readTimelineSource(s, cursor, limit)));
  const all = parts.flatMap((p) => p.entries).sort(compareEntries);
  return { entries: all.slice(0, limit), more: all.length > limit || parts.some((p) => p.more) };
}

/**
 * A ledger's purchases of a person (by its names, `buyerKeys`), each with the reminder it is credited to by the
 * revenue settings' window (last touch, the Dashboard's default). Both services' ledgers hold every purchase; the
 * key is the same on both sides, so the gateway shows it once.
 */
export function purchaseSource(purchases: Collection<PurchaseDoc>, keys: string[], side: TimelineSide, windowDays = DEFAULT_WINDOW_DAYS): TimelineSource<PurchaseDoc> {
  return {
    coll: purchases,
    prefix: 'purchase',
    filter: { buyerKeys: { $in: keys } },
    at: 'purchasedAt',
    id: 'few',
    entry(p) {
      const credited = creditedTouch(p.purchasedAt, p.touches as Touch[], windowDays, 'last');
      return {
        key: `purchase:${createHash('sha256').update(String(p._id)).digest('hex').slice(0, 24)}`,
        at: p.purchasedAt.toISOString(),
        side,
        kind: 'purchase',
        title: purchaseTitle(credited),
        status: 'purchased',
        // The checkout it recovered, when the sender named it (Stripe's expired session), beside who reported it.
        detail:
          [p.heardFrom?.length ? `Reported by ${p.heardFrom.map((s) => REPORTERS[s] ?? s).join(' and ')}` : null, p.recoveredFrom ? `recovered checkout ${p.recoveredFrom}` : null]
            .filter(Boolean)
            .join(' · ') || null,
        amount: p.amount,
        currency: p.currency,
        attributed: credited
          ? {
              channel: credited.channel === 'sms' ? 'sms' : 'email',
              sent_at: new Date(credited.sentAt).toISOString(),
              step: credited.step,
              template_id: credited.templateId,
              campaign_id: credited.campaignId,
              simulated: isSimulated(credited),
            }
          : null,
        ref: null,
      };
    },
  };
}

/** Who reported a purchase, as a shop owner knows them. */
const REPORTERS: Record<string, string> = { 'svc-email': 'the email webhook', 'svc-sms': 'the SMS webhook' };

/** Only logged, never received: the ledger marks such a reminder (live sending off). */
const isSimulated = (t: Touch) => (t as Touch & { simulated?: true }).simulated === true;

function purchaseTitle(credited: Touch | null): string {
  if (!credited) return 'Purchase (no reminder within the attribution window)';
  const channel = credited.channel === 'sms' ? 'SMS' : 'email';
  return isSimulated(credited) ? `Purchase after a simulated ${channel} reminder (nobody received it)` : `Purchase, attributed to the ${channel} reminder`;
}

const MAX_NAMES = 20;
const MAX_NAME_LENGTH = 320;

/** `?email=` / `?phone=` / `?contact_key=` as a list of plain strings (repeated or once), or a 400. */
function names(q: Record<string, unknown>, field: string): string[] {
  const raw = q[field];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  if (list.length > MAX_NAMES) throw new BadRequestError(`At most ${MAX_NAMES} values of ${field}`);
  return list.map((v) => {
    if (typeof v !== 'string' || v.trim() === '' || v.length > MAX_NAME_LENGTH) throw new BadRequestError(`${field} must be a non-empty text of at most ${MAX_NAME_LENGTH} characters`);
    return v.trim();
  });
}

/** `?before=` (a cursor this API wrote) and `?limit=` (1 to the maximum) of a timeline part, or a 400. */
export function parseTimelinePaging(q: Record<string, unknown>): { cursor: TimelineCursor | null; limit: number } {
  let cursor: TimelineCursor | null = null;
  if (q.before !== undefined && q.before !== '') {
    cursor = typeof q.before === 'string' ? decodeCursor(q.before) : null;
    if (!cursor) throw new BadRequestError('before must be the next value of a previous timeline page');
  }
  let limit = TIMELINE_PAGE_SIZE;
  if (q.limit !== undefined) {
    limit = typeof q.limit === 'string' && /^\d{1,4}$/.test(q.limit) ? Number(q.limit) : NaN;
    if (!(limit >= 1 && limit <= TIMELINE_MAX_PAGE_SIZE)) throw new BadRequestError(`limit must be a whole number from 1 to ${TIMELINE_MAX_PAGE_SIZE}`);
  }
  return { cursor, limit };
}

/**
 * The query of a service's `GET /internal/timeline`: whose (`contact=<id>` of this side, or the person's names the
 * other side found), from where (`before=`, a cursor this API wrote) and how many (`limit`, 1 to the maximum).
 */
export function parseTimelineQuery(q: Record<string, unknown>): { ask: { contact: number } | { person: TimelinePerson }; cursor: TimelineCursor | null; limit: number } {
  const { cursor, limit } = parseTimelinePaging(q);
  if (q.contact !== undefined) {
    const id = typeof q.contact === 'string' && /^\d{1,15}$/.test(q.contact) ? Number(q.contact) : NaN;
    if (!(id > 0)) throw new BadRequestError('contact must be a positive whole number');
    return { ask: { contact: id }, cursor, limit };
  }
  const person: TimelinePerson = {
    emails: names(q, 'email').map((e) => e.toLowerCase()),
    phones: names(q, 'phone'),
    contact_ids: names(q, 'contact_key').map((k) => {
      const at = k.indexOf(':');
      if (at < 0 || at === k.length - 1) throw new BadRequestError('contact_key must be <funnel id>:<contact id>');
      return { funnel_id: at === 0 ? null : k.slice(0, at), contact_id: k.slice(at + 1) };
    }),
  };
  if (!person.emails.length && !person.phones.length && !person.contact_ids.length) throw new BadRequestError('Ask for a contact, or for a person by email, phone or contact_key');
  return { ask: { person }, cursor, limit };
}
