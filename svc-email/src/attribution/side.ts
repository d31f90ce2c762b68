import type { Collection } from 'mongodb';
import type { RevenueFunnel } from '@act/contracts/src/revenue-api';
import { contactNumbersOf, type RevenueSide } from '@act/service-kit';
import type { ContactDoc } from '../contacts/model';
import type { IntegrationCache } from '../integrations/cache';

/** The email side's part of the revenue summary: its integrations, contacts, and what Resend really sent them. */
export function emailRevenueSide({ contacts, integrations, simulated }: { contacts: Collection<ContactDoc>; integrations: IntegrationCache; simulated: boolean }): RevenueSide {
  return {
    async funnel(from, until, integrationId) {
      // One pass in the database over the contacts that came in within the range (a test delivery's contact is in
      // no count): each keeps when Resend first took an email for it and its first click (./reach.ts), so the
      // funnel never reads the range's email logs. A purchase counts once it came at or after that first email.
      const [f] = await contacts
        .aggregate<RevenueFunnel>([
          { $match: { created_at: { $gte: from, $lt: until }, test: { $ne: true }, ...(integrationId !== undefined ? { integration_id: integrationId } : {}) } },
          {
            $group: {
              _id: null,
              contacts: { $sum: 1 },
              reminded: { $sum: { $cond: [{ $gt: ['$first_sent_at', null] }, 1, 0] } },
              clicked: { $sum: { $cond: [{ $and: [{ $gt: ['$first_sent_at', null] }, { $gt: ['$clicked_at', null] }] }, 1, 0] } },
              purchased: { $sum: { $cond: [{ $and: [{ $gt: ['$first_sent_at', null] }, { $gte: ['$purchased_at', '$first_sent_at'] }] }, 1, 0] } },
            },
          },
          { $project: { _id: 0, contacts: 1, reminded: 1, clicked: 1, purchased: 1 } },
        ])
        .toArray();
      return f ?? { contacts: 0, reminded: 0, clicked: 0, purchased: 0 };
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
    async contactNumbers(buyers) {
      const { byId } = await integrations.get();
      const funnelOfIntegration = new Map([...byId.values()].map((i) => [i.id, i.funnel_id]));
      return contactNumbersOf(contacts as never, buyers, { emailField: 'email_lower', funnelOfIntegration });
    },
  };
}
