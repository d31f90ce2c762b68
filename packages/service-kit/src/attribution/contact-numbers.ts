import type { Collection, Document } from 'mongodb';
import type { BuyerRef } from './service';

interface ContactRow {
  id: number;
  contact_id: string;
  integration_id: number | null;
  created_at: Date;
  email?: string | null;
  email_lower?: string | null;
}

/**
 * A side's contact number for each buyer of the revenue list (its contact page): the contact the sender's id names
 * on an integration of the purchase's funnel, else the newest contact with the buyer's email; null when the side
 * holds neither. Two `$in` reads, on the contacts' `contact_id` and email indexes.
 */
export async function contactNumbersOf(
  contacts: Collection<Document>,
  buyers: BuyerRef[],
  opts: { emailField: 'email' | 'email_lower'; funnelOfIntegration: Map<number, string> },
): Promise<(number | null)[]> {
  const ids = [...new Set(buyers.map((b) => b.contactId).filter((v): v is string => Boolean(v)))];
  const emails = [...new Set(buyers.map((b) => b.email).filter((v): v is string => Boolean(v)))];
  const projection = { _id: 0, id: 1, contact_id: 1, integration_id: 1, created_at: 1, [opts.emailField]: 1 };
  const [byId, byEmail] = await Promise.all([
    ids.length ? contacts.find<ContactRow>({ contact_id: { $in: ids } }, { projection }).toArray() : Promise.resolve([]),
    emails.length ? contacts.find<ContactRow>({ [opts.emailField]: { $in: emails } }, { projection }).toArray() : Promise.resolve([]),
  ]);
  const newest = (rows: ContactRow[]) => rows.reduce<ContactRow | null>((a, r) => (!a || r.created_at > a.created_at ? r : a), null);
  return buyers.map((b) => {
    const own = byId.filter((c) => b.contactId && c.contact_id === b.contactId && c.integration_id !== null && opts.funnelOfIntegration.get(c.integration_id) === b.funnelId);
    const mail = b.email ? byEmail.filter((c) => (c[opts.emailField] ?? '').toLowerCase() === b.email) : [];
    return (newest(own) ?? newest(mail))?.id ?? null;
  });
}
