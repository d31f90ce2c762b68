import mongoose, { type Connection, type Model } from 'mongoose';
import type { SmsWebhookEvent, SmsWebhookEventType } from '@act/contracts/src/sms-api';
import type { DeliveryInfo } from '@act/contracts/src/webhook-signing';

/** Funnel deliveries carry the DeliveryInfo fields (sender, verification, outcome); Twilio callbacks do not. */
export interface WebhookEventDoc extends Partial<DeliveryInfo> {
  id: number;
  type: SmsWebhookEventType;
  /** The delivery as received (JSON text; form callbacks as a JSON object of their fields). */
  payload: string;
  timestamp: Date;
  /** Whom a funnel delivery named (`buyerKeys` form: `e:`, `p:`, `c:<funnel>:<id>`): a contact's timeline finds it by them. */
  person_keys?: string[];
}

const schema = new mongoose.Schema<WebhookEventDoc>(
  {
    id: { type: Number, required: true, unique: true },
    type: { type: String, required: true },
    payload: { type: String, required: true },
    timestamp: { type: Date, required: true },
    source: String,
    verification: String,
    verification_reason: String,
    outcome: String,
    integration_id: Number,
    event_name: String,
    delivery_headers: { type: mongoose.Schema.Types.Mixed, default: undefined },
    person_keys: { type: [String], default: undefined },
  },
  { versionKey: false },
);

// Newest first with the id as tiebreak (the list pages). Expiry needs a single-field index (MongoDB's TTL takes no
// compound one): `timestamp_-1`, declared by service-kit's retention.
schema.index({ timestamp: -1, id: -1 });
// A person's deliveries, newest first with the id as tiebreak (the contact page's timeline).
schema.index({ person_keys: 1, timestamp: -1, id: -1 });

export function webhookEventModel(conn: Connection): Model<WebhookEventDoc> {
  return (
    (conn.models.SmsWebhookEvent as Model<WebhookEventDoc>) ??
    conn.model<WebhookEventDoc>('SmsWebhookEvent', schema, 'sms_webhook_events')
  );
}

const INFO_KEYS = [
  'source',
  'verification',
  'verification_reason',
  'outcome',
  'integration_id',
  'event_name',
  'delivery_headers',
] as const;

/** A stored event as the API returns it (the plain list and the paged one alike). */
export function toApiEvent(d: WebhookEventDoc): SmsWebhookEvent {
  const e: SmsWebhookEvent = {
    id: d.id,
    type: d.type,
    payload: d.payload,
    timestamp: new Date(d.timestamp).toISOString(),
  };
  for (const k of INFO_KEYS) if (d[k] !== undefined) (e as unknown as Record<string, unknown>)[k] = d[k];
  return e;
}
