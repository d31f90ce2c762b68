import type { Collection } from 'mongodb';
import type { RevenueFunnel } from '@act/contracts/src/revenue-api';
import { contactNumbersOf, type RevenueSide } from '@act/service-kit';
import type { ContactDoc } from '../contacts/model';
import type { IntegrationDoc } from '../integrations/model';

/**
 * The SMS side's part of the revenue summary: its integrations and contacts, SMS data only (SMS Statistics shows no
 * email recovery and no email-only funnel); Twilio reports no clicks.
 */
export function smsRevenueSide({ contacts, integrations }: { contacts: Collection<ContactDoc>; integrations: Collection<IntegrationDoc> }): RevenueSide {
  return {
    channel: 'sms',
    async funnelOf(id) {
      return (await integrations.findOne({ id }, { projection: { _id: 0, funnel_id: 1 } }))?.funnel_id ?? undefined;
    },
    async integrations() {
      const all = await integrations.find({}, { projection: { _id: 0, id: 1, name: 1, funnel_id: 1 } }).sort({ id: -1 }).toArray();
      // Several integrations may share a funnel: the oldest names it.
      return new Map(all.map((i) => [i.funnel_id, { id: i.id, name: i.name }]));
    },
    async funnel(from, until, integrationId) {
      // One pass in the database over the contacts that came in within the range (a test delivery's contact is in
      // no count). sent_count counts the messages Twilio took (held, skipped and blocked steps are not sends); the
      // sequence stops at a purchase, so a purchase at or after the contact's last message is one after its first.
      const [f] = await contacts
        .aggregate<Omit<RevenueFunnel, 'clicked'>>([
          { $match: { created_at: { $gte: from, $lt: until }, test: { $ne: true }, ...(integrationId !== undefined ? { integration_id: integrationId } : {}) } },
          {
            $group: {
              _id: null,
              contacts: { $sum: 1 },
              reminded: { $sum: { $cond: [{ $gt: ['$sent_count', 0] }, 1, 0] } },
              purchased: { $sum: { $cond: [{ $and: [{ $gt: ['$sent_count', 0] }, { $gt: ['$purchased_at', null] }, { $gte: ['$purchased_at', { $ifNull: ['$last_sent_at', new Date(0)] }] }] }, 1, 0] } },
            },
          },
          { $project: { _id: 0, contacts: 1, reminded: 1, purchased: 1 } },
        ])
        .toArray();
      return { contacts: f?.contacts ?? 0, reminded: f?.reminded ?? 0, clicked: null, purchased: f?.purchased ?? 0 };
    },
    async contactNumbers(buyers) {
      const all = await integrations.find({}, { projection: { _id: 0, id: 1, funnel_id: 1 } }).toArray();
      const funnelOfIntegration = new Map(all.map((i) => [i.id, i.funnel_id]));
      return contactNumbersOf(contacts as never, buyers, { emailField: 'email', funnelOfIntegration });
    },
  };
}
