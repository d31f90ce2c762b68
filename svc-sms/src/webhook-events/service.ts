import type { Connection } from 'mongoose';
import { createBatcher, createIdAllocator, retainedFilter, toApi, webhookDeliveries } from '@act/service-kit';
import type { SmsWebhookEvent, SmsWebhookEventType } from '@act/contracts/src/sms-api';
import type { DeliveryInfo } from '@act/contracts/src/webhook-signing';
import { toApiEvent, webhookEventModel, type WebhookEventDoc } from './model';
import type { Clock } from '../settings';
import { deliveryContacts } from '@act/service-kit';
import { contactModel } from '../contacts/model';

/** Every inbound delivery (funnel webhook, Twilio callback) is kept as received, valid or not. */
export class WebhookEventService {
  private readonly Event;
  private readonly allocId;
  private readonly contacts: Parameters<typeof deliveryContacts>[0];
  constructor(
    conn: Connection,
    private readonly deps: { now: Clock; listLimit: number },
  ) {
    this.Event = webhookEventModel(conn);
    this.contacts = contactModel(conn).collection as unknown as Parameters<typeof deliveryContacts>[0];
    // One counter write per 1,000 deliveries (a restart leaves a gap; lists sort by time, not id).
    this.allocId = createIdAllocator(conn, 'sms_webhook_events', 1_000);
  }

  /** Every delivery is written on the webhook's path: concurrent ones share one insertMany (group commit). */
  private readonly insert = createBatcher(async (docs: WebhookEventDoc[]) => {
    await this.Event.collection.insertMany(docs, { ordered: false });
    return docs.map((d) => d.id);
  });

  /** `info.person_keys`: whom a funnel delivery named, when it could be read. */
  async record(type: SmsWebhookEventType, payload: string, info?: DeliveryInfo & { person_keys?: string[] }): Promise<number> {
    webhookDeliveries.inc({
      side: 'sms',
      source: info?.source ?? 'unknown',
      verification: info?.verification ?? 'unsigned',
      outcome: info?.outcome ?? type,
    });
    const { person_keys, ...rest } = info ?? {};
    return this.insert({
      id: await this.allocId(),
      type,
      payload: payload === '' ? '""' : payload,
      timestamp: this.deps.now(),
      ...rest,
      ...(person_keys?.length ? { person_keys } : {}),
    });
  }

  async setType(id: number, type: SmsWebhookEventType): Promise<void> {
    await this.Event.updateOne({ id }, { $set: { type } });
  }

  async list(): Promise<SmsWebhookEvent[]> {
    const docs = await this.Event.find(retainedFilter('timestamp'))
      .sort({ timestamp: -1, id: -1 })
      .limit(this.deps.listLimit)
      .lean<WebhookEventDoc[]>();
    // Each row with the contact it produced or named (`contact_ref`), for its link to the contact page.
    const refs = await deliveryContacts(this.contacts, docs);
    return docs.map((d) => ({ ...toApiEvent(toApi(d as unknown as Record<string, unknown>) as unknown as WebhookEventDoc), contact_ref: refs.get(d.id) ?? null }));
  }
}
