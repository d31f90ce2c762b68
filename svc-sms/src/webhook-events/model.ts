import mongoose, { type Connection, type Model } from 'mongoose';
import type { SmsWebhookEventType } from '@act/contracts/src/sms-api';

export interface WebhookEventDoc {
  id: number;
  type: SmsWebhookEventType;
  /** The delivery as received (JSON text; form callbacks as a JSON object of their fields). */
  payload: string;
  timestamp: Date;
}

const schema = new mongoose.Schema<WebhookEventDoc>(
  {
    id: { type: Number, required: true, unique: true },
    type: { type: String, required: true },
    payload: { type: String, required: true },
    timestamp: { type: Date, required: true, index: true },
  },
  { versionKey: false },
);

export function webhookEventModel(conn: Connection): Model<WebhookEventDoc> {
  return (
    (conn.models.SmsWebhookEvent as Model<WebhookEventDoc>) ??
    conn.model<WebhookEventDoc>('SmsWebhookEvent', schema, 'sms_webhook_events')
  );
}
