import type { Collection } from 'mongodb';
import type { ContactDoc } from '../contacts/model';
import type { EmailLogDoc } from '../email-logs/model';

/**
 * Removes every contact a "Send test delivery" made on this side (stored with `test: true`, contracts
 * test-delivery.ts) and its email log rows; read on the flag's partial index.
 */
export async function clearTestDeliveries(contacts: Collection<ContactDoc>, logs: Collection<EmailLogDoc>): Promise<{ contacts: number; logs: number }> {
  const ids = (await contacts.find({ test: true }, { projection: { _id: 0, id: 1 } }).toArray()).map((c) => c.id);
  if (ids.length === 0) return { contacts: 0, logs: 0 };
  const [gone, logged] = await Promise.all([
    contacts.deleteMany({ id: { $in: ids }, test: true }),
    logs.deleteMany({ contact_ref: { $in: ids } }),
  ]);
  return { contacts: gone.deletedCount, logs: logged.deletedCount };
}
