import type { Connection } from 'mongoose';
import { consume, type Bus, type ConsumedEvent, type Logger } from '@act/service-kit';
import { Subjects, type FunnelContactEvent, type FunnelPurchaseEvent } from '@act/contracts';
import type { ContactService } from '../contacts/service';
import type { IntegrationCache } from '../integrations/cache';
import { toE164 } from '../contacts/phone';

/**
 * What svc-sms does with the funnel facts the email side saw:
 * - a purchase marks the matching SMS contacts purchased (same funnel and contact_id, or same phone) and stops them;
 * - a contact with a phone, for a funnel with an ACTIVE SMS integration, becomes an SMS contact through the same
 *   idempotent upsert as the SMS webhook, so a funnel posting to both URLs still yields one contact.
 * Handlers are idempotent; the consumer records event ids and skips svc-sms's own events.
 */
export interface FunnelEventDeps {
  conn: Connection;
  contacts: ContactService;
  integrations: IntegrationCache;
  logger: Logger;
}

export function createFunnelEventHandler(deps: FunnelEventDeps) {
  return async function handle({ subject, payload }: ConsumedEvent): Promise<void> {
    if (subject === Subjects.purchaseCreated) {
      const e = payload as unknown as FunnelPurchaseEvent;
      const changed = await deps.contacts.markPurchased({
        funnelId: typeof e.funnelId === 'string' && e.funnelId ? e.funnelId : null,
        contactId: typeof e.contactId === 'string' ? e.contactId : e.contactId != null ? String(e.contactId) : null,
        phone: toE164(e.phone),
      });
      if (changed)
        deps.logger.info(
          { funnelId: e.funnelId, contactId: e.contactId, changed },
          'SMS contacts marked purchased from a funnel event',
        );
      return;
    }
    if (subject === Subjects.contactCreated) {
      const e = payload as unknown as FunnelContactEvent;
      const phone = toE164(e.phone);
      if (!phone || typeof e.funnelId !== 'string' || !e.funnelId || e.contactId == null) return;
      const integration = await deps.integrations.activeForFunnel(e.funnelId);
      if (!integration) return;
      await deps.contacts.upsertFromFunnel({
        integration,
        funnelId: e.funnelId,
        contactId: String(e.contactId),
        phone,
        email: typeof e.email === 'string' ? e.email : null,
        firstName: typeof e.firstName === 'string' ? e.firstName : null,
        checkoutUrl:
          typeof (e as { checkoutUrl?: unknown }).checkoutUrl === 'string'
            ? (e as { checkoutUrl?: string }).checkoutUrl
            : null,
      });
    }
  };
}

export function startFunnelConsumers(deps: FunnelEventDeps & { bus: Bus }) {
  return consume({
    conn: deps.conn,
    bus: deps.bus,
    durable: 'svc-sms',
    subjects: [Subjects.purchaseCreated, Subjects.contactCreated],
    ignoreSource: 'svc-sms',
    handler: createFunnelEventHandler(deps),
    logger: deps.logger,
  });
}
