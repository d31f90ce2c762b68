import type { Collection } from 'mongodb';
import { cohortFunnel, type RevenueSide } from '@act/service-kit';
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
      // A test delivery's contact is in no count.
      const range = { created_at: { $gte: from, $lt: until }, test: { $ne: true }, ...(integrationId !== undefined ? { integration_id: integrationId } : {}) };
      const [count, reached] = await Promise.all([
        contacts.countDocuments(range),
        // sent_count counts the messages Twilio took (held, skipped and blocked steps are not sends).
        contacts.find({ ...range, sent_count: { $gt: 0 } }, { projection: { _id: 0, last_sent_at: 1, purchased_at: 1 } }).toArray(),
      ]);
      // The sequence stops at a purchase, so a purchase after the contact's last message is one after its first.
      return cohortFunnel(
        count,
        reached.map((c) => ({ remindedAt: c.last_sent_at ?? new Date(0), clicked: null, purchasedAt: c.purchased_at })),
        false,
      );
    },
  };
}
