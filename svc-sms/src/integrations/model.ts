import mongoose, { type Connection, type Model } from 'mongoose';

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
