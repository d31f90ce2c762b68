import mongoose, { type Connection, type Model } from 'mongoose';

export interface CampaignDoc {
  id: number;
  name: string;
  integration_id: number | null;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

const schema = new mongoose.Schema<CampaignDoc>(
  {
    id: { type: Number, required: true, unique: true },
    name: { type: String, required: true },
    integration_id: { type: Number, default: null, index: true },
    active: { type: Boolean, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false },
);

export function campaignModel(conn: Connection): Model<CampaignDoc> {
  return (
    (conn.models.SmsCampaign as Model<CampaignDoc>) ?? conn.model<CampaignDoc>('SmsCampaign', schema, 'sms_campaigns')
  );
}
