import mongoose, { type Connection } from 'mongoose';
import type { UnsubscribeEntry } from '@act/contracts/src/email-api';
import { iso } from '@act/service-kit';

/**
 * `suppressed`: Resend reported a hard bounce or a spam complaint for the address. `erased`: a privacy erase put the
 * address's salted hash here.
 */
export type UnsubscribeSource = 'page' | 'one_click' | 'admin' | 'suppressed' | 'erased';

/** One address that must never get a reminder or campaign email again (until an admin removes it). */
export interface UnsubscribeDoc {
  /** Numeric id from the `email_unsubscribes` counter. */
  id: number;
  /** Lower-cased: addresses compare case-insensitively, and the unique index makes a second entry impossible. */
  email: string;
  unsubscribed_at: Date;
  reason: string | null;
  /** How it got here (not part of the API shape; kept for support questions). */
  source: UnsubscribeSource;
}

const schema = new mongoose.Schema<UnsubscribeDoc>(
  {
    id: { type: Number, required: true },
    email: { type: String, required: true },
    unsubscribed_at: { type: Date, required: true },
    reason: { type: String, default: null },
    source: { type: String, required: true },
  },
  { versionKey: false, collection: 'email_unsubscribes' },
);
schema.index({ id: 1 }, { unique: true });
schema.index({ email: 1 }, { unique: true });

export function unsubscribeModel(conn: Connection) {
  return (
    (conn.models.EmailUnsubscribe as mongoose.Model<UnsubscribeDoc>) ??
    conn.model<UnsubscribeDoc>('EmailUnsubscribe', schema)
  );
}

export function toUnsubscribeEntry(d: UnsubscribeDoc): UnsubscribeEntry {
  return { id: d.id, email: d.email, unsubscribed_at: iso(d.unsubscribed_at)!, reason: d.reason ?? null };
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
