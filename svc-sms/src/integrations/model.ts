import mongoose, { type Connection, type Model } from 'mongoose';
import type { WebhookSource } from '@act/contracts/src/webhook-signing';

export interface IntegrationDoc {
  id: number;
  name: string;
  /** Matched exactly against the funnel webhook's funnel_id. */
  funnel_id: string;
  /** The campaign whose templates this integration's contacts receive; else a campaign pointing back here. */
  sms_campaign_id: number | null;
  /** Minutes between a contact's arrival and its first message. */
  reminder_delay: number;
  active: boolean;
  /** {checkout_url} for a contact whose funnel sent none; null = none (then such a step is skipped). */
  checkout_fallback_url?: string | null;
  /** The unguessable part of the integration's own endpoint `/api/sms/webhook/i/<key>`. */
  webhook_key?: string;
  /** The sender's signing secret, sealed with SECRETS_KEY (service-kit's secret box); null = none. */
  webhook_secret?: string | null;
  /** The sender the integration is pinned to; null = recognised per delivery. */
  webhook_source?: WebhookSource | null;
  /** The sender's API key (Stripe restricted key), sealed like the secret; null = none. */
  sender_api_key?: string | null;
  /** Remind shoppers who declined the sender's promotional messages; off unless an admin turns it on. */
  send_without_consent?: boolean;
  created_at: Date;
  updated_at: Date;
}

const schema = new mongoose.Schema<IntegrationDoc>(
  {
    id: { type: Number, required: true, unique: true },
    name: { type: String, required: true },
    funnel_id: { type: String, required: true, index: true },
    sms_campaign_id: { type: Number, default: null },
    reminder_delay: { type: Number, required: true },
    active: { type: Boolean, required: true },
    checkout_fallback_url: { type: String, default: null },
    // Sparse: integrations stored before keys existed get theirs at start (IntegrationService.ensureKeys).
    webhook_key: { type: String, unique: true, sparse: true },
    webhook_secret: { type: String, default: null },
    webhook_source: { type: String, default: null },
    sender_api_key: { type: String, default: null },
    send_without_consent: { type: Boolean, default: false },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false },
);

export function integrationModel(conn: Connection): Model<IntegrationDoc> {
  return (
    (conn.models.SmsIntegration as Model<IntegrationDoc>) ??
    conn.model<IntegrationDoc>('SmsIntegration', schema, 'sms_integrations')
  );
}
