import { BadRequestError } from '@act/service-kit';
import { DEFAULT_FUNNEL_ID, type WebhookOkResponse } from '@act/contracts/src/email-api';
import { parseFunnelWebhook, type FunnelEvent } from './parse';
import type { WebhookEventsService } from '../webhook-events/service';
import type { ContactsService } from '../contacts/service';
import type { IntegrationCache } from '../integrations/cache';
import type { EventPublisher } from '../events/publisher';

/**
 * POST /api/webhook: store the delivery as received, apply it, record the fact in the outbox, answer; the
 * outbox relay publishes. Few round trips on purpose (the intake must sustain thousands per second): the event
 * insert beside the contact insert, then the contacts list's announcement beside the outbox insert; integrations
 * come from a short-lived cache.
 */
export class WebhookService {
  constructor(
    private readonly events: WebhookEventsService,
    private readonly contacts: ContactsService,
    private readonly integrations: IntegrationCache,
    private readonly publisher: EventPublisher,
  ) {}

  async handle(raw: string, body: unknown, bodyError?: string): Promise<WebhookOkResponse> {
    const parsed = parseFunnelWebhook(body, bodyError);
    if (!parsed.ok || parsed.event.kind === 'handshake') {
      await this.events.record(parsed.ok ? parsed.event.kind : 'invalid', raw);
      if (!parsed.ok) throw new BadRequestError(parsed.error);
      return { status: 'ok', message: 'Handshake received' };
    }
    // The delivery's record and its effect are independent writes: they go out together, one round trip
    // instead of two in front of the answer (the record is written even when applying fails).
    const [, answer] = await Promise.all([this.events.record(parsed.event.kind, raw), this.apply(parsed.event)]);
    return answer;
  }

  private async apply(ev: Exclude<FunnelEvent, { kind: 'handshake' }>): Promise<WebhookOkResponse> {
    const integration = await this.integrations.resolve(ev.funnelId);
    const funnelId = ev.funnelId ?? DEFAULT_FUNNEL_ID;
    const now = new Date();

    if (ev.kind === 'contact_created') {
      const { created, announced } = await this.contacts.createFromFunnel({ integration, contactId: ev.contactId, email: ev.email, phone: ev.phone, firstName: ev.firstName, createdAt: now });
      // The list's announcement and the outbox row go out together: one round trip in front of the answer, not two.
      await Promise.all([announced, created && this.publisher.contactCreated({ funnelId, contactId: ev.contactId, email: ev.email, phone: ev.phone, firstName: ev.firstName, createdAt: now.toISOString() })]);
      return { status: 'ok', message: created ? 'Contact created' : 'Contact already exists', contact_id: ev.contactId, integration_id: integration.id };
    }

    if (ev.kind === 'contact_updated') {
      const { created, contact } = await this.contacts.updateFromFunnel({ integration, contactId: ev.contactId, email: ev.email, phone: ev.phone, firstName: ev.firstName, createdAt: now });
      await this.publisher.contactUpdated({ funnelId, contactId: ev.contactId, email: ev.email, phone: contact.phone ?? null, firstName: contact.first_name ?? null, createdAt: new Date(contact.created_at).toISOString() });
      return { status: 'ok', message: created ? 'Contact created' : 'Contact updated', contact_id: ev.contactId, integration_id: integration.id };
    }

    if (ev.kind !== 'purchase_created') throw new BadRequestError('Unknown event type');
    const { matched } = await this.contacts.markPurchased({ integrationId: integration.id, contactId: ev.contactId, email: ev.email, purchasedAt: now });
    await this.publisher.purchaseCreated({ funnelId, contactId: ev.contactId, email: ev.email, phone: ev.phone, amount: ev.amount, currency: ev.currency, purchasedAt: now.toISOString() });
    return { status: 'ok', message: matched > 0 ? 'Purchase recorded' : 'Purchase recorded; no matching contact', contact_id: ev.contactId, integration_id: integration.id, matched };
  }
}
