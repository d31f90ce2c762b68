import type { Connection } from 'mongoose';
import { TEST_DELIVERY_PHONE } from '@act/contracts/src/test-delivery';
import { contactModel } from '../contacts/model';
import { logModel } from '../logs/model';

/**
 * Removes every contact a "Send test delivery" made on this side (stored with `test: true`, contracts
 * test-delivery.ts) and its message log rows: the one-click clean-up of the SMS integrations page. Read on the
 * flag's partial index; real contacts are never touched.
 */
export async function clearTestDeliveries(conn: Connection): Promise<{ contacts: number; logs: number }> {
  const contacts = contactModel(conn).collection;
  const ids = (await contacts.find({ test: true }, { projection: { _id: 0, id: 1 } }).toArray()).map((c) => c.id as number);
  if (ids.length === 0) return { contacts: 0, logs: 0 };
  const [gone, logs] = await Promise.all([
    contacts.deleteMany({ id: { $in: ids }, test: true }),
    logModel(conn).collection.deleteMany({ contact_ref: { $in: ids } }),
  ]);
  return { contacts: gone.deletedCount, logs: logs.deletedCount };
}

/**
 * At start: contacts stored before the `test` flag existed are tests by the sample's reserved phone (the rule they
 * were stored under), and lose any next step, as intake never schedules one for a test; every reader then reads the
 * flag alone. Served by the phone index.
 */
export async function markLegacyTestDeliveries(conn: Connection): Promise<number> {
  const r = await contactModel(conn).collection.updateMany({ phone: TEST_DELIVERY_PHONE, test: { $exists: false } }, { $set: { test: true, next_at: null } });
  return r.modifiedCount;
}
