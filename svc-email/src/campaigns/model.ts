import mongoose, { type Connection } from 'mongoose';
import type { EmailCampaign } from '@act/contracts/src/email-api';
import { iso, type StoredCampaignExperiment } from '@act/service-kit';

/** A named group of email templates sent in `template_order` (spec section 3). */
export interface CampaignDoc {
  /** Numeric id from the `email_campaigns` counter. */
  id: number;
  name: string;
  /** Optional; null when none was given. */
  description: string | null;
  /** Free text, `abandoned_cart` by default; new templates of the campaign take it. */
  type: string;
  /** An inactive campaign sends nothing (its sequences stop). */
  active: boolean;
  created_at: Date;
  updated_at: Date;
  /** Holdout, step variants and winners (GET/PUT /api/email/campaigns/{id}/experiment); absent: none. */
  experiment?: StoredCampaignExperiment | null;
  /** What a cart change does to a running sequence ('continue' while unset) and the campaign's priority (0). */
  on_cart_change?: 'continue' | 'restart';
  priority?: number;
}

const schema = new mongoose.Schema<CampaignDoc>(
  {
    id: { type: Number, required: true },
    name: { type: String, required: true },
    description: { type: String, default: null },
    type: { type: String, default: 'abandoned_cart' },
    active: { type: Boolean, default: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    experiment: { type: mongoose.Schema.Types.Mixed, default: undefined },
    on_cart_change: { type: String },
    priority: { type: Number },
  },
  { versionKey: false, collection: 'email_campaigns' },
);
schema.index({ id: 1 }, { unique: true });

export function campaignModel(conn: Connection) {
  return (conn.models.EmailCampaign as mongoose.Model<CampaignDoc>) ?? conn.model<CampaignDoc>('EmailCampaign', schema);
}

export function toCampaign(d: CampaignDoc): EmailCampaign {
  return {
    id: d.id,
    name: d.name,
    description: d.description ?? null,
    type: d.type,
    active: d.active,
    created_at: iso(d.created_at)!,
    on_cart_change: d.on_cart_change ?? 'continue',
    priority: d.priority ?? 0,
  };
}
