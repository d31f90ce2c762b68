import type { StoredZoneHints } from '@act/contracts/src/timing';
import type { Cart } from '@act/contracts/src/cart';

/** The calls the store makes on a side's contacts collection (the driver's `findOne` and `updateOne`). */
export interface ContactsUpdater {
  findOne(
    filter: Record<string, unknown>,
    options: { projection: Record<string, 0 | 1> },
  ): Promise<{ cart?: { updated_at?: unknown; recovery_url?: string | null; recovery_expires_at?: string | null } | null } | null>;
  updateOne(filter: Record<string, unknown>, update: Record<string, unknown>): Promise<{ modifiedCount: number }>;
}

/**
 * On the MongoDB stand-in only (MONGO_STANDIN_INDEXES), each side's contacts declare this unique index beside their
 * (integration_id, contact_id) one: the cart's compare-and-set names all three fields by equality. MongoDB serves
 * that write by the (integration_id, contact_id) index; the stand-in (mongo-java-server) uses an index only when a
 * filter names exactly its fields, and scanned every contact without it (docs/webhooks.md, "The cart's write").
 */
export const CART_VERSION_INDEX = { key: { integration_id: 1, contact_id: 1, 'cart.updated_at': 1 }, name: 'standin_cart_version' } as const;
/** Its name now, and as MongoDB named it before the switch: production drops both at start. */
export const CART_VERSION_INDEX_NAMES = [CART_VERSION_INDEX.name, 'integration_id_1_contact_id_1_cart.updated_at_1'] as const;

/**
 * A write that matches nothing means another delivery stored a newer cart in between (stored times only grow), so
 * going round again always ends; this bound only turns a fault elsewhere into an error instead of a spin.
 */
const CART_ROUNDS_LIMIT = 1000;

const timeOf = (v: unknown): number | null => {
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'string' || typeof v === 'number') {
    const t = new Date(v).getTime();
    return Number.isNaN(t) ? null : t;
  }
  return null;
};

/**
 * What a sender said of a contact's checkout, as its fields: a contact created by the delivery is inserted with
 * them (one write, nobody else can hold a cart for it yet); a contact already there takes them through the store.
 */
export interface ContactExtras {
  cart?: Cart;
  reminders_held?: string;
  zone_hints?: StoredZoneHints;
}

export function contactExtras(cart: Cart | null, hold: string | null, zoneHints: StoredZoneHints | null | undefined): ContactExtras {
  return { ...(cart ? { cart } : {}), ...(hold ? { reminders_held: hold } : {}), ...(zoneHints ? { zone_hints: zoneHints } : {}) };
}

/**
 * Keeps what a sender said of a contact's checkout on it, on either side: its cart, newest by the sender's time, and
 * a hold. Both services key a contact by (integration, contact id) and serve it with their unique index.
 */
export class CartStore {
  constructor(private readonly contacts: ContactsUpdater) {}

  /**
   * True when the contact took the cart; false when it holds one changed at the same time or later (or is gone).
   * Senders retry and deliver out of order, so the sender's own time decides, not arrival; an equal time is the same
   * cart (a retry) and changes nothing. A compare-and-set: the stored cart's time is read by the contact's key, and
   * the write names that time, so a cart another delivery stored in between makes it match nothing and go round again.
   * A newer cart that names no checkout link keeps the one the contact has (with its end): a funnel's later delivery
   * (a new total, a new phone) often leaves the link out, and the reminders still need it.
   */
  async keep(integrationId: number, contactId: string, cart: Cart): Promise<boolean> {
    const key = { integration_id: integrationId, contact_id: contactId };
    const offered = timeOf(cart.updated_at);
    for (let round = 0; round < CART_ROUNDS_LIMIT; round++) {
      const stored = await this.contacts.findOne(key, {
        projection: { _id: 0, 'cart.updated_at': 1, 'cart.recovery_url': 1, 'cart.recovery_expires_at': 1 },
      });
      if (!stored) return false;
      const storedAt = stored.cart?.updated_at ?? null;
      const storedTime = timeOf(storedAt);
      if (storedTime !== null && offered !== null && storedTime >= offered) return false;
      const link = stored.cart?.recovery_url;
      const kept = cart.recovery_url || !link ? cart : { ...cart, recovery_url: link, recovery_expires_at: stored.cart?.recovery_expires_at ?? null };
      const r = await this.contacts.updateOne({ ...key, 'cart.updated_at': storedAt }, { $set: { cart: kept } });
      if (r.modifiedCount > 0) return true;
    }
    throw new Error(`The cart of contact ${contactId} changed under ${CART_ROUNDS_LIMIT} writes in a row`);
  }

  /** A contact already there: its cart (newest wins), its hold and its zone hints, each as the methods below keep them. */
  async keepExtras(integrationId: number, contactId: string, extras: ContactExtras): Promise<void> {
    if (extras.cart) await this.keep(integrationId, contactId, extras.cart);
    if (extras.reminders_held) await this.hold(integrationId, contactId, extras.reminders_held);
    if (extras.zone_hints) await this.keepZoneHints(integrationId, contactId, extras.zone_hints);
  }

  /** Keeps where the sender says the shopper lives (quiet hours on the shopper's clock read it); the latest wins. */
  async keepZoneHints(integrationId: number, contactId: string, hints: StoredZoneHints): Promise<void> {
    await this.contacts.updateOne({ integration_id: integrationId, contact_id: contactId }, { $set: { zone_hints: hints } });
  }

  /** Records why no message may go to the contact (the shopper's consent); the side's flow reads it. */
  async hold(integrationId: number, contactId: string, reason: string): Promise<void> {
    await this.contacts.updateOne({ integration_id: integrationId, contact_id: contactId }, { $set: { reminders_held: reason } });
  }
}
