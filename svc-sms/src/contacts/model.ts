import type { StoredZoneHints } from '@act/contracts/src/timing';
import { CART_VERSION_INDEX, CART_VERSION_INDEX_NAMES } from '@act/sources';
import mongoose, { type Connection, type Model } from 'mongoose';
import { phoneSuppressionKeys, standInIndex } from '@act/service-kit';
import type { SmsContactStatus } from '@act/contracts/src/sms-api';
import type { Cart } from '@act/contracts/src/cart';
import type { StoredExperiment } from '@act/flow';

export interface ContactDoc {
  id: number;
  /** E.164, normalised from what the funnel sent (default country US). */
  phone: string;
  /** The funnel's own contact id; unique within an integration. */
  contact_id: string;
  funnel_id: string;
  integration_id: number | null;
  first_name: string | null;
  email: string | null;
  status: SmsContactStatus;
  /** created_at + the integration's reminder delay: when the first message is due. */
  remind_at: Date;
  /**
   * When the sequence must next be looked at: a due message, a blackout end, or (while a step is being sent)
   * a lease, so a crashed sender's step is picked up again later. null = nothing more to send, and always null
   * once the status is closed (purchased, abandoned, skipped_duplicate, error): the step compare-and-sets match
   * on (id, step, next_at) alone and rely on it.
   */
  next_at: Date | null;
  /** Set when the blackout held the step: the window's end (the step is held while next_at still equals it). */
  held_until?: Date | null;
  /** Which timing rule set held_until (absent: the blackout; a row written without the field was held by it). */
  held_by?: 'blackout' | 'frequency_cap' | null;
  /**
   * The lease of the burst working the step (a random id written with the take; every write under the lease names
   * it); after a write that gave the lease up, that write's own id (read back under contention).
   */
  lease_id?: string | null;
  /** Steps of the sequence handled so far (sent, skipped or failed); the version checked by every step. */
  step: number;
  /** Messages actually handed to the provider. */
  sent_count: number;
  last_sent_at: Date | null;
  /**
   * The sender's time of the cart the last text showed (null: none; absent on contacts texted before it was kept): a
   * cart changed after it is a change the shopper has not seen.
   */
  last_sent_cart_at?: Date | null;
  purchased_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** The sender's cart; replaced only by a cart with a newer `updated_at` (@act/sources CartStore). */
  cart?: Cart | null;
  /** Why no message may go (the shopper declined the sender's promotional messages); set by the webhook intake. */
  reminders_held?: string | null;
  /** Where the sender says the shopper lives: quiet hours on the shopper's clock. */
  zone_hints?: StoredZoneHints | null;
  /** The campaign's holdout and the variant per step, drawn once (sequences/experiment.ts) and never again. */
  experiment?: StoredExperiment | null;
  /** A "Send test delivery" sample's contact (set at intake; false for any other); absent only on contacts stored before the flag, which the start-up backfill marks. */
  test?: boolean;
}

const schema = new mongoose.Schema<ContactDoc>(
  {
    id: { type: Number, required: true, unique: true },
    phone: { type: String, required: true, index: true },
    contact_id: { type: String, required: true },
    funnel_id: { type: String, required: true },
    integration_id: { type: Number, default: null },
    first_name: { type: String, default: null },
    email: { type: String, default: null },
    status: { type: String, required: true },
    remind_at: { type: Date, required: true },
    next_at: { type: Date, default: null },
    held_until: { type: Date, default: null },
    held_by: { type: String },
    lease_id: { type: String },
    step: { type: Number, default: 0 },
    sent_count: { type: Number, default: 0 },
    last_sent_at: { type: Date, default: null },
    last_sent_cart_at: { type: Date, default: undefined },
    purchased_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    cart: { type: mongoose.Schema.Types.Mixed, default: undefined },
    reminders_held: { type: String },
    zone_hints: { type: mongoose.Schema.Types.Mixed, default: undefined },
    experiment: { type: mongoose.Schema.Types.Mixed, default: undefined },
    test: { type: Boolean },
  },
  { versionKey: false },
);
// One SMS contact per funnel contact and integration: the webhook's and the email side's event's insert of a contact
// already there is refused by this index (named as MongoDB names it by default).
export const FUNNEL_KEY_INDEX = 'integration_id_1_contact_id_1';
schema.index({ integration_id: 1, contact_id: 1 }, { unique: true, name: FUNNEL_KEY_INDEX });
// The cart's compare-and-set (@act/sources CartStore), on the MongoDB stand-in only: see CART_VERSION_INDEX.
standInIndex(schema, CART_VERSION_INDEX.key, CART_VERSION_INDEX.name);
// The flow's compare-and-sets (sequences/store.ts), on the MongoDB stand-in only: the take on { id, step, next_at },
// a write under the lease on { id, lease_id, next_at } and the step's end on the same and its step. MongoDB serves
// each by the unique id index; the stand-in, which uses an index only for a filter naming exactly its keys, read
// every contact for each of a burst's writes.
standInIndex(schema, { id: 1, step: 1, next_at: 1 }, 'standin_sms_take');
standInIndex(schema, { id: 1, lease_id: 1, next_at: 1 }, 'standin_sms_lease');
standInIndex(schema, { id: 1, lease_id: 1, next_at: 1, step: 1 }, 'standin_sms_step_end');
/** The stand-in's indexes on contacts: production drops them (service.ts), a database may hold them from a run with the switch on. */
export const STANDIN_CONTACT_INDEXES = [...CART_VERSION_INDEX_NAMES, 'standin_sms_take', 'standin_sms_lease', 'standin_sms_step_end'] as const;
schema.index({ next_at: 1 });
schema.index({ funnel_id: 1, contact_id: 1 });
// 'Mark Purchased' by the sender's contact id finds it in every integration.
schema.index({ contact_id: 1 });
// A person's contacts by email (the contact page's timeline, asked by the email side's address).
schema.index({ email: 1 });
// Newest first with the id as tiebreak, as the list pages read.
schema.index({ created_at: -1, id: -1 });
// "Remove test deliveries" and what the figures leave out: only the few test contacts are in it.
schema.index({ test: 1 }, { partialFilterExpression: { test: true } });

export function contactModel(conn: Connection): Model<ContactDoc> {
  return (conn.models.SmsContact as Model<ContactDoc>) ?? conn.model<ContactDoc>('SmsContact', schema, 'sms_contacts');
}

/** Phones that replied STOP (and not START since): never messaged while listed. */
export interface OptOutDoc {
  phone: string;
  keyword: string;
  opted_out_at: Date;
}
const optOutSchema = new mongoose.Schema<OptOutDoc>(
  {
    phone: { type: String, required: true, unique: true },
    keyword: { type: String, required: true },
    opted_out_at: { type: Date, required: true },
  },
  { versionKey: false },
);
export function optOutModel(conn: Connection): Model<OptOutDoc> {
  return (
    (conn.models.SmsOptOut as Model<OptOutDoc>) ?? conn.model<OptOutDoc>('SmsOptOut', optOutSchema, 'sms_opt_outs')
  );
}

/**
 * The opt-out list's entries for a phone: as stored, or its salted hash once the person was erased (the
 * list then holds `erased-<hash>`, and an erased contact's own phone is that same form, see docs/privacy.md).
 */
export function optOutFilter(phone: string): { phone: { $in: string[] } } {
  return { phone: { $in: phoneSuppressionKeys(phone) } };
}

/** Of these phones, the ones opted out (in clear or hashed): the rows found, mapped back to the phones asked about. */
export function optOutKeys(phones: string[]): { keys: string[]; phoneOf: Map<string, string> } {
  const phoneOf = new Map<string, string>();
  for (const p of new Set(phones)) for (const k of phoneSuppressionKeys(p)) phoneOf.set(k, p);
  return { keys: [...phoneOf.keys()], phoneOf };
}
