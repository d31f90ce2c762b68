import mongoose, { type Connection, type Model } from 'mongoose';

/**
 * One row per (contact, template) and per (contact, step), inserted BEFORE the provider is called: the unique
 * indexes make a send happen at most once even when two instances (or the sweep and a job) reach the same step.
 */
export interface SendClaimDoc {
  contact_ref: number;
  template_id: number;
  step: number;
  claimed_at: Date;
}
const sendSchema = new mongoose.Schema<SendClaimDoc>(
  {
    contact_ref: { type: Number, required: true },
    template_id: { type: Number, required: true },
    step: { type: Number, required: true },
    claimed_at: { type: Date, required: true },
  },
  { versionKey: false },
);
sendSchema.index({ contact_ref: 1, template_id: 1 }, { unique: true });
sendSchema.index({ contact_ref: 1, step: 1 }, { unique: true });

export function sendClaimModel(conn: Connection): Model<SendClaimDoc> {
  return (
    (conn.models.SmsSendClaim as Model<SendClaimDoc>) ??
    conn.model<SendClaimDoc>('SmsSendClaim', sendSchema, 'sms_sends')
  );
}

/**
 * The first funnel contact of an integration to be messaged on a phone owns it; any other contact of the same
 * integration with that phone is a duplicate and is skipped. A unique index makes the choice race-free.
 */
export interface PhoneClaimDoc {
  integration_id: number;
  phone: string;
  contact_id: string;
  claimed_at: Date;
}
const phoneSchema = new mongoose.Schema<PhoneClaimDoc>(
  {
    integration_id: { type: Number, required: true },
    phone: { type: String, required: true },
    contact_id: { type: String, required: true },
    claimed_at: { type: Date, required: true },
  },
  { versionKey: false },
);
phoneSchema.index({ integration_id: 1, phone: 1 }, { unique: true });

export function phoneClaimModel(conn: Connection): Model<PhoneClaimDoc> {
  return (
    (conn.models.SmsPhoneClaim as Model<PhoneClaimDoc>) ??
    conn.model<PhoneClaimDoc>('SmsPhoneClaim', phoneSchema, 'sms_phone_claims')
  );
}
