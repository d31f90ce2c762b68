import mongoose, { type Connection, type Model } from 'mongoose';

/**
 * Stored Resend settings (one document, `_id: 'default'`), used only for what the environment does not set.
 * The key is stored as given (the database is svc-email's own); it is never returned by the API.
 */
export interface ResendConfigDoc {
  _id: string;
  api_key: string | null;
  from: string | null;
  /** The Resend webhook endpoint's signing secret (`whsec_...`), for its delivery events. */
  webhook_secret?: string | null;
  updated_at: Date;
}

const schema = new mongoose.Schema<ResendConfigDoc>(
  {
    _id: { type: String, required: true },
    api_key: { type: String, default: null },
    from: { type: String, default: null },
    webhook_secret: { type: String, default: null },
    updated_at: Date,
  },
  { versionKey: false },
);

export function resendConfigModel(conn: Connection): Model<ResendConfigDoc> {
  return (
    (conn.models.ResendConfig as Model<ResendConfigDoc>) ??
    conn.model<ResendConfigDoc>('ResendConfig', schema, 'resend_config')
  );
}
