import mongoose, { type Connection, type Model } from 'mongoose';
import type { StoredCampaignExperiment } from '@act/service-kit';

export interface CampaignDoc {
  id: number;
  name: string;
  integration_id: number | null;
  active: boolean;
  created_at: Date;
  updated_at: Date;
  /** What a cart change does to a running sequence ('continue' while unset) and the campaign's priority (0). */
  on_cart_change?: 'continue' | 'restart';
  priority?: number;
  /** Holdout, step variants and winners (GET/PUT /api/sms-campaigns/{id}/experiment); absent: none. */
  experiment?: StoredCampaignExperiment | null;
}

const schema = new mongoose.Schema<CampaignDoc>(
  {
    id: { type: Number, required: true, unique: true },
    name: { type: String, required: true },
    integration_id: { type: Number, default: null, index: true },
    active: { type: Boolean, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    experiment: { type: mongoose.Schema.Types.Mixed, default: undefined },
    on_cart_change: { type: String },
    priority: { type: Number },
  },
  { versionKey: false },
);

export function campaignModel(conn: Connection): Model<CampaignDoc> {
  return (
    (conn.models.SmsCampaign as Model<CampaignDoc>) ?? conn.model<CampaignDoc>('SmsCampaign', schema, 'sms_campaigns')
  );
}
