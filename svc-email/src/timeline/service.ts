import type { Connection } from 'mongoose';
import type { Collection, Document } from 'mongodb';
import { NotFoundError, clickedSource, iso, purchaseSource, readTimeline, type AttributionLedger, type TimelineSource, type TrackedLinks } from '@act/service-kit';
import { mergePeople, personKeys, type TimelineContact, type TimelineCursor, type TimelineEntry, type TimelinePart, type TimelinePerson } from '@act/contracts/src/timeline';
import { contactModel, type ContactDoc } from '../contacts/model';
import { emailLogModel, type EmailLogDoc } from '../email-logs/model';
import { webhookEventModel, type WebhookEventDoc } from '../webhook-events/model';
import { unsubscribeModel, type UnsubscribeDoc } from '../unsubscribe/model';
import type { IntegrationCache } from '../integrations/cache';
import { simulatedRefs } from '../attribution/simulated';
import { deliveryEntry, logEntry, providerEntry, unsubscribeEntry } from './entries';

/** The reason a test delivery's contact gets no reminder, as its held reminder log words it. */
const TEST_DELIVERY_HOLD = 'test delivery';

/** The most contacts one person has on this side that the timeline follows (one per funnel, in practice). */
const MAX_CONTACTS = 100;

export type TimelineAsk = { contact: number } | { person: TimelinePerson };

/**
 * The email side's part of a person's timeline: its contacts of the person (by the lower-cased address and by the
 * sender's contact id within its funnel), their reminders and what Resend said of them, the deliveries that named
 * the person, the address's unsubscribe, and the purchases the ledger holds for them. Each read is an index range.
 */
export class EmailTimelineService {
  private readonly contacts: Collection<ContactDoc>;
  private readonly logs: Collection<EmailLogDoc>;
  private readonly events: Collection<WebhookEventDoc>;
  private readonly unsubscribes: Collection<UnsubscribeDoc>;

  constructor(
    conn: Connection,
    private readonly integrations: IntegrationCache,
    private readonly ledger: AttributionLedger,
    /** Our redirect links: their first clicks are "clicked" entries beside Resend's. */
    private readonly links?: TrackedLinks,
  ) {
    this.contacts = contactModel(conn).collection as unknown as Collection<ContactDoc>;
    this.logs = emailLogModel(conn).collection as unknown as Collection<EmailLogDoc>;
    this.events = webhookEventModel(conn).collection as unknown as Collection<WebhookEventDoc>;
    this.unsubscribes = unsubscribeModel(conn).collection as unknown as Collection<UnsubscribeDoc>;
  }

  async part(ask: TimelineAsk, cursor: TimelineCursor | null, limit: number): Promise<TimelinePart> {
    let anchor: ContactDoc | null = null;
    let person: TimelinePerson;
    if ('contact' in ask) {
      anchor = await this.contacts.findOne({ id: ask.contact }, { projection: { _id: 0 } });
      if (!anchor) throw new NotFoundError('Contact not found');
      person = await this.personOf([anchor]);
    } else person = ask.person;

    const found = await this.contactsOf(person);
    if (anchor && !found.some((c) => c.id === anchor!.id)) found.unshift(anchor);
    person = mergePeople(person, await this.personOf(found));
    const refs = found.map((c) => c.id);
    const emails = person.emails;

    const sources: TimelineSource<Document>[] = [
      { coll: this.logs, prefix: 'email.log', filter: { contact_ref: { $in: refs } }, at: 'timestamp', id: 'id', entry: logEntry },
      { coll: this.logs, prefix: 'email.provider', filter: { contact_ref: { $in: refs } }, at: 'delivery_at', id: 'id', dated: true, entry: providerEntry },
      { coll: this.events, prefix: 'email.delivery', filter: { person_keys: { $in: personKeys(person) } }, at: 'timestamp', id: 'id', entry: deliveryEntry },
      { coll: this.unsubscribes, prefix: 'email.unsubscribe', filter: { email: { $in: emails } }, at: 'unsubscribed_at', id: 'few', entry: unsubscribeEntry },
      purchaseSource(this.ledger.purchases, personKeys(person), 'email'),
      ...(this.links ? [clickedSource('email', this.links, refs)] : []),
    ] as unknown as TimelineSource<Document>[];
    const { entries, more } = await readTimeline(
      sources.filter((s) => !isEmptyIn(s.filter)),
      cursor,
      limit,
    );
    const contacts = await Promise.all(found.map((c) => this.view(c)));
    return {
      contact: anchor ? contacts.find((c) => c.id === anchor!.id)! : null,
      contacts,
      person,
      entries: entries as TimelineEntry[],
      more,
    };
  }

  /** This side's contacts of the person: by address, and by the sender's contact id within the funnel it came from. */
  private async contactsOf(p: TimelinePerson): Promise<ContactDoc[]> {
    const byId = new Map<number, ContactDoc>();
    if (p.emails.length) {
      for (const c of await this.contacts.find({ email_lower: { $in: p.emails } }, { projection: { _id: 0 } }).limit(MAX_CONTACTS).toArray()) byId.set(c.id, c);
    }
    const ids = [...new Set(p.contact_ids.map((c) => c.contact_id))];
    if (ids.length) {
      const { byId: integrations } = await this.integrations.get();
      const wanted = new Set(p.contact_ids.map((c) => `${c.funnel_id ?? ''}:${c.contact_id}`));
      const rows = await this.contacts.find({ contact_id: { $in: ids } }, { projection: { _id: 0 } }).sort({ created_at: -1 }).limit(MAX_CONTACTS).toArray();
      for (const c of rows) {
        const funnel = c.integration_id === null ? null : (integrations.get(c.integration_id)?.funnel_id ?? null);
        if (wanted.has(`${funnel ?? ''}:${c.contact_id}`)) byId.set(c.id, c);
      }
    }
    return [...byId.values()];
  }

  private async personOf(contacts: ContactDoc[]): Promise<TimelinePerson> {
    const { byId } = await this.integrations.get();
    return {
      emails: [...new Set(contacts.map((c) => c.email_lower))],
      phones: [...new Set(contacts.map((c) => c.phone).filter((p): p is string => typeof p === 'string' && p.length > 0))],
      contact_ids: contacts.map((c) => ({ funnel_id: c.integration_id === null ? null : (byId.get(c.integration_id)?.funnel_id ?? null), contact_id: c.contact_id })),
    };
  }

  private async view(c: ContactDoc): Promise<TimelineContact> {
    const integration = await this.integrations.byId(c.integration_id);
    const cart = (c as ContactDoc & { cart?: TimelineContact['cart'] }).cart;
    return {
      side: 'email',
      id: c.id,
      contact_id: c.contact_id,
      email: c.email,
      phone: c.phone ?? null,
      first_name: c.first_name ?? null,
      integration_id: c.integration_id ?? null,
      integration_name: integration?.name ?? null,
      funnel_id: integration?.funnel_id ?? null,
      status: c.status,
      reminders_held: c.reminders_held ?? (c.test === true ? TEST_DELIVERY_HOLD : null),
      simulated: c.status === 'sent' && (await simulatedRefs(this.logs, [c.id])).has(c.id),
      created_at: iso(c.created_at)!,
      purchased_at: iso(c.purchased_at),
      ...(cart ? { cart } : {}),
    };
  }
}

/** A source asked about nobody (`$in: []`) has no entries: no read. */
function isEmptyIn(filter: unknown): boolean {
  return Object.values(filter as Record<string, unknown>).some((v) => Array.isArray((v as { $in?: unknown[] })?.$in) && (v as { $in: unknown[] }).$in.length === 0);
}

