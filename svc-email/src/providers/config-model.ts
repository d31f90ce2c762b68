import mongoose, { type Connection, type Model } from 'mongoose';

/**
 * Stored Resend settings (one document, `_id: 'default'`), used only for what the environment does not set.
 * The key, the from-address and the webhook secret are sealed under SECRETS_KEY (service-kit secret-box), like the
 * webhook signing secrets; the API never returns them, only when each was set and its last four characters.
 */
export interface ResendConfigDoc {
  _id: string;
  /** Sealed (`v1:...`); a value stored before sealing is read as it is and sealed at its next save. */
  api_key: string | null;
  from: string | null;
  /** The Resend webhook endpoint's signing secret (`whsec_...`), for its delivery events. */
  webhook_secret?: string | null;
  /** When each stored value was set, and its last four characters (all the page shows of it). */
  api_key_set_at?: Date | null;
  api_key_last4?: string | null;
  from_set_at?: Date | null;
  from_last4?: string | null;
  updated_at: Date;
}

const schema = new mongoose.Schema<ResendConfigDoc>(
  {
    _id: { type: String, required: true },
    api_key: { type: String, default: null },
    from: { type: String, default: null },
    webhook_secret: { type: String, default: null },
    api_key_set_at: { type: Date, default: null },
    api_key_last4: { type: String, default: null },
    from_set_at: { type: Date, default: null },
    from_last4: { type: String, default: null },
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
