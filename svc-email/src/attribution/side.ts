import type { Collection } from 'mongodb';
import { cohortFunnel, type RevenueSide } from '@act/service-kit';
import type { ContactDoc } from '../contacts/model';
import type { EmailLogDoc } from '../email-logs/model';
import type { IntegrationCache } from '../integrations/cache';

/** The one log status of an email Resend took for a shopper; `would_send` (live sending off) reached nobody. */
const REALLY_SENT = 'sent';

/** The email side's part of the revenue summary: its integrations, contacts, and what Resend really sent them. */
export function emailRevenueSide({ contacts, logs, integrations, simulated }: { contacts: Collection<ContactDoc>; logs: Collection<EmailLogDoc>; integrations: IntegrationCache; simulated: boolean }): RevenueSide {
  async function contactsIn(from: Date, until: Date, integrationId?: number): Promise<number> {
    // A test delivery's contact is in no count.
    return contacts.countDocuments({ created_at: { $gte: from, $lt: until }, test: { $ne: true }, ...(integrationId !== undefined ? { integration_id: integrationId } : {}) });
  }
  return {
    async funnel(from, until, integrationId) {
      // A cohort contact's reminder went out after it came in, so the real sends since `from` hold every one of
      // them: as many rows as emails Resend took (none while live sending is off), not one per contact.
      const [count, sent] = await Promise.all([
        contactsIn(from, until, integrationId),
        logs.find({ timestamp: { $gte: from }, status: REALLY_SENT }, { projection: { _id: 0, contact_ref: 1, timestamp: 1, delivery: 1 } }).toArray(),
      ]);
      const first = new Map<number, { at: Date; clicked: boolean }>();
      for (const l of sent) {
        const had = first.get(l.contact_ref);
        const clicked = (had?.clicked ?? false) || l.delivery === 'clicked';
        first.set(l.contact_ref, { at: had && had.at < l.timestamp ? had.at : l.timestamp, clicked });
      }
      if (first.size === 0) return cohortFunnel(count, [], true);
      const cohort = await contacts
        .find({ id: { $in: [...first.keys()] }, created_at: { $gte: from, $lt: until }, test: { $ne: true }, ...(integrationId !== undefined ? { integration_id: integrationId } : {}) }, { projection: { _id: 0, id: 1, purchased_at: 1 } })
        .toArray();
      return cohortFunnel(
        count,
        cohort.map((c) => ({ remindedAt: first.get(c.id)!.at, clicked: first.get(c.id)!.clicked, purchasedAt: c.purchased_at })),
        true,
      );
    },
    async funnelOf(id) {
      return (await integrations.byId(id))?.funnel_id ?? undefined;
    },
    async integrations() {
      const { byId } = await integrations.get();
      return new Map([...byId.values()].map((i) => [i.funnel_id, { id: i.id, name: i.name }]));
    },
    async sendingSimulated() {
      return simulated;
    },
  };
}
