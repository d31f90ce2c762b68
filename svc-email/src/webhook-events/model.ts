import mongoose, { type Connection } from 'mongoose';
import type { WebhookEvent, WebhookEventType } from '@act/contracts/src/email-api';
import type { DeliveryInfo } from '@act/contracts/src/webhook-signing';
import { iso } from '@act/service-kit';

/** Every delivery to POST /api/webhook (and /api/webhook/i/<key>), stored as received (malformed and refused ones too). */
export interface WebhookEventDoc extends Partial<DeliveryInfo> {
  id: number;
  type: WebhookEventType;
  timestamp: Date;
  /** The raw body text as received. */
  payload: string;
  /** Whom the delivery named (`buyerKeys` form: `e:`, `p:`, `c:<funnel>:<id>`): a contact's timeline finds it by them. */
  person_keys?: string[];
}

const schema = new mongoose.Schema<WebhookEventDoc>(
  {
    id: { type: Number, required: true },
    type: { type: String, required: true },
    timestamp: { type: Date, required: true },
    payload: { type: String, default: '' },
    source: { type: String },
    verification: { type: String },
    verification_reason: { type: String },
    outcome: { type: String },
    integration_id: { type: Number },
    event_name: { type: String },
    delivery_headers: { type: mongoose.Schema.Types.Mixed, default: undefined },
    person_keys: { type: [String], default: undefined },
  },
  { versionKey: false, collection: 'webhook_events' },
);
schema.index({ id: 1 }, { unique: true });
// The index on timestamp (newest-first reads) is the retention's TTL index, declared by service-kit's retention.
// A person's deliveries, newest first with the id as tiebreak (the contact page's timeline).
schema.index({ person_keys: 1, timestamp: -1, id: -1 });

export function webhookEventModel(conn: Connection) {
  return (
    (conn.models.WebhookEvent as mongoose.Model<WebhookEventDoc>) ?? conn.model<WebhookEventDoc>('WebhookEvent', schema)
  );
}

export const WEBHOOK_EVENT_PROJECTION = {
  _id: 0,
  id: 1,
  type: 1,
  timestamp: 1,
  payload: 1,
  source: 1,
  verification: 1,
  verification_reason: 1,
  outcome: 1,
  integration_id: 1,
  event_name: 1,
  delivery_headers: 1,
} as const;

/** What a row stored before sources existed did, from its type. */
const OUTCOME_OF_TYPE: Record<WebhookEventType, DeliveryInfo['outcome']> = {
  contact_created: 'created',
  contact_updated: 'updated',
  purchase_created: 'purchase',
  handshake: 'handshake',
  invalid: 'invalid',
  ignored: 'ignored',
  rejected: 'rejected',
};

export function toWebhookEvent(d: WebhookEventDoc): WebhookEvent {
  return {
    id: d.id,
    type: d.type,
    timestamp: iso(d.timestamp)!,
    payload: d.payload,
    source: d.source ?? 'generic',
    verification: d.verification ?? 'unsigned',
    verification_reason: d.verification_reason ?? null,
    outcome: d.outcome ?? OUTCOME_OF_TYPE[d.type] ?? 'invalid',
    integration_id: d.integration_id ?? null,
    event_name: d.event_name ?? null,
    ...(d.delivery_headers ? { delivery_headers: d.delivery_headers } : {}),
  };
}
