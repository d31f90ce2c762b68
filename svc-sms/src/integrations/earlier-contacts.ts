import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { DAY_MS } from '@act/contracts/src/attribution';
import { PICKUP_WINDOW_DAYS } from '@act/contracts/src/sms-pickup';
import { isDuplicateKeyError, type Logger } from '@act/service-kit';
import { normalizeCart } from '@act/contracts/src/cart';
import { contactExtras, type ContactExtras } from '@act/sources';
import type { IntegrationDoc } from './model';

/** Older kept contacts expire (TTL) and are not picked up. */
export { PICKUP_WINDOW_DAYS };

/** A funnel contact with a phone that no active SMS integration took when it came in. */
export interface EarlierContactDoc {
  funnel_id: string;
  contact_id: string;
  phone: string;
  email: string | null;
  first_name: string | null;
  /** What the sender said of the checkout (cart and its link, a consent hold, zone hints), as a new contact takes it. */
  extras?: ContactExtras;
  /** The checkout link alone, as rows kept before the extras hold it (they expire within the pick-up window). */
  checkout_url?: string | null;
  /** The fact passed a signature check where it came in (or was a staff action). */
  trusted: boolean;
  /** A "Send test delivery" sample's contact (absent on those kept before the flag: false). */
  test?: boolean;
  received_at: Date;
}

const coll = (conn: Connection) => conn.collection<EarlierContactDoc>('sms_earlier_contacts');

export async function initEarlierContacts(conn: Connection): Promise<void> {
  const c = coll(conn);
  await Promise.all([
    c.createIndex({ funnel_id: 1, contact_id: 1 }, { unique: true }),
    c.createIndex({ funnel_id: 1, received_at: 1 }),
    c.createIndex({ received_at: 1 }, { expireAfterSeconds: PICKUP_WINDOW_DAYS * 86_400 }),
  ]);
}

/** Keeps a contact no SMS integration took (the first report of it wins; a repeat changes nothing). */
export async function keepEarlierContact(conn: Connection, fact: Omit<EarlierContactDoc, 'received_at'>, at = new Date()): Promise<void> {
  try {
    await coll(conn).updateOne({ funnel_id: fact.funnel_id, contact_id: fact.contact_id }, { $setOnInsert: { ...fact, received_at: at } }, { upsert: true });
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
  }
}

/** A kept contact's extras; a row holding its link alone gets a cart of that link, as the sender's formats give one. */
function extrasOf(k: EarlierContactDoc): ContactExtras | undefined {
  if (k.extras) return k.extras;
  const cart = k.checkout_url ? normalizeCart({ recoveryUrl: k.checkout_url }, k.received_at).cart : null;
  return cart ? contactExtras(cart, null, null) : undefined;
}

export interface PickUpDeps {
  conn: Connection;
  /** Makes the SMS contact, as the funnel event would have (its sequence starts from now). */
  upsert(input: { integration: IntegrationDoc; funnelId: string; contactId: string; phone: string; email: string | null; firstName: string | null; test: boolean; extras?: ContactExtras }): Promise<unknown>;
  /** Whether the integration takes signed facts only (then an unverified one is not picked up). */
  requiresSigning(integration: IntegrationDoc): Promise<boolean>;
  logger: Logger;
}

/**
 * A new active SMS integration takes the contacts of its funnel kept in the last PICKUP_WINDOW_DAYS days: each
 * becomes an SMS contact (once: the contacts' unique key) and leaves the kept list. Answers how many it took.
 */
export async function pickUpEarlierContacts(deps: PickUpDeps, integration: IntegrationDoc, now = new Date()): Promise<number> {
  if (!integration.active) return 0;
  const c: Collection<EarlierContactDoc> = coll(deps.conn);
  const kept = await c.find({ funnel_id: integration.funnel_id, received_at: { $gte: new Date(now.getTime() - PICKUP_WINDOW_DAYS * DAY_MS) } }).toArray();
  if (kept.length === 0) return 0;
  const signedOnly = await deps.requiresSigning(integration);
  let taken = 0;
  for (const k of kept) {
    if (signedOnly && !k.trusted) continue;
    await deps.upsert({ integration, funnelId: k.funnel_id, contactId: k.contact_id, phone: k.phone, email: k.email, firstName: k.first_name, test: k.test === true, extras: extrasOf(k) });
    await c.deleteOne({ funnel_id: k.funnel_id, contact_id: k.contact_id });
    taken++;
  }
  deps.logger.info({ integrationId: integration.id, funnelId: integration.funnel_id, taken }, 'SMS integration picked up earlier contacts of its funnel');
  return taken;
}
