import type { Collection } from 'mongodb';
import { TEST_DELIVERY_EMAIL_PATTERN } from '@act/contracts/src/test-delivery';
import type { ContactDoc } from '../contacts/model';
import type { EmailLogDoc } from '../email-logs/model';

/**
 * Removes every contact a "Send test delivery" made on this side (its sample address, contracts test-delivery.ts)
 * and its email log rows. Real contacts are never touched: the anchored pattern is read on `email_lower`'s index.
 */
export async function clearTestDeliveries(contacts: Collection<ContactDoc>, logs: Collection<EmailLogDoc>): Promise<{ contacts: number; logs: number }> {
  const ids = (await contacts.find({ email_lower: TEST_DELIVERY_EMAIL_PATTERN }, { projection: { _id: 0, id: 1 } }).toArray()).map((c) => c.id);
  if (ids.length === 0) return { contacts: 0, logs: 0 };
  const [gone, logged] = await Promise.all([
    contacts.deleteMany({ id: { $in: ids }, email_lower: TEST_DELIVERY_EMAIL_PATTERN }),
    logs.deleteMany({ contact_ref: { $in: ids } }),
  ]);
  return { contacts: gone.deletedCount, logs: logged.deletedCount };
}
