import type { Connection } from 'mongoose';
import type { Document, Filter } from 'mongodb';
import { deliveryContacts, readList, retainedFilter, substringFilter } from '@act/service-kit';
import type { Paged, SmsWebhookEvent, SmsWebhookEventPage, SmsWebhookEventType } from '@act/contracts/src/sms-api';
import { toApiEvent, webhookEventModel, type WebhookEventDoc } from '../webhook-events/model';
import { contactModel } from '../contacts/model';
import { and, countBy, smsListOptions, sumOf, type SmsPageQuery } from '../paging';

export const EVENT_LIST_OPTIONS = smsListOptions('timestamp');
/** The fields the SMS Webhook Events search box looks in. */
const SEARCHED = ['type', 'payload'] as const;

/**
 * The paged form of GET /api/sms-webhook-events. It lives beside `webhook-events/` (whose service writes events on
 * the webhook's path, and is being reworked for intake speed) rather than in it, reading the same collection
 * through the same model; fold it into `webhook-events/` once that work has landed.
 */
export class WebhookEventPageService {
  private readonly Event;
  private readonly contacts: Parameters<typeof deliveryContacts>[0];
  constructor(conn: Connection) {
    this.Event = webhookEventModel(conn);
    this.contacts = contactModel(conn).collection as unknown as Parameters<typeof deliveryContacts>[0];
  }

  /** One page, its total, and the cards over every event: one `$group` by type gives them (and the total unless searched). */
  async page(
    q: SmsPageQuery,
    type: SmsWebhookEventType | undefined,
    delivery: Record<string, unknown> = {},
  ): Promise<SmsWebhookEventPage> {
    const search = q.search === null ? null : (substringFilter(q.search, SEARCHED) as Filter<Document>);
    const narrowed = Object.keys(delivery).length > 0;
    // Rows past DATA_RETENTION_DAYS are left out (cards included) though the TTL monitor may not have removed them yet.
    const retained = retainedFilter('timestamp');
    const filter = and([retained, type ? { type } : null, search, narrowed ? (delivery as Filter<Document>) : null]);
    const coll = this.Event.collection;
    const counts = countBy(coll, 'type', retained);
    const knownTotal = search || narrowed ? undefined : counts.then((c) => sumOf(c, type ? [type] : undefined));
    const [byType, paged] = await Promise.all([
      counts,
      readList(coll, filter, {}, q, EVENT_LIST_OPTIONS, (d) => d as WebhookEventDoc, knownTotal) as Promise<Paged<WebhookEventDoc>>,
    ]);
    // Each row with the contact it produced or named (`contact_ref`), for its link to the contact page.
    const refs = await deliveryContacts(this.contacts, paged.items);
    const items: SmsWebhookEvent[] = paged.items.map((d) => ({ ...toApiEvent(d), contact_ref: refs.get(d.id) ?? null }));
    return { ...paged, items, summary: { total: sumOf(byType), by_type: Object.fromEntries(byType) } };
  }
}
