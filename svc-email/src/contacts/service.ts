import type { Connection } from 'mongoose';
import type { Collection, Filter } from 'mongodb';
import type { ObjectId } from 'mongodb';
import { NotFoundError, createBatcher, insertNew, isDuplicateKeyError, readList, type ListOptions, type ListQueryParsed } from '@act/service-kit';
import type { Contact, ContactPage, ContactStatus, Paged } from '@act/contracts/src/email-api';
import { TEST_DELIVERY_EMAIL_PATTERN } from '@act/contracts/src/test-delivery';
import { CONTACT_PROJECTION, FUNNEL_KEY_INDEX, contactModel, toContact, type ContactDoc } from './model';
import type { ContactExtras } from '@act/sources';

/**
 * The email flows as contacts see them (implemented by live-sending/engine.ts; a port, so neither imports the other):
 * each new contact's flow is written right before the contact, its reminder due at remind_at. A purchase needs no
 * call: the flow's next step reads it.
 */
export interface FlowHooks {
  startFlows(items: { id: number; contact_id: string; integration_id: number | null; remind_at: Date }[]): Promise<void>;
  /** Contacts deleted, or not created after all: their flows go. */
  remove(ids: number[]): Promise<void>;
  removeAll(): Promise<void>;
}

/** The unsubscribe list as contacts read it (implemented by unsubscribe/service.ts; a port, so neither imports the other). */
export interface UnsubscribeLookup {
  /** Of these addresses, the ones on the list (lower-cased). */
  unsubscribedAmong(emails: string[]): Promise<Set<string>>;
  /** Every address on the list in clear (lower-cased). */
  addresses(): AsyncIterable<string>;
}

export interface FunnelContactInput {
  integration: { id: number; reminder_delay: number };
  contactId: string;
  email: string;
  phone: string | null;
  firstName: string | null;
  createdAt: Date;
  /** A "Send test delivery" sample's contact (stored as `test`, set on insert only). */
  test: boolean;
  /** Stored with a contact this call creates (its cart, hold, zone hints); a contact already there is left as it is. */
  extras?: ContactExtras;
}

export interface PurchaseInput {
  integrationId: number;
  contactId: string | null;
  email: string | null;
  purchasedAt: Date;
  /** Integrations the match by email must not reach (signed ones, for a purchase whose delivery was not verified). */
  excludeIntegrationIds?: number[];
}

type NewContact = Omit<ContactDoc, 'contact_id' | 'integration_id'>;
interface NewContactItem {
  key: { integration_id: number; contact_id: string };
  insert: NewContact;
}

export const CONTACT_LIST_OPTIONS: ListOptions = {
  sortable: ['id', 'contact_id', 'email', 'created_at', 'remind_at', 'purchased_at', 'status', 'integration_id'],
  nullable: ['purchased_at', 'integration_id'],
  defaultSort: { field: 'created_at', dir: -1 },
  unique: ['id'],
};

/** The fields every new contact starts with; shared by the webhook path and the benchmark's direct seeding. */
export function newContactFields(id: number, input: { email: string; phone: string | null; firstName: string | null; createdAt: Date; test?: boolean }, remind_at: Date): NewContact {
  return {
    id,
    email: input.email,
    email_lower: input.email.toLowerCase(),
    phone: input.phone,
    first_name: input.firstName,
    created_at: input.createdAt,
    remind_at,
    purchased_at: null,
    sent_at: null,
    status: 'pending',
    test: input.test === true,
  };
}

export class ContactsService {
  readonly coll: Collection<ContactDoc>;

  constructor(
    conn: Connection,
    private readonly hooks: FlowHooks,
    private readonly allocateId: () => Promise<number>,
    private readonly delayUnitMs: number,
    private readonly unsubscribes: UnsubscribeLookup | null = null,
  ) {
    this.coll = contactModel(conn).collection as unknown as Collection<ContactDoc>;
  }

  remindAt(createdAt: Date, delayMinutes: number): Date {
    return new Date(createdAt.getTime() + delayMinutes * this.delayUnitMs);
  }

  /**
   * contact_created: one insert, which the unique index on (integration, funnel contact id) refuses for a contact
   * already there, so a repeated delivery (or the same funnel posting to both services) never makes a second
   * contact. Concurrent deliveries share one insertMany (group commit).
   */
  async createFromFunnel(input: FunnelContactInput): Promise<{ created: boolean; id: number | null; remind_at: Date }> {
    const id = await this.allocateId();
    const remind_at = this.remindAt(input.createdAt, input.integration.reminder_delay);
    const insert = { ...newContactFields(id, input, remind_at), ...input.extras };
    const created = await this.insertContact({ key: { integration_id: input.integration.id, contact_id: input.contactId }, insert });
    if (!created) return { created: false, id: null, remind_at };
    return { created: true, id, remind_at };
  }

  private readonly insertContact = createBatcher((items: NewContactItem[]) => this.insertContacts(items));

  private async insertContacts(items: NewContactItem[]): Promise<boolean[]> {
    // A contact repeated within the batch, or racing one in another write or instance, is inserted once; the others
    // find it there (the unique index on integration and funnel contact id decides).
    const docs = items.map((it) => ({ ...it.insert, ...it.key }) as ContactDoc & { _id?: ObjectId });
    // The flows first, so no contact is ever stored without one (a redelivered event finds its contact there and
    // writes nothing more); the flows of contacts not created go again. A process killed in between leaves a flow
    // without a contact, which its reminder step ends (contact_deleted).
    await this.hooks.startFlows(docs);
    const created = await insertNew(this.coll, docs, FUNNEL_KEY_INDEX);
    await this.hooks.remove(docs.filter((_, i) => !created[i]).map((d) => d.id));
    await this.flagListed(docs.filter((_, i) => created[i]));
    return created;
  }

  /**
   * New or readdressed contacts whose address is already on the unsubscribe list are flagged. Read after the
   * contact's write, as the list's writer updates contacts after its own: of a contact and an unsubscribe arriving
   * together, one of the two sees the other.
   */
  private async flagListed(docs: Pick<ContactDoc, 'id' | 'email'>[]): Promise<void> {
    if (!this.unsubscribes || docs.length === 0) return;
    const listed = await this.unsubscribes.unsubscribedAmong(docs.map((d) => d.email));
    const ids = docs.filter((d) => listed.has(d.email.toLowerCase())).map((d) => d.id);
    if (ids.length) await this.coll.updateMany({ id: { $in: ids } }, { $set: { unsubscribed: true } });
  }

  /**
   * The addresses were added to (`listed`) or removed from the unsubscribe list: their contacts show it. A contact
   * whose reminder was withheld for it (status `unsubscribed`) stays flagged, as its status says why.
   */
  async unsubscribedChanged(emails: string[], listed: boolean): Promise<void> {
    const addresses = [...new Set(emails.map((e) => e.toLowerCase()))];
    if (addresses.length === 0) return;
    if (listed) await this.coll.updateMany({ email_lower: { $in: addresses } }, { $set: { unsubscribed: true } });
    else await this.coll.updateMany({ email_lower: { $in: addresses }, status: { $ne: 'unsubscribed' } }, { $unset: { unsubscribed: '' } });
  }

  /**
   * At start: every contact of an address on the list is flagged, so contacts stored before the flag existed (or
   * whose flag a crash between the two writes left out) show it. 500 addresses per update.
   */
  async flagAllListed(): Promise<void> {
    if (!this.unsubscribes) return;
    let chunk: string[] = [];
    for await (const address of this.unsubscribes.addresses()) {
      chunk.push(address);
      if (chunk.length >= 500) {
        await this.unsubscribedChanged(chunk, true);
        chunk = [];
      }
    }
    await this.unsubscribedChanged(chunk, true);
  }

  /**
   * At start: contacts stored before the `test` flag existed are tests by the sample's reserved address (the rule
   * they were stored under); every reader then reads the flag alone. Served by the `email_lower` index.
   */
  async markLegacyTests(): Promise<void> {
    await this.coll.updateMany({ email_lower: TEST_DELIVERY_EMAIL_PATTERN, test: { $exists: false } }, { $set: { test: true } });
  }

  /** contact_updated: new email/phone for a known contact; an unknown one is created as contact_created would. */
  async updateFromFunnel(input: FunnelContactInput): Promise<{ created: boolean; contact: ContactDoc }> {
    const id = await this.allocateId();
    const remind_at = this.remindAt(input.createdAt, input.integration.reminder_delay);
    const set: Partial<ContactDoc> = { email: input.email, email_lower: input.email.toLowerCase() };
    if (input.phone !== null) set.phone = input.phone;
    if (input.firstName !== null) set.first_name = input.firstName;
    const onInsert: Partial<ContactDoc> = { id, created_at: input.createdAt, remind_at, purchased_at: null, sent_at: null, status: 'pending', test: input.test };
    if (input.phone === null) onInsert.phone = null;
    if (input.firstName === null) onInsert.first_name = null;
    // As on creation, the flow before the contact; only when there is no contact yet (the usual update finds one).
    const key = { integration_id: input.integration.id, contact_id: input.contactId };
    const flow = (await this.coll.findOne(key, { projection: { _id: 0, id: 1 } })) ? null : { id, ...key, remind_at };
    if (flow) await this.hooks.startFlows([flow]);
    for (let attempt = 0; ; attempt++) {
      try {
        const doc = await this.coll.findOneAndUpdate({ integration_id: input.integration.id, contact_id: input.contactId }, { $set: set, $setOnInsert: onInsert }, { upsert: true, returnDocument: 'after' });
        // A new address may be on the list, or may not be where the old one was.
        if (doc!.unsubscribed && doc!.status !== 'unsubscribed') await this.coll.updateOne({ id: doc!.id, email_lower: set.email_lower! }, { $unset: { unsubscribed: '' } });
        await this.flagListed([doc!]);
        const created = doc!.id === id;
        if (flow && !created) await this.hooks.remove([id]);
        else if (created && !flow) await this.hooks.startFlows([doc!]);
        return { created, contact: doc! };
      } catch (err) {
        if (isDuplicateKeyError(err) && attempt === 0) continue;
        throw err;
      }
    }
  }

  /**
   * A purchase: the contact with this funnel contact id in the integration, else every not-yet-purchased
   * contact with the same email (case-insensitive) in any integration: someone who bought must not be reminded.
   * Returns the contacts matched and those this call moved to purchased.
   */
  /**
   * Contacts whose reminder was claimed (pending → sent) but not sent because the address is unsubscribed: they
   * show as `unsubscribed`, not `sent`, and so do not count as abandoned carts.
   */
  async markUnsubscribed(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.coll.updateMany({ id: { $in: ids }, status: 'sent' }, { $set: { status: 'unsubscribed', unsubscribed: true } });
  }

  async markPurchased(input: PurchaseInput): Promise<{ matched: number; changed: ContactDoc[] }> {
    let targets: Pick<ContactDoc, 'id' | 'status'>[] = [];
    if (input.contactId !== null) {
      const one = await this.coll.findOne({ integration_id: input.integrationId, contact_id: input.contactId }, { projection: { _id: 0, id: 1, status: 1 } });
      if (one) targets = [one];
    }
    if (targets.length === 0 && input.email) {
      const exclude = input.excludeIntegrationIds?.length ? { integration_id: { $nin: input.excludeIntegrationIds } } : {};
      targets = await this.coll.find({ email_lower: input.email.toLowerCase(), status: { $ne: 'purchased' }, ...exclude }, { projection: { _id: 0, id: 1, status: 1 } }).toArray();
    }
    const changed: ContactDoc[] = [];
    for (const t of targets) {
      const doc = await this.purchaseOne(t, input.purchasedAt);
      if (doc) changed.push(doc);
    }
    return { matched: targets.length, changed };
  }

  /** Mark as Purchased: by numeric `id`, or by funnel `contact_id` (every contact carrying it). */
  async markPurchasedByRef(ref: number | string, purchasedAt = new Date()): Promise<{ contact: Contact; changed: ContactDoc[] }> {
    const filter: Filter<ContactDoc> = typeof ref === 'number' ? { id: ref } : { contact_id: ref.trim() };
    const found = await this.coll.find(filter, { projection: { _id: 0 } }).sort({ created_at: -1 }).toArray();
    if (found.length === 0) throw new NotFoundError('Contact not found');
    const changed: ContactDoc[] = [];
    for (const c of found) {
      const doc = await this.purchaseOne(c, purchasedAt);
      if (doc) changed.push(doc);
    }
    const first = changed.find((c) => c.id === found[0]!.id) ?? found[0]!;
    return { contact: toContact(first), changed };
  }

  /** Conditional on the status read, so a concurrent pending → sent claim and this purchase never both win. */
  private async purchaseOne(t: Pick<ContactDoc, 'id' | 'status'>, purchasedAt: Date): Promise<ContactDoc | null> {
    let status: ContactStatus = t.status;
    for (let i = 0; i < 3 && status !== 'purchased'; i++) {
      const doc = await this.coll.findOneAndUpdate({ id: t.id, status }, { $set: { status: 'purchased', purchased_at: purchasedAt } }, { returnDocument: 'after' });
      if (doc) {
        const { _id, ...rest } = doc as ContactDoc & { _id: unknown };
        void _id;
        return rest as ContactDoc;
      }
      const now = await this.coll.findOne({ id: t.id }, { projection: { _id: 0, status: 1 } });
      if (!now) return null;
      status = now.status;
    }
    return null;
  }

  /**
   * One page of the Contacts list (or the whole list) from MongoDB, by the indexes the model declares for each sort
   * and filter; the unfiltered total from the collection's count in its metadata, not a count of every entry.
   */
  async list(q: ListQueryParsed, filters: { status?: ContactStatus; integrationId?: number | 'none' }): Promise<Contact[] | ContactPage> {
    const filter: Filter<ContactDoc> = {};
    // The status a screen shows (docs/decisions.md, "Unsubscribed contacts"): purchased first, then the address on
    // the unsubscribe list, then the lifecycle status.
    if (filters.status === 'unsubscribed') Object.assign(filter, { unsubscribed: true, status: { $ne: 'purchased' } });
    else if (filters.status === 'purchased') filter.status = 'purchased';
    else if (filters.status) Object.assign(filter, { status: filters.status, unsubscribed: { $ne: true } });
    if (filters.integrationId !== undefined) filter.integration_id = filters.integrationId === 'none' ? null : filters.integrationId;
    const knownTotal = q.page !== null && Object.keys(filter).length === 0 ? this.coll.estimatedDocumentCount() : undefined;
    const read = readList(this.coll, filter, CONTACT_PROJECTION, q, CONTACT_LIST_OPTIONS, toContact, knownTotal);
    if (q.page === null) return read as Promise<Contact[]>;
    // The page lists test deliveries (badged); a figure counts none, so it says how many of its total they are
    // (a count on the flag's partial index: they are few).
    const [page, tests] = await Promise.all([read as Promise<Paged<Contact>>, this.coll.countDocuments({ ...filter, test: true })]);
    return { ...page, tests };
  }

  countByIntegration(integrationId: number): Promise<number> {
    return this.coll.countDocuments({ integration_id: integrationId });
  }

  async clearIntegration(integrationId: number): Promise<number> {
    const ids = (await this.coll.find({ integration_id: integrationId }, { projection: { _id: 0, id: 1 } }).toArray()).map((c) => c.id);
    const { deletedCount } = await this.coll.deleteMany({ integration_id: integrationId });
    await this.hooks.remove(ids);
    return deletedCount;
  }

  async clearAll(): Promise<number> {
    const { deletedCount } = await this.coll.deleteMany({});
    await this.hooks.removeAll();
    return deletedCount;
  }
}
