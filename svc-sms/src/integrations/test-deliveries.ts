import type { Connection } from 'mongoose';
import { TEST_DELIVERY_PHONE } from '@act/contracts/src/test-delivery';
import { contactModel } from '../contacts/model';
import { logModel } from '../logs/model';

/**
 * Removes every contact a "Send test delivery" made on this side (its sample phone, contracts test-delivery.ts) and
 * its message log rows: the one-click clean-up of the SMS integrations page. Real contacts are never touched.
 */
export async function clearTestDeliveries(conn: Connection): Promise<{ contacts: number; logs: number }> {
  const contacts = contactModel(conn).collection;
  const ids = (await contacts.find({ phone: TEST_DELIVERY_PHONE }, { projection: { _id: 0, id: 1 } }).toArray()).map((c) => c.id as number);
  if (ids.length === 0) return { contacts: 0, logs: 0 };
  const [gone, logs] = await Promise.all([
    contacts.deleteMany({ id: { $in: ids }, phone: TEST_DELIVERY_PHONE }),
    logModel(conn).collection.deleteMany({ contact_ref: { $in: ids } }),
  ]);
  return { contacts: gone.deletedCount, logs: logs.deletedCount };
}

/**
 * A test delivery's contacts never get a text: their next step is taken away (the sequence engine only works a
 * contact whose `next_at` is due, and its step's compare-and-set fails on a changed one). Served by the phone index.
 */
export async function holdTestDeliveries(conn: Connection): Promise<number> {
  const r = await contactModel(conn).collection.updateMany({ phone: TEST_DELIVERY_PHONE, next_at: { $ne: null } }, { $set: { next_at: null } });
  return r.modifiedCount;
}
