import type { Collection } from 'mongodb';
import type { RevenueSide } from '@act/service-kit';
import type { ContactDoc } from '../contacts/model';
import type { EmailLogDoc } from '../email-logs/model';
import type { IntegrationCache } from '../integrations/cache';

/** The email side's part of the revenue summary: its integrations, contacts, and Resend's click reports. */
export function emailRevenueSide({ contacts, logs, integrations }: { contacts: Collection<ContactDoc>; logs: Collection<EmailLogDoc>; integrations: IntegrationCache }): RevenueSide {
  return {
    async funnelOf(id) {
      return (await integrations.byId(id))?.funnel_id ?? undefined;
    },
    async integrations() {
      const { byId } = await integrations.get();
      return new Map([...byId.values()].map((i) => [i.funnel_id, { id: i.id, name: i.name }]));
    },
    async contactsIn(from, until, integrationId) {
      return contacts.countDocuments({ created_at: { $gte: from, $lt: until }, ...(integrationId !== undefined ? { integration_id: integrationId } : {}) });
    },
    async clickedIn(from, until, integrationId) {
      const refs = (await logs.distinct('contact_ref', { delivery: 'clicked', timestamp: { $gte: from, $lt: until } })) as number[];
      if (integrationId === undefined || refs.length === 0) return refs.length;
      return contacts.countDocuments({ id: { $in: refs }, integration_id: integrationId });
    },
  };
}
