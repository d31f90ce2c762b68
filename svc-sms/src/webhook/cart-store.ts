import type { Connection } from 'mongoose';
import type { Collection, Filter } from 'mongodb';
import type { Cart } from '@act/contracts/src/cart';
import { olderCartCondition } from '@act/sources';
import { contactModel, type ContactDoc } from '../contacts/model';

/** Keeps what a sender said of an SMS contact's checkout on it: its cart, newest by the sender's time, and a hold. */
export class CartStore {
  private readonly coll: Collection<ContactDoc>;

  constructor(conn: Connection) {
    this.coll = contactModel(conn).collection as unknown as Collection<ContactDoc>;
  }

  /** True when the contact took the cart; false when it holds one changed at the same time or later (or is gone). */
  async keep(integrationId: number, contactId: string, cart: Cart): Promise<boolean> {
    const filter = { integration_id: integrationId, contact_id: contactId, ...olderCartCondition(cart) };
    const r = await this.coll.updateOne(filter as Filter<ContactDoc>, { $set: { cart } });
    return r.modifiedCount > 0;
  }

  /** Records why no message may go to the contact (the shopper's consent); the sequence reads it. */
  async hold(integrationId: number, contactId: string, reason: string): Promise<void> {
    await this.coll.updateOne({ integration_id: integrationId, contact_id: contactId }, { $set: { reminders_held: reason } });
  }
}
