import mongoose, { type Connection, type Model } from 'mongoose';

export interface TemplateDoc {
  id: number;
  campaign_id: number;
  name: string;
  /** At most 160 characters, with {first_name} / {checkout_url} placeholders. */
  message: string;
  /** Position in the campaign's sequence (1 = first). */
  sequence_order: number;
  /** Minutes after the previous message of the sequence (ignored for the first, which goes at remind_at). */
  delay_minutes: number;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

const schema = new mongoose.Schema<TemplateDoc>(
  {
    id: { type: Number, required: true, unique: true },
    campaign_id: { type: Number, required: true, index: true },
    name: { type: String, required: true },
    message: { type: String, required: true },
    sequence_order: { type: Number, required: true },
    delay_minutes: { type: Number, required: true },
    active: { type: Boolean, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false },
);

export function templateModel(conn: Connection): Model<TemplateDoc> {
  return (
    (conn.models.SmsTemplate as Model<TemplateDoc>) ?? conn.model<TemplateDoc>('SmsTemplate', schema, 'sms_templates')
  );
}
