import type { Connection } from 'mongoose';
import type { Collection, Document } from 'mongodb';
import { NotFoundError, clickedSource, purchaseSource, readTimeline, type AttributionLedger, type TimelineSource, type TrackedLinks } from '@act/service-kit';
import { mergePeople, personKeys, type TimelineContact, type TimelineCursor, type TimelinePart, type TimelinePerson } from '@act/contracts/src/timeline';
import { contactModel, optOutModel, type ContactDoc, type OptOutDoc } from '../contacts/model';
import { toE164 } from '../contacts/phone';
import { logModel, type LogDoc } from '../logs/model';
import { webhookEventModel, type WebhookEventDoc } from '../webhook-events/model';
import { integrationModel, type IntegrationDoc } from '../integrations/model';
import { deliveryEntry, logEntry, optOutEntry, PROVIDER_OUTCOMES, providerEntry } from './entries';

/** The most contacts one person has on this side that the timeline follows (one per funnel, in practice). */
const MAX_CONTACTS = 100;

export type TimelineAsk = { contact: number } | { person: TimelinePerson };

/**
 * The SMS side's part of a person's timeline: its contacts of the person (by E.164 phone, by the sender's contact id
 * within its funnel, and by email), their messages (sent, held, skipped, with the reason) and Twilio's reports on
 * them, the deliveries that named the person, the phone's opt-out, and the purchases the ledger holds for them.
 */
export class SmsTimelineService {
  private readonly contacts: Collection<ContactDoc>;
  private readonly logs: Collection<LogDoc>;
  private readonly events: Collection<WebhookEventDoc>;
  private readonly optOuts: Collection<OptOutDoc>;
  private readonly integrations: Collection<IntegrationDoc>;

  constructor(
    conn: Connection,
    private readonly ledger: AttributionLedger,
    /** Our redirect links: their first clicks are "clicked" entries. */
    private readonly links?: TrackedLinks,
  ) {
    this.contacts = contactModel(conn).collection as unknown as Collection<ContactDoc>;
    this.logs = logModel(conn).collection as unknown as Collection<LogDoc>;
    this.events = webhookEventModel(conn).collection as unknown as Collection<WebhookEventDoc>;
    this.optOuts = optOutModel(conn).collection as unknown as Collection<OptOutDoc>;
    this.integrations = integrationModel(conn).collection as unknown as Collection<IntegrationDoc>;
  }

  async part(ask: TimelineAsk, cursor: TimelineCursor | null, limit: number): Promise<TimelinePart> {
    let anchor: ContactDoc | null = null;
    let person: TimelinePerson;
    if ('contact' in ask) {
      anchor = await this.contacts.findOne({ id: ask.contact }, { projection: { _id: 0 } });
      if (!anchor) throw new NotFoundError('SMS contact not found');
      person = personOf([anchor]);
    } else person = { ...ask.person, phones: ask.person.phones.map((p) => toE164(p) ?? p) };

    const found = await this.contactsOf(person);
    if (anchor && !found.some((c) => c.id === anchor!.id)) found.unshift(anchor);
    person = mergePeople(person, personOf(found));
    const refs = found.map((c) => c.id);
    const keys = personKeys(person);

    const sources = [
      { coll: this.logs, prefix: 'sms.log', filter: { contact_ref: { $in: refs } }, at: 'timestamp', id: 'id', entry: logEntry },
      { coll: this.logs, prefix: 'sms.provider', filter: { contact_ref: { $in: refs }, status: { $in: [...PROVIDER_OUTCOMES] } }, at: 'updated_at', id: 'id', entry: providerEntry },
      { coll: this.events, prefix: 'sms.delivery', filter: { person_keys: { $in: keys } }, at: 'timestamp', id: 'id', entry: deliveryEntry },
      { coll: this.optOuts, prefix: 'sms.optout', filter: { phone: { $in: person.phones } }, at: 'opted_out_at', id: 'few', entry: optOutEntry },
      purchaseSource(this.ledger.purchases, keys, 'sms'),
      ...(this.links && refs.length ? [clickedSource('sms', this.links, refs)] : []),
    ] as unknown as TimelineSource<Document>[];
    const { entries, more } = await readTimeline(
      sources.filter((s) => !Object.values(s.filter as Record<string, { $in?: unknown[] }>).some((v) => v?.$in?.length === 0)),
      cursor,
      limit,
    );
    const contacts = await this.views(found);
    return { contact: anchor ? contacts.find((c) => c.id === anchor!.id)! : null, contacts, person, entries, more };
  }

  /**
   * This side's contacts of the person. Emails are stored as the sender wrote them: asked as given and lower-cased,
   * which is how senders write them in practice (the email side matches by its lower-cased copy).
   */
  private async contactsOf(p: TimelinePerson): Promise<ContactDoc[]> {
    const byId = new Map<number, ContactDoc>();
    const add = (rows: ContactDoc[]) => rows.forEach((c) => byId.set(c.id, c));
    const find = (filter: Record<string, unknown>) => this.contacts.find(filter, { projection: { _id: 0 } }).limit(MAX_CONTACTS).toArray();
    await Promise.all([
      p.phones.length ? find({ phone: { $in: p.phones } }).then(add) : null,
      p.emails.length ? find({ email: { $in: [...new Set(p.emails.flatMap((e) => [e, e.toLowerCase()]))] } }).then(add) : null,
      ...p.contact_ids.filter((c) => c.funnel_id !== null).map((c) => find({ funnel_id: c.funnel_id, contact_id: c.contact_id }).then(add)),
    ]);
    return [...byId.values()];
  }

  private async views(contacts: ContactDoc[]): Promise<TimelineContact[]> {
    const ids = [...new Set(contacts.map((c) => c.integration_id).filter((i): i is number => i !== null))];
    const integrations = new Map((await this.integrations.find({ id: { $in: ids } }).toArray()).map((i) => [i.id, i]));
    return contacts.map((c) => {
      const cart = (c as ContactDoc & { cart?: TimelineContact['cart'] }).cart;
      return {
        side: 'sms',
        id: c.id,
        contact_id: c.contact_id,
        email: c.email,
        phone: c.phone,
        first_name: c.first_name,
        integration_id: c.integration_id,
        integration_name: c.integration_id === null ? null : (integrations.get(c.integration_id)?.name ?? null),
        funnel_id: c.funnel_id,
        status: c.status,
        created_at: c.created_at.toISOString(),
        purchased_at: c.purchased_at ? c.purchased_at.toISOString() : null,
        ...(cart ? { cart } : {}),
      };
    });
  }
}

function personOf(contacts: ContactDoc[]): TimelinePerson {
  return {
    emails: [...new Set(contacts.map((c) => c.email?.toLowerCase()).filter((e): e is string => !!e))],
    phones: [...new Set(contacts.map((c) => c.phone))],
    contact_ids: contacts.map((c) => ({ funnel_id: c.funnel_id, contact_id: c.contact_id })),
  };
}
