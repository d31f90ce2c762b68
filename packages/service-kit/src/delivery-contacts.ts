import type { Collection } from 'mongodb';

/** What a side's contacts have in common: the sender's contact id within an integration (a unique pair on both). */
interface ContactKey {
  id: number;
  integration_id: number | null;
  contact_id: string;
}

/** A stored delivery as far as its contact goes: its integration, whom it named (`c:<funnel>:<id>` keys), and whether its signature was refused. */
export interface DeliveryNames {
  id: number;
  integration_id?: number | null;
  person_keys?: string[];
  verification?: string;
}

/** The sender's contact ids a `c:<funnel>:<id>` key may hold: the rest after each colon (a funnel id may hold one). */
function candidateIds(key: string): string[] {
  const rest = key.slice(2);
  const out: string[] = [];
  for (let i = rest.indexOf(':'); i !== -1; i = rest.indexOf(':', i + 1)) out.push(rest.slice(i + 1));
  return out.filter(Boolean);
}

/**
 * The contact each delivery produced or named on this side (delivery id → the contact's id), for a Webhook Events
 * row's link to the contact page: the contact of the delivery's integration with the sender's contact id the delivery
 * named. One read over the page's deliveries, served by the contacts' unique (integration_id, contact_id) index.
 * A delivery that named no contact id (a purchase by email only) or whose contact is gone has none, nor has one whose
 * signature was refused: anyone can name a contact there, and the row would read as the contact's own delivery.
 */
export async function deliveryContacts(contacts: Collection<ContactKey>, deliveries: DeliveryNames[]): Promise<Map<number, number>> {
  const named = deliveries
    .filter((d) => typeof d.integration_id === 'number' && d.verification !== 'rejected')
    .map((d) => ({ delivery: d.id, integration: d.integration_id as number, ids: (d.person_keys ?? []).filter((k) => k.startsWith('c:')).flatMap(candidateIds) }))
    .filter((d) => d.ids.length > 0);
  const found = new Map<number, number>();
  if (named.length === 0) return found;
  const rows = await contacts
    .find(
      { integration_id: { $in: [...new Set(named.map((d) => d.integration))] }, contact_id: { $in: [...new Set(named.flatMap((d) => d.ids))] } },
      { projection: { _id: 0, id: 1, integration_id: 1, contact_id: 1 } },
    )
    .toArray();
  const byKey = new Map(rows.map((r) => [`${r.integration_id}|${r.contact_id}`, r.id]));
  for (const d of named) {
    const id = d.ids.map((c) => byKey.get(`${d.integration}|${c}`)).find((v) => v !== undefined);
    if (id !== undefined) found.set(d.delivery, id);
  }
  return found;
}
