import mongoose, { type Connection } from 'mongoose';
import type { WebhookEvent, WebhookEventType } from '@act/contracts/src/email-api';
import { iso } from '../lib/list';

/** Every delivery to POST /api/webhook, stored before it is applied (malformed ones too, as `invalid`). */
export interface WebhookEventDoc {
  id: number;
  type: WebhookEventType;
  timestamp: Date;
  /** The raw body text as received. */
  payload: string;
}

const schema = new mongoose.Schema<WebhookEventDoc>(
  {
    id: { type: Number, required: true },
    type: { type: String, required: true },
    timestamp: { type: Date, required: true },
    payload: { type: String, default: '' },
  },
  { versionKey: false, collection: 'webhook_events' },
);
schema.index({ id: 1 }, { unique: true });
schema.index({ timestamp: -1 });

export function webhookEventModel(conn: Connection) {
  return (conn.models.WebhookEvent as mongoose.Model<WebhookEventDoc>) ?? conn.model<WebhookEventDoc>('WebhookEvent', schema);
}

export const WEBHOOK_EVENT_PROJECTION = { _id: 0, id: 1, type: 1, timestamp: 1, payload: 1 } as const;

export function toWebhookEvent(d: WebhookEventDoc): WebhookEvent {
  return { id: d.id, type: d.type, timestamp: iso(d.timestamp)!, payload: d.payload };
}
