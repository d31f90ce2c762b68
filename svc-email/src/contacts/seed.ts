import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { nextId } from '@act/service-kit';
import { contactModel, type ContactDoc } from './model';
import { newContactFields } from './service';

export interface SeedContact {
  contactId: string;
  email: string;
  firstName: string | null;
  createdAt: Date;
  /** Set for a contact the funnel reported a purchase for. */
  purchasedAt?: Date;
}

/**
 * Benchmarks only: writes contacts straight into svc-email's database, in the documents the webhook path writes
 * (same field builder, same id counter), so a running svc-email's contacts list shows them at once. Their flow rows
 * are not written: seeded contacts are for the list, and their reminders (if ever due) get a row within a
 * minute of coming due (SequenceEngine.adoptPending).
 */
export async function seedContacts(conn: Connection, integration: { id: number; reminder_delay: number }, delayUnitMs: number, items: SeedContact[]): Promise<void> {
  const coll = contactModel(conn).collection as unknown as Collection<ContactDoc>;
  const first = await nextId(conn, 'contacts', items.length);
  const docs: ContactDoc[] = items.map((it, i) => {
    const remindAt = new Date(it.createdAt.getTime() + integration.reminder_delay * delayUnitMs);
    const doc: ContactDoc = { ...newContactFields(first + i, { email: it.email, phone: null, firstName: it.firstName, createdAt: it.createdAt }, remindAt), contact_id: it.contactId, integration_id: integration.id };
    if (it.purchasedAt) Object.assign(doc, { status: 'purchased', purchased_at: it.purchasedAt });
    return doc;
  });
  for (let i = 0; i < docs.length; i += 5_000) await coll.insertMany(docs.slice(i, i + 5_000), { ordered: false });
}
