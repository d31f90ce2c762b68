import mongoose, { type Connection, type Model } from 'mongoose';
import type { SmsLogStatus } from '@act/contracts/src/sms-api';

export interface LogDoc {
  id: number;
  phone: string;
  /** The funnel's contact id; null for provider test messages. */
  contact_id: string | null;
  /** The SMS contact's numeric id (null for test messages). */
  contact_ref: number | null;
  integration_id: number | null;
  template_id: number | null;
  message: string;
  sequence_order: number | null;
  status: SmsLogStatus;
  message_sid: string | null;
  /** When the message was sent (or skipped); stats bucket by this. */
  timestamp: Date;
  updated_at: Date;
  error_message: string | null;
  /** `held_blackout` rows: the blackout's end, when the held step goes out. */
  held_until?: Date | null;
  /** The step's variant the text was (campaign experiments); absent: the template's own. */
  variant?: string | null;
}

const schema = new mongoose.Schema<LogDoc>(
  {
    id: { type: Number, required: true, unique: true },
    phone: { type: String, required: true },
    contact_id: { type: String, default: null },
    contact_ref: { type: Number, default: null },
    integration_id: { type: Number, default: null },
    template_id: { type: Number, default: null },
    message: { type: String, required: true },
    sequence_order: { type: Number, default: null },
    status: { type: String, required: true },
    message_sid: { type: String, default: null, index: true },
    timestamp: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    error_message: { type: String, default: null },
    variant: { type: String, default: undefined },
  },
  { versionKey: false },
);
schema.index({ integration_id: 1, timestamp: 1 });
// A campaign experiment's delivered messages per step (its results).
schema.index({ template_id: 1, status: 1 });
// Newest first with the id as tiebreak (the list pages). Expiry needs a single-field index (MongoDB's TTL takes no
// compound one): `timestamp_-1`, declared by service-kit's retention.
schema.index({ timestamp: -1, id: -1 });
// A contact's messages and Twilio's reports on them, newest first (the contact page's timeline).
schema.index({ contact_ref: 1, timestamp: -1, id: -1 });
schema.index({ contact_ref: 1, status: 1, updated_at: -1, id: -1 });

export function logModel(conn: Connection): Model<LogDoc> {
  return (conn.models.SmsLog as Model<LogDoc>) ?? conn.model<LogDoc>('SmsLog', schema, 'sms_logs');
}
