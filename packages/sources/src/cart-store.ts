import type { StoredZoneHints } from '@act/contracts/src/timing';
import type { Cart } from '@act/contracts/src/cart';
import { olderCartCondition } from './cart';

/** The one call the store makes on a side's contacts collection (the driver's `updateOne`). */
export interface ContactsUpdater {
  updateOne(filter: Record<string, unknown>, update: Record<string, unknown>): Promise<{ modifiedCount: number }>;
}

/**
 * Keeps what a sender said of a contact's checkout on it, on either side: its cart, newest by the sender's time, and
 * a hold. Both services key a contact by (integration, contact id) and serve it with their unique index.
 */
export class CartStore {
  constructor(private readonly contacts: ContactsUpdater) {}

  /** True when the contact took the cart; false when it holds one changed at the same time or later (or is gone). */
  async keep(integrationId: number, contactId: string, cart: Cart): Promise<boolean> {
    const filter = { integration_id: integrationId, contact_id: contactId, ...olderCartCondition(cart) };
    const r = await this.contacts.updateOne(filter, { $set: { cart } });
    return r.modifiedCount > 0;
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
