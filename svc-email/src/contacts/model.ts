import type { StoredZoneHints } from '@act/contracts/src/timing';
import { CART_VERSION_INDEX, CART_VERSION_INDEX_NAMES } from '@act/sources';
import mongoose, { type Connection } from 'mongoose';
import type { Contact, ContactStatus } from '@act/contracts/src/email-api';
import type { Cart } from '@act/contracts/src/cart';
import { iso, standInIndex } from '@act/service-kit';

/** A funnel contact on the email side. */
export interface ContactDoc {
  /** Numeric id (block allocator `contacts`). */
  id: number;
  /** The funnel's contact id, unique within an integration. */
  contact_id: string;
  email: string;
  /** Lower-cased email: purchases match by email case-insensitively without a regex scan. */
  email_lower: string;
  /** Kept for the events (the SMS side starts sequences from them); not part of the API shape. */
  phone: string | null;
  first_name: string | null;
  integration_id: number | null;
  created_at: Date;
  /** created_at + the integration's delay; never changes after creation. */
  remind_at: Date;
  purchased_at: Date | null;
  /** When the reminder was claimed (pending → sent) by the email flow's first step (reminders/step.ts). */
  sent_at: Date | null;
  status: ContactStatus;
  /** When Resend first took an email for this contact (absent: none yet); the revenue funnel's "reminded". */
  first_sent_at?: Date;
  /** The first click on an email sent to it (Resend's click events, our own link). */
  clicked_at?: Date;
  /** The sender's cart; replaced only by a cart with a newer `updated_at` (@act/sources CartStore). */
  cart?: Cart | null;
  /** Why no reminder may go (the shopper declined the sender's promotional messages); set by the webhook intake. */
  reminders_held?: string | null;
  /** Where the sender says the shopper lives: quiet hours on the shopper's clock. */
  zone_hints?: StoredZoneHints | null;
  /** Set while the address is on the unsubscribe list (absent otherwise); see ContactsService.unsubscribedChanged. */
  unsubscribed?: true;
  /** A "Send test delivery" sample's contact (set at intake; false for any other); absent only on contacts stored before the flag, which the start-up backfill marks. */
  test?: boolean;
}

const schema = new mongoose.Schema<ContactDoc>(
  {
    id: { type: Number, required: true },
    contact_id: { type: String, required: true },
    email: { type: String, required: true },
    email_lower: { type: String, required: true },
    phone: { type: String, default: null },
    first_name: { type: String, default: null },
    integration_id: { type: Number, default: null },
    created_at: { type: Date, required: true },
    remind_at: { type: Date, required: true },
    purchased_at: { type: Date, default: null },
    sent_at: { type: Date, default: null },
    first_sent_at: { type: Date, default: undefined },
    clicked_at: { type: Date, default: undefined },
    status: { type: String, enum: ['pending', 'sent', 'purchased'], required: true },
    cart: { type: mongoose.Schema.Types.Mixed, default: undefined },
    reminders_held: { type: String },
    zone_hints: { type: mongoose.Schema.Types.Mixed, default: undefined },
    unsubscribed: { type: Boolean },
    test: { type: Boolean },
  },
  { versionKey: false, collection: 'contacts' },
);
schema.index({ id: 1 }, { unique: true });
// Idempotent creation: a repeated delivery's insert is refused by this index (named as MongoDB names it by default).
export const FUNNEL_KEY_INDEX = 'integration_id_1_contact_id_1';
schema.index({ integration_id: 1, contact_id: 1 }, { unique: true, name: FUNNEL_KEY_INDEX });
// The cart's compare-and-set (@act/sources CartStore), on the MongoDB stand-in only: see CART_VERSION_INDEX.
standInIndex(schema, CART_VERSION_INDEX.key, CART_VERSION_INDEX.name);
// The reminder's claim (pending → sent, reminders/step.ts), on the MongoDB stand-in only: MongoDB serves its
// { id, status } filter by the unique id index; the stand-in, which uses an index only for a filter naming exactly
// its keys, read every contact for each claim of a burst.
standInIndex(schema, { id: 1, status: 1 }, 'standin_reminder_claim');
/** The stand-in's indexes on contacts: production drops them (app.ts), a database may hold them from a run with the switch on. */
export const STANDIN_CONTACT_INDEXES = [...CART_VERSION_INDEX_NAMES, 'standin_reminder_claim'] as const;
schema.index({ status: 1, remind_at: 1 });
schema.index({ email_lower: 1 });
// 'Mark as Purchased' by the sender's contact id, newest first, across integrations.
schema.index({ contact_id: 1, created_at: -1 });
// The Contacts page (equality, then sort): every sortable column with the _id tiebreak (walked either way; `id` is
// unique and needs none), and the default order, newest first, behind each filter. A filter on another column than
// the sort is applied to the entries of the sort's index; the filters' counts use the indexes they lead.
schema.index({ created_at: -1, _id: -1 });
schema.index({ status: 1, created_at: -1, _id: -1 });
schema.index({ integration_id: 1, created_at: -1, _id: -1 });
schema.index({ contact_id: 1, _id: 1 });
schema.index({ email: 1, _id: 1 });
schema.index({ remind_at: 1, _id: 1 });
schema.index({ purchased_at: 1, _id: 1 });
schema.index({ status: 1, _id: 1 });
schema.index({ integration_id: 1, _id: 1 });
// The Unsubscribed filter and its count: only the few contacts whose address is on the list are in it.
schema.index({ unsubscribed: 1, created_at: -1, _id: -1 }, { partialFilterExpression: { unsubscribed: true } });

// "Remove test deliveries" and the backfill's result: only the few test contacts are in it.
schema.index({ test: 1 }, { partialFilterExpression: { test: true } });

export function contactModel(conn: Connection) {
  return (conn.models.Contact as mongoose.Model<ContactDoc>) ?? conn.model<ContactDoc>('Contact', schema);
}

export const CONTACT_PROJECTION = { _id: 0, id: 1, contact_id: 1, email: 1, created_at: 1, remind_at: 1, purchased_at: 1, status: 1, integration_id: 1, cart: 1, reminders_held: 1, unsubscribed: 1, test: 1 } as const;

export function toContact(d: Pick<ContactDoc, 'id' | 'contact_id' | 'email' | 'created_at' | 'remind_at' | 'purchased_at' | 'status' | 'integration_id' | 'cart' | 'reminders_held' | 'unsubscribed' | 'test'>): Contact {
  return {
    id: d.id,
    contact_id: d.contact_id,
    email: d.email,
    created_at: iso(d.created_at)!,
    remind_at: iso(d.remind_at)!,
    purchased_at: iso(d.purchased_at),
    status: d.status,
    integration_id: d.integration_id ?? null,
    cart: d.cart ?? null,
    reminders_held: d.reminders_held ?? null,
    unsubscribed: d.unsubscribed === true,
    test: d.test === true,
  };
}
