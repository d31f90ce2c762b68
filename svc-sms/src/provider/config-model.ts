import mongoose, { type Connection, type Model } from 'mongoose';
import type { SmsTimezone } from '@act/contracts/src/sms-api';

/** The one provider settings document (credentials are never stored: they come from the environment). */
export interface ProviderConfigDoc {
  _id: string;
  messaging_service_sid: string;
  phone_number: string;
  webhook_url: string;
  delivery_webhooks_enabled: boolean;
  blackout_start_hour: number;
  blackout_end_hour: number;
  blackout_timezone: SmsTimezone;
  blackout_enabled: boolean;
  updated_at: Date;
}

const schema = new mongoose.Schema<ProviderConfigDoc>(
  {
    _id: { type: String, required: true },
    messaging_service_sid: String,
    phone_number: String,
    webhook_url: String,
    delivery_webhooks_enabled: Boolean,
    blackout_start_hour: Number,
    blackout_end_hour: Number,
    blackout_timezone: String,
    blackout_enabled: Boolean,
    updated_at: Date,
  },
  { versionKey: false },
);

export function providerConfigModel(conn: Connection): Model<ProviderConfigDoc> {
  return (
    (conn.models.SmsProviderConfig as Model<ProviderConfigDoc>) ??
    conn.model<ProviderConfigDoc>('SmsProviderConfig', schema, 'sms_provider_config')
  );
}
