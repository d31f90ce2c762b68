import { zoneHintsOf } from '@act/contracts/src/timing';
import type { Connection } from 'mongoose';
import { consume, type Bus, type ConsumedEvent, type Logger } from '@act/service-kit';
import { Subjects, type FactOrigin, type FunnelContactEvent, type FunnelPurchaseEvent } from '@act/contracts';
import { CartStore, cartFromEvent, contactExtras, heldFromEvent, isTrusted, readOrigin, refusedFact } from '@act/sources';
import type { ContactService } from '../contacts/service';
import type { IntegrationCache } from '../integrations/cache';
import { keepEarlierContact } from '../integrations/earlier-contacts';
import { TEST_DELIVERY_PHONE } from '@act/contracts/src/test-delivery';
import { toE164 } from '../contacts/phone';
import { contactModel } from '../contacts/model';
import type { IntegrationDoc } from '../integrations/model';
import type { WebhookEventService } from '../webhook-events/service';
import { relayedCodesRedeemer } from '../incentives/relayed';

/**
 * What svc-sms does with the funnel facts the email side saw:
 * - a purchase marks the matching SMS contacts purchased (same funnel and contact_id, or same phone) and stops them;
 * - a contact with a phone, for a funnel with an ACTIVE SMS integration, becomes an SMS contact through the same
 *   idempotent upsert as the SMS webhook, so a funnel posting to both URLs still yields one contact.
 * Handlers are idempotent; the consumer records event ids and skips svc-sms's own events.
 *
 * The email side checked the delivery against its own integration only. A funnel whose SMS integration requires
 * signing (a secret, or the side's "Require signed deliveries") takes a relayed fact only when its delivery was
 * verified there (or it was a staff action): otherwise an unsigned post to the email URL would reach it. A refused
 * fact is recorded in the SMS Webhook Events list with the reason.
 */
export interface FunnelEventDeps {
  conn: Connection;
  contacts: ContactService;
  integrations: IntegrationCache;
  events: WebhookEventService;
  logger: Logger;
}

export function createFunnelEventHandler(deps: FunnelEventDeps) {
  const redeemRelayed = relayedCodesRedeemer(deps.conn);
  return async function handle({ subject, payload }: ConsumedEvent): Promise<void> {
    const origin = readOrigin(payload);
    const trusted = isTrusted(origin);
    if (subject === Subjects.purchaseCreated) {
      const e = payload as unknown as FunnelPurchaseEvent;
      const funnelId = typeof e.funnelId === 'string' && e.funnelId ? e.funnelId : null;
      if (!trusted && (await deps.integrations.funnelRequiresSigning(funnelId)))
        return refuse(deps, Subjects.purchaseCreated, payload, funnelId ? await deps.integrations.activeForFunnel(funnelId) : null, origin);
      const phone = toE164(e.phone);
      const changed = await deps.contacts.markPurchased({
        funnelId,
        contactId: typeof e.contactId === 'string' ? e.contactId : e.contactId != null ? String(e.contactId) : null,
        phone,
      });
      // The codes the order used that this side's steps gave: redeemed here too (revenue's per-step figures).
      const at = new Date(typeof e.purchasedAt === 'string' ? e.purchasedAt : NaN);
      const redeemed = await redeemRelayed(e, funnelId, phone, Number.isNaN(at.getTime()) ? new Date() : at);
      if (redeemed) deps.logger.info({ funnelId: e.funnelId, contactId: e.contactId, redeemed }, 'codes of a relayed purchase marked redeemed');
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
      // An event from before the flag: a test by the sample's phone, the rule it was published under.
      const test = typeof e.test === 'boolean' ? e.test : phone === TEST_DELIVERY_PHONE;
      const integration = await deps.integrations.activeForFunnel(e.funnelId);
      // What the email side kept of the checkout: the same cart (its link with it), hold and zone hints here (read
      // again through the limits: the payload is JSON from the stream).
      const extras = contactExtras(cartFromEvent(e.cart, new Date()), heldFromEvent(e.remindersHeld), zoneHintsOf(Object(e.zoneHints ?? {}) as Record<string, unknown>));
      // Kept for an SMS integration of this funnel created later (integrations/earlier-contacts.ts).
      if (!integration)
        return keepEarlierContact(deps.conn, {
          funnel_id: e.funnelId,
          contact_id: String(e.contactId),
          phone,
          email: typeof e.email === 'string' ? e.email : null,
          first_name: typeof e.firstName === 'string' ? e.firstName : null,
          extras,
          trusted,
          test,
        });
      if (!trusted && (await deps.integrations.requiresSigning(integration)))
        return refuse(deps, Subjects.contactCreated, payload, integration, origin);
      // A new contact is inserted with them; one already there takes the cart newest-wins by the sender's time.
      const { contact, created } = await deps.contacts.upsertFromFunnel({
        integration,
        funnelId: e.funnelId,
        contactId: String(e.contactId),
        phone,
        email: typeof e.email === 'string' ? e.email : null,
        firstName: typeof e.firstName === 'string' ? e.firstName : null,
        test,
        extras,
      });
      if (!created) await new CartStore(contactModel(deps.conn).collection).keepExtras(integration.id, contact.contact_id, extras);
    }
  };
}

/** Recorded as a rejected delivery, with the reason: an operator sees it; nothing is applied. */
async function refuse(
  deps: FunnelEventDeps,
  subject: string,
  payload: Record<string, unknown>,
  integration: IntegrationDoc | null,
  origin: FactOrigin,
): Promise<void> {
  const info = refusedFact(origin, subject, 'email', integration);
  // Typed `rejected` as the webhook path records a refused delivery.
  await deps.events.record('rejected', JSON.stringify(payload), info);
  deps.logger.warn({ funnelId: payload.funnelId, contactId: payload.contactId, subject }, info.verification_reason);
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
