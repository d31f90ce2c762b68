import type { Collection } from 'mongodb';
import type { RevenueSide } from '@act/service-kit';
import type { ContactDoc } from '../contacts/model';
import type { IntegrationDoc } from '../integrations/model';

/** The SMS side's part of the revenue summary: its integrations and contacts; Twilio reports no clicks. */
export function smsRevenueSide({ contacts, integrations }: { contacts: Collection<ContactDoc>; integrations: Collection<IntegrationDoc> }): RevenueSide {
  return {
    async funnelOf(id) {
      return (await integrations.findOne({ id }, { projection: { _id: 0, funnel_id: 1 } }))?.funnel_id ?? undefined;
    },
    async integrations() {
      const all = await integrations.find({}, { projection: { _id: 0, id: 1, name: 1, funnel_id: 1 } }).sort({ id: -1 }).toArray();
      // Several integrations may share a funnel: the oldest names it.
      return new Map(all.map((i) => [i.funnel_id, { id: i.id, name: i.name }]));
    },
    contactsIn(from, until, integrationId) {
      return contacts.countDocuments({ created_at: { $gte: from, $lt: until }, ...(integrationId !== undefined ? { integration_id: integrationId } : {}) });
    },
    async clickedIn() {
      return null;
    },
  };
}
