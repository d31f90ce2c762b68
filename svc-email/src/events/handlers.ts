import { zoneHintsOf } from '@act/contracts/src/timing';
import { isTestDeliveryEmail } from '@act/contracts/src/test-delivery';
import { Subjects, type FactOrigin, type FunnelContactEvent, type FunnelPurchaseEvent } from '@act/contracts';
import { CartStore, cartFromEvent, contactExtras, heldFromEvent, isTrusted, readOrigin, refusedFact } from '@act/sources';
import type { ContactsService } from '../contacts/service';
import type { IntegrationCache } from '../integrations/cache';
import type { IntegrationDoc } from '../integrations/model';
import type { WebhookEventsService } from '../webhook-events/service';
import { EMAIL_PATTERN as EMAIL } from '@act/contracts/src/email-address';
import { relayedCodesRedeemer } from '../incentives/relayed';

function date(v: unknown): Date {
  const d = typeof v === 'string' ? new Date(v) : new Date(NaN);
  return Number.isNaN(d.getTime()) ? new Date() : d;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

export interface EventDeps {
  contacts: ContactsService;
  integrations: IntegrationCache;
  /** Where a fact refused by the signing rules is recorded, for the operator (the Webhook Events list). */
  events: WebhookEventsService;
}

/**
 * Facts from the SMS side. Both effects are idempotent on their own (conditional purchase update; contact
 * upsert keyed by integration and funnel contact id), on top of the consumer's processed-event record.
 * The SMS side checked the delivery against its own integration; this side holds the fact to its own integration's
 * signing rules as well, so an unsigned delivery posted to the other URL cannot reach a funnel signed here.
 */
export async function handleFunnelEvent(subject: string, payload: Record<string, unknown>, deps: EventDeps): Promise<void> {
  const { contacts, integrations } = deps;
  const origin = readOrigin(payload);
  const trusted = isTrusted(origin);
  if (subject === Subjects.purchaseCreated) {
    const p = payload as Partial<FunnelPurchaseEvent>;
    const integration = await integrations.resolve(str(p.funnelId));
    if (!trusted && (await integrations.requiresSigning(integration)))
      return refuse(deps, Subjects.purchaseCreated, payload, integration, origin);
    const email = str(p.email);
    const match = {
      integrationId: integration.id,
      email: email && EMAIL.test(email) ? email : null,
      excludeIntegrationIds: trusted ? [] : await integrations.signedIds(),
    };
    await contacts.markPurchased({ ...match, contactId: str(p.contactId), purchasedAt: date(p.purchasedAt) });
    // The codes the order used that this side's steps gave: redeemed here too (revenue's per-step figures).
    if (p.discountCodes?.length) await relayedCodesRedeemer(contacts.coll)(p, match, date(p.purchasedAt));
    return;
  }
  if (subject === Subjects.contactCreated) {
    const p = payload as Partial<FunnelContactEvent>;
    const email = str(p.email);
    const funnelId = str(p.funnelId);
    const contactId = str(p.contactId);
    if (!email || !EMAIL.test(email) || !funnelId || !contactId) return;
    // Only a funnel the email side is set up for: a phone-only SMS funnel must not start email reminders.
    const integration = await integrations.activeForFunnel(funnelId);
    if (!integration) return;
    if (!trusted && (await integrations.requiresSigning(integration)))
      return refuse(deps, Subjects.contactCreated, payload, integration, origin);
    // An event from before the flag: a test by the sample's address, the rule it was published under.
    const test = typeof p.test === 'boolean' ? p.test : isTestDeliveryEmail(email);
    // What the SMS side kept of the checkout: the same cart, hold and zone hints here (read again through the
    // limits: the payload is JSON from the stream). A new contact is inserted with them; one already there takes the
    // cart newest-wins by the sender's time.
    const extras = contactExtras(cartFromEvent(p.cart, new Date()), heldFromEvent(p.remindersHeld), zoneHintsOf(Object(p.zoneHints ?? {}) as Record<string, unknown>));
    const { created } = await contacts.createFromFunnel({ integration, contactId, email, phone: str(p.phone), firstName: str(p.firstName), createdAt: date(p.createdAt), test, extras });
    if (!created) await new CartStore(contacts.coll).keepExtras(integration.id, contactId, extras);
  }
}

/** Recorded as a rejected delivery of the integration, with the reason: never dropped without a trace. */
async function refuse(
  { events }: EventDeps,
  subject: string,
  payload: Record<string, unknown>,
  integration: IntegrationDoc,
  origin: FactOrigin,
): Promise<void> {
  // Typed `rejected` as the webhook path records a refused delivery.
  await events.record('rejected', JSON.stringify(payload), refusedFact(origin, subject, 'SMS', integration));
}
