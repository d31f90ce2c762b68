import mongoose, { type Connection } from 'mongoose';
import type { WebhookIntegration } from '@act/contracts/src/email-api';
import type { WebhookSource } from '@act/contracts/src/webhook-signing';
import { integrationWebhookUrl } from '@act/sources';
import { iso } from '@act/service-kit';

/** A funnel's webhook integration: which funnel, how long before a reminder, which template/campaign. */
export interface IntegrationDoc {
  /** Numeric id from the `webhook_integrations` counter. */
  id: number;
  name: string;
  /** Exact funnel id the webhook's `funnel_id` is matched against; unique; `default` is the fallback. */
  funnel_id: string;
  /** Only active integrations match a funnel id (the default one is the fallback whatever its flag). */
  active: boolean;
  /** Minutes between a contact's creation and its reminder. */
  reminder_delay: number;
  resend_template_id: number | null;
  campaign_id: number | null;
  /** Free text the spec's documentation mentions; kept as given. */
  email_template: string | null;
  /** The checkout link a reminder uses for a contact whose funnel sent none; null = none (the step is skipped). */
  checkout_fallback_url?: string | null;
  /** The unguessable part of the integration's own endpoint `/api/webhook/i/<key>`. */
  webhook_key: string;
  /** The sender's signing secret, sealed with SECRETS_KEY (service-kit's secret box); null = none. */
  webhook_secret: string | null;
  /** The sender the integration is pinned to; null = recognised per delivery. */
  webhook_source: WebhookSource | null;
  /** The sender's API key (Stripe restricted key), sealed like the secret; null = none. */
  sender_api_key?: string | null;
  /** Remind shoppers who declined the sender's promotional messages; off unless an admin turns it on. */
  send_without_consent?: boolean;
  created_at: Date;
  updated_at: Date;
}

const schema = new mongoose.Schema<IntegrationDoc>(
  {
    id: { type: Number, required: true },
    name: { type: String, required: true },
    funnel_id: { type: String, required: true },
    active: { type: Boolean, default: true },
    reminder_delay: { type: Number, required: true },
    resend_template_id: { type: Number, default: null },
    campaign_id: { type: Number, default: null },
    email_template: { type: String, default: null },
    checkout_fallback_url: { type: String, default: null },
    webhook_key: { type: String },
    webhook_secret: { type: String, default: null },
    webhook_source: { type: String, default: null },
    sender_api_key: { type: String, default: null },
    send_without_consent: { type: Boolean, default: false },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'webhook_integrations' },
);
schema.index({ id: 1 }, { unique: true });
schema.index({ funnel_id: 1 }, { unique: true });
// Sparse: integrations stored before keys existed get theirs at start (IntegrationsService.ensureKeys).
schema.index({ webhook_key: 1 }, { unique: true, sparse: true });

export function integrationModel(conn: Connection) {
  return (
    (conn.models.WebhookIntegration as mongoose.Model<IntegrationDoc>) ??
    conn.model<IntegrationDoc>('WebhookIntegration', schema)
  );
}

export function toIntegration(d: IntegrationDoc, publicUrl: string): WebhookIntegration {
  return {
    id: d.id,
    name: d.name,
    funnel_id: d.funnel_id,
    active: d.active,
    reminder_delay: d.reminder_delay,
    resend_template_id: d.resend_template_id ?? null,
    campaign_id: d.campaign_id ?? null,
    email_template: d.email_template ?? null,
    checkout_fallback_url: d.checkout_fallback_url ?? null,
    created_at: iso(d.created_at)!,
    webhook_url: d.webhook_key ? integrationWebhookUrl(publicUrl, '/api/webhook', d.webhook_key) : '',
    signing: {
      has_secret: Boolean(d.webhook_secret),
      source: d.webhook_source ?? null,
      has_api_key: Boolean(d.sender_api_key),
      send_without_consent: d.send_without_consent === true,
    },
  };
}
