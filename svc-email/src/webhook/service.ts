import { BadRequestError, IncentiveRedemptions, NotFoundError, UnauthorizedError, createSecretBox, type ReplayGuard, type SecretBox } from '@act/service-kit';
import { DEFAULT_FUNNEL_ID, type WebhookEventType, type WebhookOkResponse } from '@act/contracts/src/email-api';
import type { DeliveryInfo } from '@act/contracts/src/webhook-signing';
import type { FactOrigin } from '@act/contracts';
import {
  adapterFor,
  claimDelivery,
  contactCart,
  decideVerification,
  describingHeaders,
  genericCart,
  isTestDelivery,
  isTrusted,
  isWooCommercePing,
  looksLikeWebhookKey,
  reminderHold,
  sourceOf,
  webhookOrigin,
  withCartNotes,
  CartStore,
  contactExtras,
  purchaseCodes,
  type Headers,
  type SourceFact,
  type SourceId,
} from '@act/sources';
import { buyerKeys } from '@act/contracts/src/attribution';
import type { Cart } from '@act/contracts/src/cart';
import { parseFunnelWebhook } from './parse';
import type { WebhookEventsService } from '../webhook-events/service';
import type { ContactsService } from '../contacts/service';
import type { IntegrationCache } from '../integrations/cache';
import type { IntegrationDoc } from '../integrations/model';
import type { EventPublisher } from '../events/publisher';

/** One delivery as the route hands it over. */
export interface Delivery {
  /** Body text as received (stored as the event's payload). */
  raw: string;
  /** Body bytes as received (signatures are over these). */
  bytes: Buffer;
  body: unknown;
  bodyError?: string;
  headers: Headers;
  /** The key of `/api/webhook/i/<key>`; null on the plain `/api/webhook`. */
  key: string | null;
}

export interface WebhookAnswer {
  body: WebhookOkResponse;
}

type Fact = SourceFact | { kind: 'handshake' };
type Read = { ok: true; fact: Fact; eventName: string | null } | { ok: false; error: string; eventName: string | null };

/**
 * POST /api/webhook and /api/webhook/i/<key>: recognise the sender, read the delivery, find its integration, check
 * its signature, drop a replay, apply it, record it and answer; the outbox relay publishes. The spec's formats keep
 * their parser and answers; ClickFunnels and Shopify go through their adapters (packages/sources). The plain URL's
 * unsigned path stays lean: no signature work, no replay write, integrations from a short-lived cache.
 */
export class WebhookService {
  private readonly carts: CartStore;
  /** What the steps gave (incentive grants): a purchase's used codes are marked redeemed there. */
  private readonly redemptions: IncentiveRedemptions;
  /** Opens the integrations' sealed sender API keys (SECRETS_KEY, as for their signing secrets). */
  private readonly box: SecretBox = createSecretBox();

  constructor(
    private readonly events: WebhookEventsService,
    private readonly contacts: ContactsService,
    private readonly integrations: IntegrationCache,
    private readonly publisher: EventPublisher,
    private readonly replays: ReplayGuard,
  ) {
    this.carts = new CartStore(contacts.coll);
    this.redemptions = IncentiveRedemptions.beside(contacts.coll);
  }

  async handle(d: Delivery): Promise<WebhookAnswer> {
    let pinned: IntegrationDoc | null = null;
    if (d.key !== null) {
      pinned = looksLikeWebhookKey(d.key) ? await this.integrations.byKey(d.key) : null;
      // Nothing is recorded for an unknown URL: it belongs to no integration, and recording would let anyone fill the table.
      if (!pinned) throw new NotFoundError('Unknown webhook URL');
    }
    if (isWooCommercePing(d.raw) && (!pinned?.webhook_source || pinned.webhook_source === 'woocommerce'))
      return this.ping(d, pinned);
    const source = sourceOf(pinned?.webhook_source, d.body, d.headers);
    const read = this.read(source, d);
    const kept = describingHeaders(source, d.headers);
    const info = (over: Partial<DeliveryInfo>): DeliveryInfo => ({
      source,
      verification: 'unsigned',
      verification_reason: null,
      outcome: 'invalid',
      integration_id: pinned?.id ?? null,
      event_name: read.eventName,
      ...(kept ? { delivery_headers: kept } : {}),
      ...over,
    });
    if (!read.ok) {
      await this.events.record('invalid', d.raw, info({ verification_reason: read.error }));
      throw new BadRequestError(read.error);
    }
    const { fact } = read;
    const funnelId = fact.kind === 'contact' || fact.kind === 'purchase' ? fact.funnelId : null;
    // A handshake on the plain URL concerns no integration (it is answered even before the default one exists).
    const integration = pinned ?? (fact.kind === 'handshake' ? null : await this.integrations.resolve(funnelId));

    const decision = decideVerification({
      source,
      raw: d.bytes,
      headers: d.headers,
      secret: integration ? await this.integrations.secretOf(integration) : null,
      requireSigned: await this.integrations.requireSigned(),
    });
    const base = {
      ...info({ integration_id: integration?.id ?? null, verification: decision.verification }),
      person_keys: personKeysOf(fact, integration?.funnel_id ?? funnelId),
    };
    if (decision.verification === 'rejected') {
      await this.events.record('rejected', d.raw, {
        ...base,
        outcome: 'rejected',
        verification_reason: decision.reason,
      });
      throw new UnauthorizedError(decision.reason);
    }

    if (!integration) {
      await this.events.record('handshake', d.raw, { ...base, outcome: 'handshake' });
      return { body: { status: 'ok', message: 'Handshake received' } };
    }
    const claim = await claimDelivery(this.replays, integration.id, {
      source,
      raw: d.bytes,
      body: d.body,
      headers: d.headers,
      verified: decision.verification === 'verified',
    });
    if (!claim.fresh) {
      await this.events.record(typeOf(fact), d.raw, { ...base, outcome: 'duplicate' });
      return {
        body: {
          status: 'ok',
          message: 'Duplicate delivery: already processed',
          duplicate: true,
          integration_id: integration.id,
        },
      };
    }
    // The SMS side applies its own integration's signing rules to what this delivery publishes.
    const origin = webhookOrigin(source, decision.verification, integration.id);
    try {
      const test = fact.kind === 'contact' && isTestDelivery(d.headers, { email: fact.email, phone: fact.phone });
      const { answer, outcome, reason } = await this.apply(fact, integration, pinned !== null, origin, test);
      await this.events.record(typeOf(fact, outcome), d.raw, { ...base, outcome, verification_reason: reason ?? null });
      return answer;
    } catch (err) {
      // Not applied: the sender's retry must be.
      await claim.release();
      throw err;
    }
  }

  /**
   * WooCommerce's creation ping (`webhook_id=<id>`, unsigned): answered 200 or WooCommerce will not save the webhook.
   * It creates nothing, so it needs no signature; it is recorded like a handshake.
   */
  private async ping(d: Delivery, pinned: IntegrationDoc | null): Promise<WebhookAnswer> {
    await this.events.record('handshake', d.raw, {
      source: 'woocommerce',
      verification: 'unsigned',
      verification_reason: null,
      outcome: 'handshake',
      integration_id: pinned?.id ?? null,
      event_name: 'ping',
    });
    return { body: { status: 'ok', message: 'WooCommerce webhook ping received' } };
  }

  /** The delivery as a fact, or why it cannot be read. */
  private read(source: SourceId, d: Delivery): Read {
    if (source === 'generic') {
      const parsed = parseFunnelWebhook(d.body, d.bodyError);
      const eventName = eventNameOf(d.body);
      if (!parsed.ok) return { ok: false, error: parsed.error, eventName };
      const ev = parsed.event;
      if (ev.kind === 'handshake') return { ok: true, fact: ev, eventName };
      if (ev.kind === 'purchase_created')
        return {
          ok: true,
          eventName,
          fact: {
            kind: 'purchase',
            contactId: ev.contactId,
            email: ev.email,
            phone: ev.phone,
            amount: ev.amount,
            currency: ev.currency,
            funnelId: ev.funnelId,
          },
        };
      // The spec format's checkout link (`recovery_url`, `checkout_url`, ...) is its cart's, as a sender's is.
      return {
        ok: true,
        eventName,
        fact: {
          kind: 'contact',
          op: ev.kind === 'contact_created' ? 'created' : 'updated',
          contactId: ev.contactId,
          email: ev.email,
          phone: ev.phone,
          firstName: ev.firstName,
          checkoutUrl: null,
          funnelId: ev.funnelId,
          cart: genericCart(d.body),
        },
      };
    }
    if (d.bodyError) return { ok: false, error: 'Invalid JSON body', eventName: null };
    const r = adapterFor(source).parse!(d.body, d.headers);
    return r.ok
      ? { ok: true, fact: r.fact, eventName: r.eventName }
      : { ok: false, error: r.error, eventName: r.eventName };
  }

  private async apply(
    fact: Fact,
    integration: IntegrationDoc,
    byUrl: boolean,
    origin: FactOrigin,
    /** The product's own "Send test delivery" (its contact is stored and relayed with `test: true`). */
    test: boolean,
  ): Promise<{ answer: WebhookAnswer; outcome: DeliveryInfo['outcome']; reason?: string }> {
    if (fact.kind === 'handshake')
      return { answer: { body: { status: 'ok', message: 'Handshake received' } }, outcome: 'handshake' };
    if (fact.kind === 'ignored')
      return {
        answer: { body: { status: 'ok', message: `Ignored: ${fact.reason}`, integration_id: integration.id } },
        outcome: 'ignored',
        reason: fact.reason,
      };
    if (fact.kind === 'contact' && !fact.email) {
      const reason = 'The contact has no email address: nothing to send on the email side';
      return {
        answer: {
          body: {
            status: 'ok',
            message: `Ignored: ${reason}`,
            contact_id: fact.contactId,
            integration_id: integration.id,
          },
        },
        outcome: 'ignored',
        reason,
      };
    }
    // A delivery to an integration's own URL belongs to it whatever its body says, and so does the fact the SMS
    // side hears: it finds its own integration by this funnel id.
    const funnelId = byUrl ? integration.funnel_id : (fact.funnelId ?? DEFAULT_FUNNEL_ID);
    const now = new Date();

    if (fact.kind === 'contact') {
      const email = fact.email!;
      // After the contact's own write (the cart lives on it): the cart, conditional on the sender's time, and why no
      // reminder may go. The line items a sender must be asked for are fetched for a new contact only.
      // Both go to the SMS side with the fact, which keeps them on its contact too.
      const apiKey = integration.sender_api_key ? this.box.open(integration.sender_api_key) : null;
      const hold = reminderHold(fact, integration.send_without_consent === true);
      const described = ({ cart, notes }: { cart: Cart | null; notes: string[] }) => ({
        reason: withCartNotes(hold, notes) ?? undefined,
        shared: { ...(cart ? { cart } : {}), ...(hold ? { remindersHeld: hold } : {}), ...(fact.zoneHints ? { zoneHints: fact.zoneHints } : {}) },
      });
      const keepExtras = async (created: boolean) => {
        const kept = await contactCart(fact, { created, apiKey, receivedAt: now });
        await this.carts.keepExtras(integration.id, fact.contactId, contactExtras(kept.cart, hold, fact.zoneHints));
        return described(kept);
      };
      const input = {
        integration,
        contactId: fact.contactId,
        email,
        phone: fact.phone,
        firstName: fact.firstName,
        createdAt: now,
        test,
      };
      if (fact.op === 'created') {
        // A cart with no line items to ask the sender for is known before the write: a new contact is inserted with
        // it, its hold and zone hints in one write; a contact already there takes them newest-wins as below.
        const upfront = fact.lineItemsRef && apiKey ? null : await contactCart(fact, { created: false, apiKey: null, receivedAt: now });
        const extras = upfront ? contactExtras(upfront.cart, hold, fact.zoneHints) : undefined;
        const { created } = await this.contacts.createFromFunnel({ ...input, extras });
        const { reason, shared } = created && upfront ? described(upfront) : await keepExtras(created);
        // Published for a repeat too: it may be the retry of a delivery whose first attempt wrote the contact and
        // died before its outbox row (an instance killed in between, the gateway sending it again to another); the
        // SMS side's upsert makes a second event harmless.
        await this.publisher.contactCreated({
          funnelId,
          contactId: fact.contactId,
          email,
          phone: fact.phone,
          firstName: fact.firstName,
          createdAt: now.toISOString(),
          origin,
          test,
          ...shared,
        });
        return {
          answer: {
            body: {
              status: 'ok',
              message: created ? 'Contact created' : 'Contact already exists',
              contact_id: fact.contactId,
              integration_id: integration.id,
            },
          },
          outcome: created ? 'created' : 'updated',
          reason,
        };
      }
      const { created, contact } = await this.contacts.updateFromFunnel(input);
      const { reason, shared } = await keepExtras(created);
      await this.publisher.contactUpdated({
        funnelId,
        contactId: fact.contactId,
        email,
        phone: contact.phone ?? null,
        firstName: contact.first_name ?? null,
        createdAt: new Date(contact.created_at).toISOString(),
        origin,
        test: contact.test === true,
        ...shared,
      });
      return {
        answer: {
          body: {
            status: 'ok',
            message: created ? 'Contact created' : 'Contact updated',
            contact_id: fact.contactId,
            integration_id: integration.id,
          },
        },
        outcome: created ? 'created' : 'updated',
        reason,
      };
    }

    const { matched, changed } = await this.contacts.markPurchased({
      integrationId: integration.id,
      contactId: fact.contactId,
      email: fact.email,
      purchasedAt: now,
      // An unsigned purchase took the integration it matched (one without a secret); by email it must not reach
      // the contacts of a signed one either.
      excludeIntegrationIds: isTrusted(origin) ? [] : await this.integrations.signedIds(),
    });
    // Stripe names its promotion codes by id: read once with the integration's key, or the delivery says why not.
    const codes = await purchaseCodes(fact, { apiKey: fact.promotionCodeRefs?.length && integration.sender_api_key ? this.box.open(integration.sender_api_key) : null });
    const used = { ...fact, discountCodes: codes.discountCodes };
    // A code the purchase used that a step gave: redeemed (revenue's per-step incentive figures).
    await this.redemptions.redeemPurchase(changed.map((c) => c.id), used, now);
    await this.publisher.purchaseCreated({
      funnelId,
      contactId: fact.contactId,
      email: fact.email,
      phone: fact.phone,
      amount: fact.amount,
      currency: fact.currency,
      purchasedAt: now.toISOString(),
      origin,
      ...(fact.recoveredFrom ? { recoveredFrom: fact.recoveredFrom } : {}),
      // The other side marks the codes its own steps gave as redeemed.
      ...(used.discountCodes.length ? { discountCodes: used.discountCodes } : {}),
    });
    return {
      answer: {
        body: {
          status: 'ok',
          message: matched > 0 ? 'Purchase recorded' : 'Purchase recorded; no matching contact',
          ...(fact.contactId !== null ? { contact_id: fact.contactId } : {}),
          integration_id: integration.id,
          matched,
        },
      },
      outcome: 'purchase',
      ...(codes.note ? { reason: codes.note } : {}),
    };
  }
}

function typeOf(fact: Fact, outcome?: DeliveryInfo['outcome']): WebhookEventType {
  if (outcome === 'ignored' || fact.kind === 'ignored') return 'ignored';
  if (fact.kind === 'handshake') return 'handshake';
  if (fact.kind === 'purchase') return 'purchase_created';
  return fact.op === 'created' ? 'contact_created' : 'contact_updated';
}

function eventNameOf(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  const name = b.event ?? b.event_type;
  return typeof name === 'string' ? name.slice(0, 100) : null;
}

/** Whom a delivery names, in the ledgers' form: a contact's timeline finds its deliveries by these. */
function personKeysOf(fact: Fact, funnelId: string | null): string[] | undefined {
  if (fact.kind !== 'contact' && fact.kind !== 'purchase') return undefined;
  return buyerKeys({ funnelId, contactId: fact.contactId ?? null, email: fact.email ?? null, phone: fact.phone ?? null });
}
