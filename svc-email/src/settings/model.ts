import mongoose, { type Connection } from 'mongoose';

/** Key/value settings of the email side; `_id` is the setting's name (`reminderDelay`). */
export interface SettingDoc {
  _id: string;
  value: unknown;
  updated_at: Date;
}

const schema = new mongoose.Schema<SettingDoc>(
  { _id: String, value: mongoose.Schema.Types.Mixed, updated_at: Date },
  { versionKey: false, collection: 'settings' },
);

export function settingModel(conn: Connection) {
  return (conn.models.Setting as mongoose.Model<SettingDoc>) ?? conn.model<SettingDoc>('Setting', schema);
}

export const REMINDER_DELAY_KEY = 'reminderDelay';
/** `{ value: true }` refuses every unsigned delivery to /api/webhook (docs/webhooks.md). */
export const WEBHOOK_SIGNING_KEY = 'requireSignedDeliveries';

/** Stores the global reminder delay; used by settings and by integrations (the default integration mirrors it). */
export async function saveReminderDelay(conn: Connection, minutes: number): Promise<void> {
  await settingModel(conn).collection.updateOne(
    { _id: REMINDER_DELAY_KEY } as never,
    { $set: { value: minutes, updated_at: new Date() } },
    { upsert: true },
  );
}
