import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import type { Paged, WebhookEvent, WebhookEventType } from '@act/contracts/src/email-api';
import type { DeliveryInfo } from '@act/contracts/src/webhook-signing';
import { WEBHOOK_EVENT_PROJECTION, toWebhookEvent, webhookEventModel, type WebhookEventDoc } from './model';
import { readList, retainedFilter, webhookDeliveries, type ListOptions, type ListQueryParsed } from '@act/service-kit';
import { createBatcher } from '@act/service-kit';
import { deliveryContacts } from '@act/service-kit';
import { contactModel } from '../contacts/model';

export const WEBHOOK_EVENT_LIST_OPTIONS: ListOptions = {
  sortable: ['id', 'type', 'timestamp'],
  defaultSort: { field: 'timestamp', dir: -1 },
};

export class WebhookEventsService {
  readonly coll: Collection<WebhookEventDoc>;
  private readonly contacts: Parameters<typeof deliveryContacts>[0];

  constructor(
    conn: Connection,
    private readonly allocateId: () => Promise<number>,
  ) {
    this.coll = webhookEventModel(conn).collection as unknown as Collection<WebhookEventDoc>;
    this.contacts = contactModel(conn).collection as unknown as Parameters<typeof deliveryContacts>[0];
  }

  /** Every delivery is written on the hot path: concurrent ones share one insertMany. */
  private readonly insert = createBatcher(async (docs: WebhookEventDoc[]) => {
    await this.coll.insertMany(docs, { ordered: false });
    return docs.map((d) => d.id);
  });

  /** `info.person_keys`: whom the delivery named, when it could be read. */
  async record(type: WebhookEventType, payload: string, info: DeliveryInfo & { person_keys?: string[] }, timestamp = new Date()): Promise<number> {
    webhookDeliveries.inc({ side: 'email', source: info.source, verification: info.verification, outcome: info.outcome });
    const { person_keys, ...rest } = info;
    return this.insert({ id: await this.allocateId(), type, timestamp, payload, ...rest, ...(person_keys?.length ? { person_keys } : {}) });
  }

  /** Each row with the contact it produced or named (`contact_ref`), for its link to the contact page. */
  list(q: ListQueryParsed, filter: Record<string, unknown> = {}): Promise<WebhookEvent[] | Paged<WebhookEvent>> {
    return readList(
      this.coll,
      // Rows past DATA_RETENTION_DAYS are left out though the TTL monitor may not have removed them yet.
      { ...filter, ...retainedFilter('timestamp') } as never,
      { ...WEBHOOK_EVENT_PROJECTION, person_keys: 1 },
      q,
      WEBHOOK_EVENT_LIST_OPTIONS,
      (d: WebhookEventDoc) => d,
    ).then((read) => this.withContacts(read));
  }

  private async withContacts(read: WebhookEventDoc[] | Paged<WebhookEventDoc>): Promise<WebhookEvent[] | Paged<WebhookEvent>> {
    const docs = Array.isArray(read) ? read : read.items;
    const refs = await deliveryContacts(this.contacts, docs);
    const row = (d: WebhookEventDoc): WebhookEvent => ({ ...toWebhookEvent(d), contact_ref: refs.get(d.id) ?? null });
    return Array.isArray(read) ? read.map(row) : { ...read, items: read.items.map(row) };
  }

  async clearAll(): Promise<number> {
    return (await this.coll.deleteMany({})).deletedCount;
  }
}
