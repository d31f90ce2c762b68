import type { Connection } from 'mongoose';
import type { Document, Filter } from 'mongodb';
import {
  createBatcher,
  createIdAllocator,
  insertNew,
  NotFoundError,
  readList,
  substringFilter,
  toApi,
  type Logger,
} from '@act/service-kit';
import type { Paged, SmsContact, SmsContactPage, SmsContactStatus } from '@act/contracts/src/sms-api';
import type { ContactExtras } from '@act/sources';
import { contactModel, FUNNEL_KEY_INDEX, optOutFilter, optOutKeys, optOutModel, type ContactDoc } from './model';
import { integrationModel, type IntegrationDoc } from '../integrations/model';
import type { Clock } from '../settings';
import { and, countBy, smsListOptions, sumOf, type SmsPageQuery } from '../paging';

export const CONTACT_LIST_OPTIONS = smsListOptions('created_at');
/** The digits of a search that looks like a phone number written with punctuation; null otherwise. */
export function phoneDigits(search: string): string | null {
  if (!/^[\d\s().+-]+$/.test(search)) return null;
  const digits = search.replace(/\D/g, '');
  return digits.length >= 4 && digits !== search ? digits : null;
}

/** The fields the page's search box looks in (besides the integration's name). */
const SEARCHED = ['phone', 'contact_id', 'funnel_id', 'first_name', 'email'] as const;

export interface ContactPageFilters {
  status?: SmsContactStatus;
  /** An integration id, or 'none' for contacts without one. */
  integrationId?: number | 'none';
}

/** Statuses whose sequence may still send. */
export const OPEN_STATUSES = ['pending', 'sent'] as const;

export interface SequenceScheduler {
  /** Make sure the contact is looked at no later than `at` (an Agenda job; the due scan is the safety net). */
  schedule(contactRef: number, at: Date): Promise<void>;
  /** Drop pending jobs of these contacts (purchase, opt-out, clear). */
  cancel(contactRefs: number[]): Promise<void>;
}

export interface FunnelContactInput {
  integration: Pick<IntegrationDoc, 'id' | 'reminder_delay'>;
  funnelId: string;
  contactId: string;
  /** E.164. */
  phone: string;
  email?: string | null;
  firstName?: string | null;
  /** A "Send test delivery" sample's contact: stored as `test`, never scheduled (set on insert only). */
  test: boolean;
  /** Stored with a contact this call creates (its cart, hold, zone hints); a contact already there is left as it is. */
  extras?: ContactExtras;
}

interface UpsertItem {
  filter: { integration_id: number; contact_id: string };
  set: Partial<ContactDoc>;
  onInsert: Partial<ContactDoc>;
}

export interface PurchaseMatch {
  /** Webhook path: match within this integration. */
  integrationId?: number;
  /** Event path: match within this funnel (any integration). */
  funnelId?: string | null;
  contactId?: string | null;
  /** E.164. */
  phone?: string | null;
}

export class ContactService {
  private readonly Contact;
  private readonly OptOut;
  private readonly Integration;
  private readonly allocId;

  constructor(
    conn: Connection,
    private readonly deps: {
      now: Clock;
      delayUnitMs: number;
      scheduler: SequenceScheduler;
      logger: Logger;
      listLimit: number;
    },
  ) {
    this.Contact = contactModel(conn);
    this.OptOut = optOutModel(conn);
    this.Integration = integrationModel(conn);
    // One counter write per 1,000 contacts (a restart leaves a gap; lists sort by time, not id).
    this.allocId = createIdAllocator(conn, 'sms_contacts', 1_000);
  }

  /**
   * Creates the SMS contact of a funnel contact, or refreshes its details. Idempotent per (integration, contact_id)
   * thanks to the unique index: the funnel webhook, a redelivery and the email side's event all land on one row,
   * and only the first arrival sets remind_at and starts the sequence.
   */
  async upsertFromFunnel(input: FunnelContactInput): Promise<{ contact: ContactDoc; created: boolean }> {
    const now = this.deps.now();
    const id = await this.allocId();
    const remindAt = new Date(now.getTime() + input.integration.reminder_delay * this.deps.delayUnitMs);
    const set: Partial<ContactDoc> = { phone: input.phone, funnel_id: input.funnelId, updated_at: now };
    if (input.email) set.email = input.email;
    if (input.firstName) set.first_name = input.firstName;
    const onInsert: Partial<ContactDoc> = {
      // integration_id and contact_id come from the filter on insert.
      id,
      status: 'pending',
      remind_at: remindAt,
      next_at: input.test ? null : remindAt,
      step: 0,
      sent_count: 0,
      last_sent_at: null,
      purchased_at: null,
      created_at: now,
      test: input.test,
      ...input.extras,
    };
    if (!input.email) onInsert.email = null;
    if (!input.firstName) onInsert.first_name = null;
    const filter = { integration_id: input.integration.id, contact_id: input.contactId };
    const created = await this.upsert({ filter, set, onInsert });
    // A new row is exactly filter + $setOnInsert + $set; only a repeat needs reading back.
    const doc = created
      ? ({ ...onInsert, ...set, ...filter } as ContactDoc)
      : await this.Contact.findOne(filter).lean<ContactDoc>();
    if (!doc) throw new Error('contact upsert returned nothing');
    if (created && !input.test)
      this.deps.scheduler
        .schedule(doc.id, remindAt)
        .catch((err) =>
          this.deps.logger.warn(
            { err: (err as Error).message },
            'could not schedule first SMS; the sweep will send it',
          ),
        );
    return { contact: doc, created };
  }

  /**
   * Group commit: concurrent deliveries (webhooks, the email side's events) share one insertMany, which the unique
   * index on (integration, contact_id) refuses for a contact already there (another delivery, earlier or in the same
   * batch, on any instance); only those few then get their details refreshed. `true` where this call inserted the row.
   */
  private readonly upsert = createBatcher(async (items: UpsertItem[]): Promise<boolean[]> => {
    const created = await insertNew(
      this.Contact.collection,
      items.map((it) => ({ ...it.onInsert, ...it.set, ...it.filter })),
      FUNNEL_KEY_INDEX,
    );
    const existing = items.filter((_, i) => !created[i]);
    if (existing.length > 0)
      await this.Contact.collection.bulkWrite(
        existing.map((it) => ({ updateOne: { filter: it.filter, update: { $set: it.set } } })),
        { ordered: false },
      );
    return created;
  });

  /** Marks matching open contacts purchased and stops their sequences; returns how many changed. */
  async markPurchased(match: PurchaseMatch): Promise<number> {
    let filter: Record<string, unknown> | null = null;
    if (match.integrationId !== undefined) {
      // Webhook rule: by contact_id within the integration, else by phone within it.
      if (
        match.contactId &&
        (await this.Contact.exists({ integration_id: match.integrationId, contact_id: match.contactId }))
      ) {
        filter = { integration_id: match.integrationId, contact_id: match.contactId };
      } else if (match.phone) {
        filter = { integration_id: match.integrationId, phone: match.phone };
      }
    } else {
      // Event rule: same funnel and contact_id, or same phone (within the funnel when one is named).
      const or: Record<string, unknown>[] = [];
      if (match.contactId && match.funnelId) or.push({ contact_id: match.contactId });
      if (match.phone) or.push({ phone: match.phone });
      if (or.length) filter = match.funnelId ? { funnel_id: match.funnelId, $or: or } : { $or: or };
    }
    if (!filter) return 0;
    return this.purchase(filter);
  }

  /** 'Mark Purchased': a numeric id is the row; a string is the funnel's contact id (every integration). */
  /** The contacts after the mark, and their statuses before it (by row id), for the audit record's change. */
  async markPurchasedManually(ref: number | string): Promise<{ contacts: ContactDoc[]; statusBefore: Record<string, string> }> {
    const filter = typeof ref === 'number' ? { id: ref } : { contact_id: ref.trim() };
    const found = await this.Contact.find(filter).lean<ContactDoc[]>();
    if (found.length === 0) throw new NotFoundError('Contact not found');
    await this.purchase(filter);
    const contacts = await this.Contact.find(filter).lean<ContactDoc[]>();
    return { contacts, statusBefore: Object.fromEntries(found.map((c) => [String(c.id), c.status])) };
  }

  private async purchase(filter: Record<string, unknown>): Promise<number> {
    const now = this.deps.now();
    // The stop itself is this one conditional update (a step in flight re-reads the status before calling
    // Twilio, and its own write is conditional on the lease this clears); job clean-up comes after.
    const res = await this.Contact.updateMany(
      { ...filter, status: { $ne: 'purchased' } },
      { $set: { status: 'purchased', purchased_at: now, next_at: null, updated_at: now } },
    );
    if (res.modifiedCount === 0) return 0;
    // Job clean-up is not waited for: the update above already stops every step (a job finds the contact closed),
    // and the event consumer's next purchase need not wait for the ids to be read and each job cancelled.
    void this.Contact.find({ ...filter, status: 'purchased', purchased_at: now }, { id: 1 })
      .lean<{ id: number }[]>()
      .then((rows) => this.deps.scheduler.cancel(rows.map((t) => t.id)))
      .catch((err) => this.deps.logger.warn({ err: (err as Error).message }, 'could not cancel SMS jobs'));
    return res.modifiedCount;
  }

  /** STOP: no further sends to this phone, from any contact. */
  async stopSequencesForPhone(phone: string): Promise<void> {
    const now = this.deps.now();
    const targets = await this.Contact.find(
      { phone, status: { $in: OPEN_STATUSES }, next_at: { $ne: null } },
      { id: 1 },
    ).lean<{ id: number }[]>();
    if (targets.length === 0) return;
    const ids = targets.map((t) => t.id);
    // Whether or not a first text went out, what stopped the sequence is the opt-out: the list says so.
    await this.Contact.updateMany(
      { id: { $in: ids }, status: { $in: ['pending', 'sent'] } },
      { $set: { status: 'opted_out', next_at: null, updated_at: now } },
    );
    await this.deps.scheduler.cancel(ids).catch(() => undefined);
  }

  /** The spec's plain list: the newest SMS_LIST_LIMIT contacts. */
  async list(): Promise<SmsContact[]> {
    const [docs, names] = await Promise.all([
      this.Contact.find({}).sort({ created_at: -1, id: -1 }).limit(this.deps.listLimit).lean<ContactDoc[]>(),
      this.integrationNames(),
    ]);
    return this.toApiRows(docs, names);
  }

  /**
   * One page of the SMS Contacts screen: its rows under the filters and search, their total, and the four cards
   * over every contact. One `$group` by status gives the cards, and the total too when only the status filters;
   * the search is an escaped case-insensitive substring on the fields the page shows, the integration's name
   * included (matched here against the few integrations, then as their ids).
   */
  async page(q: SmsPageQuery, filters: ContactPageFilters): Promise<SmsContactPage> {
    // Integration names: read alongside the counts and the page, unless the search needs them first.
    const namesRead = this.integrationNames();
    namesRead.catch(() => undefined); // awaited below; a failure must not also surface as unhandled meanwhile
    let search: Filter<Document> | null = null;
    if (q.search !== null) {
      const needle = q.search.toLowerCase();
      const ids = [...(await namesRead)].filter(([, name]) => name.toLowerCase().includes(needle)).map(([id]) => id);
      const or = (substringFilter(q.search, SEARCHED) as { $or: Filter<Document>[] }).$or;
      if (ids.length) or.push({ integration_id: { $in: ids } });
      // A phone as people write it ("(415) 555-0123", "415.555.0123") finds the stored +14155550123: its digits.
      const digits = phoneDigits(q.search);
      if (digits) or.push({ phone: { $regex: digits } });
      search = { $or: or };
    }
    const integration =
      filters.integrationId === undefined
        ? null
        : { integration_id: filters.integrationId === 'none' ? null : filters.integrationId };
    const filter = and([filters.status ? { status: filters.status } : null, integration, search]);

    const coll = this.Contact.collection;
    const counts = countBy(coll, 'status');
    // The rows list a test delivery's contact (with its badge); the cards count none: the few tests (the flag's
    // partial index) are taken off every status's count.
    const testCounts = countBy(coll, 'status', { test: true });
    const knownTotal =
      search || integration ? undefined : counts.then((c) => sumOf(c, filters.status ? [filters.status] : undefined));
    const [byStatus, tests, paged] = await Promise.all([
      counts,
      testCounts,
      readList(coll, filter, {}, q, CONTACT_LIST_OPTIONS, (d) => d as ContactDoc, knownTotal) as Promise<
        Paged<ContactDoc>
      >,
    ]);
    return {
      ...paged,
      items: await this.toApiRows(paged.items, await namesRead),
      summary: {
        total: sumOf(byStatus) - sumOf(tests),
        pending: counted(byStatus, tests, 'pending'),
        purchased: counted(byStatus, tests, 'purchased'),
        sent: counted(byStatus, tests, 'sent'),
        tests: sumOf(tests),
      },
    };
  }

  private async integrationNames(): Promise<Map<number, string>> {
    const integrations = await this.Integration.find({}, { id: 1, name: 1 }).lean();
    return new Map(integrations.map((i) => [i.id, i.name]));
  }

  /** API rows with their opt-out flag (one read of the rows' phones) and integration name. */
  private async toApiRows(docs: ContactDoc[], names: Map<number, string>): Promise<SmsContact[]> {
    const phones = [...new Set(docs.map((d) => d.phone))];
    const { keys, phoneOf } = optOutKeys(phones);
    const optedOut = phones.length ? await this.OptOut.find({ phone: { $in: keys } }, { phone: 1 }).lean() : [];
    const out = new Set(optedOut.map((o) => phoneOf.get(o.phone)));
    return docs.map((d) =>
      toApiContact(d, out.has(d.phone), d.integration_id === null ? null : (names.get(d.integration_id) ?? null)),
    );
  }

  async get(id: number): Promise<SmsContact> {
    const d = await this.Contact.findOne({ id }).lean<ContactDoc>();
    if (!d) throw new NotFoundError('Contact not found');
    const [opted, integration] = await Promise.all([
      this.OptOut.exists(optOutFilter(d.phone)),
      d.integration_id ? this.Integration.findOne({ id: d.integration_id }).lean() : null,
    ]);
    return toApiContact(d, !!opted, integration?.name ?? null);
  }

  /** 'Clear All Contacts'. Logs stay (they are the history the stats read). */
  async clear(): Promise<number> {
    const ids = (await this.Contact.find({}, { id: 1 }).lean<{ id: number }[]>()).map((c) => c.id);
    const res = await this.Contact.deleteMany({});
    if (ids.length) await this.deps.scheduler.cancel(ids).catch(() => undefined);
    return res.deletedCount;
  }
}

/** A status's count of real contacts: every contact in it less the test deliveries in it. */
function counted(all: Map<string, number>, tests: Map<string, number>, status: string): number {
  return (all.get(status) ?? 0) - (tests.get(status) ?? 0);
}

export function toApiContact(d: ContactDoc, optedOut: boolean, integrationName: string | null): SmsContact {
  const { next_at, held_until, held_by, step, sent_count, last_sent_at, updated_at, ...rest } = toApi(
    d as unknown as Record<string, unknown>,
  ) as unknown as ContactDoc;
  // Held only while the step still waits for that hold's end (a later step or a send clears it in effect).
  const held = !!held_until && !!next_at && new Date(held_until).getTime() === new Date(next_at).getTime();
  void step;
  void last_sent_at;
  void updated_at;
  return {
    id: rest.id,
    phone: rest.phone,
    contact_id: rest.contact_id,
    funnel_id: rest.funnel_id,
    integration_id: rest.integration_id ?? null,
    integration_name: integrationName,
    status: rest.status,
    remind_at: new Date(rest.remind_at).toISOString(),
    created_at: new Date(rest.created_at).toISOString(),
    first_name: rest.first_name ?? null,
    email: rest.email ?? null,
    next_send_at: next_at ? new Date(next_at).toISOString() : null,
    messages_sent: sent_count ?? 0,
    purchased_at: rest.purchased_at ? new Date(rest.purchased_at).toISOString() : null,
    opted_out: optedOut,
    held_until: held ? new Date(held_until!).toISOString() : null,
    held_by: held ? (held_by ?? 'blackout') : null,
    cart: rest.cart ?? null,
    reminders_held: rest.reminders_held ?? null,
    test: rest.test === true,
  };
}
