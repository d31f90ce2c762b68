import { BadRequestError, type Logger } from '@act/service-kit';
import { smsMessages } from '@act/contracts/src/sms-api';
import type { ContactService } from '../contacts/service';
import type { IntegrationCache } from '../integrations/cache';
import type { WebhookEventService } from '../webhook-events/service';
import type { FunnelEventPublisher } from '../events/publisher';
import { toE164 } from '../contacts/phone';
import { parseFunnelWebhook, type ParsedFunnelWebhook } from './parse';
import type { Clock } from '../settings';

export interface WebhookResult {
  status: 200 | 202;
  body: Record<string, unknown>;
}

export interface FunnelWebhookDeps {
  integrations: IntegrationCache;
  contacts: ContactService;
  events: WebhookEventService;
  publisher: FunnelEventPublisher;
  now: Clock;
  logger: Logger;
}

/**
 * POST /api/sms/webhook. Stores every delivery (so nothing is lost, even when refused), validates it, finds the
 * ACTIVE SMS integration for the funnel, applies the contact or purchase, and publishes the fact for the email side
 * through the outbox.
 */
export class FunnelWebhookService {
  constructor(private readonly deps: FunnelWebhookDeps) {}

  /** `body` is the parsed JSON (undefined with `parseError` when it was not JSON); `raw` the text as received. */
  async handle(raw: string, body: unknown, parseError?: string): Promise<WebhookResult> {
    const { events } = this.deps;
    if (parseError) {
      await events.record('invalid', raw);
      throw new BadRequestError(parseError);
    }
    const p = parseFunnelWebhook(body);
    if (p.kind === 'invalid') {
      await events.record('invalid', raw);
      throw new BadRequestError(p.error);
    }
    if (p.kind === 'handshake') {
      await events.record('handshake', raw);
      return { status: 200, body: { status: 'ok', message: 'Handshake received' } };
    }
    // Structural rules first (a 400 whatever the configuration), stored as `invalid`.
    const refuse = async (message: string): Promise<never> => {
      await events.record('invalid', raw);
      throw new BadRequestError(message);
    };
    if (!p.funnelId) return refuse(smsMessages.funnelIdRequired);
    if (!p.contactId) return refuse('contact_id is required');
    const phone = p.phone ? toE164(p.phone) : null;
    if (p.phone && !phone) return refuse(smsMessages.phoneInvalid);
    if (p.kind === 'contact' && !phone) return refuse(smsMessages.phoneRequired);

    const now = this.deps.now().toISOString();
    // The email side decides for itself whether the funnel concerns it, so the fact is published either way. The
    // delivery's record, the outbox write and this side's own write are independent, so they go out together: one
    // round trip in front of the answer, not two.
    const published =
      p.kind === 'contact'
        ? this.deps.publisher.contact(p.event === 'contact_updated' ? 'updated' : 'created', {
            funnelId: p.funnelId,
            contactId: p.contactId,
            email: p.email,
            phone,
            firstName: p.firstName,
            createdAt: now,
          })
        : this.deps.publisher.purchase({
            funnelId: p.funnelId,
            contactId: p.contactId,
            email: p.email,
            phone,
            amount: p.amount,
            currency: p.currency,
            purchasedAt: now,
          });
    // Settled, not raced: the answer waits for all three, so a failure never answers before the record is written.
    const [recorded, publishedFact, applied] = await Promise.allSettled([events.record(p.kind, raw), published, this.apply(p, phone)]);
    for (const r of [recorded, publishedFact, applied]) if (r.status === 'rejected') throw r.reason;
    return (applied as PromiseFulfilledResult<WebhookResult>).value;
  }

  private async apply(
    p: Extract<ParsedFunnelWebhook, { kind: 'contact' | 'purchase' }>,
    phone: string | null,
  ): Promise<WebhookResult> {
    const integration = await this.deps.integrations.activeForFunnel(p.funnelId!);
    if (!integration) {
      return {
        status: 202,
        body: { status: 'ignored', message: `No active SMS integration for funnel ${p.funnelId}` },
      };
    }

    if (p.kind === 'contact') {
      const { contact, created } = await this.deps.contacts.upsertFromFunnel({
        integration,
        funnelId: p.funnelId!,
        contactId: p.contactId!,
        phone: phone!,
        email: p.email,
        firstName: p.firstName,
        checkoutUrl: p.checkoutUrl,
      });
      return {
        status: 200,
        body: {
          status: 'ok',
          message: created ? 'SMS contact created' : 'SMS contact updated',
          contact_id: contact.contact_id,
          id: contact.id,
        },
      };
    }
    const updated = await this.deps.contacts.markPurchased({
      integrationId: integration.id,
      contactId: p.contactId,
      phone,
    });
    return {
      status: 200,
      body: {
        status: 'ok',
        message:
          updated > 0 ? 'Purchase recorded; SMS sequence stopped' : 'Purchase recorded; no open SMS contact matched',
        updated,
      },
    };
  }
}
