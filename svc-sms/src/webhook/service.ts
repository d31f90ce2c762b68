import type { StoredZoneHints } from '@act/contracts/src/timing';
import {
  BadRequestError,
  NotFoundError,
  UnauthorizedError,
  createSecretBox,
  type Logger,
  type ReplayGuard,
  type SecretBox,
} from '@act/service-kit';
import { smsMessages, type SmsWebhookEventType } from '@act/contracts/src/sms-api';
import type { DeliveryInfo, DeliveryOutcome } from '@act/contracts/src/webhook-signing';
import type { FactOrigin } from '@act/contracts';
import type { PurchaseCodes } from '../incentives/redeem';
import {
  adapterFor,
  claimDelivery,
  contactCart,
  decideVerification,
  describingHeaders,
  genericCart,
  isTestDelivery,
  isWooCommercePing,
  keptCart,
  looksLikeWebhookKey,
  reminderHold,
  sourceOf,
  webhookOrigin,
  withCartNotes,
  type CartStore,
  contactExtras,
  purchaseCodes,
  type ContactFact,
  type Headers,
  type SourceFact,
  type SourceId,
} from '@act/sources';
import type { ContactService } from '../contacts/service';
import type { IntegrationCache } from '../integrations/cache';
import type { IntegrationDoc } from '../integrations/model';
import type { WebhookEventService } from '../webhook-events/service';
import type { FunnelEventPublisher } from '../events/publisher';
import { toE164 } from '../contacts/phone';
import { buyerKeys } from '@act/contracts/src/attribution';
import { parseFunnelWebhook } from './parse';
import type { Clock } from '../settings';
import type { Cart } from '@act/contracts/src/cart';

export interface WebhookResult {
  status: 200 | 202;
  body: Record<string, unknown>;
}

export interface FunnelWebhookDeps {
  integrations: IntegrationCache;
  contacts: ContactService;
  carts: CartStore;
  events: WebhookEventService;
  publisher: FunnelEventPublisher;
  replays: ReplayGuard;
  now: Clock;
  logger: Logger;
  /** Marks the codes a purchase used as redeemed (incentives/redeem.ts); absent: not kept. */
  redeemCodes?: (integrationId: number, purchase: PurchaseCodes, phone: string | null) => Promise<number>;
}

/** One delivery as the route hands it over. */
export interface Delivery {
  raw: string;
  bytes: Buffer;
  body: unknown;
  parseError?: string;
  headers: Headers;
  /** The key of `/api/sms/webhook/i/<key>`; null on the plain `/api/sms/webhook`. */
  key: string | null;
}

type Fact = SourceFact | { kind: 'handshake' };
type Read = { ok: true; fact: Fact; eventName: string | null } | { ok: false; error: string; eventName: string | null };
type Applied = { result: WebhookResult; outcome: DeliveryOutcome; reason?: string };

/** Replays of deliveries that found no SMS integration are remembered under this id. */
const NO_INTEGRATION = 0;

/**
 * POST /api/sms/webhook and /api/sms/webhook/i/<key>. Recognises the sender, reads and validates the delivery
 * (every delivery is stored, even when refused), finds the integration (its own URL's, else the ACTIVE one of the
 * funnel), checks the signature, drops a replay, applies the contact or purchase, publishes the fact for the email
 * side through the outbox, records and answers.
 */
export class FunnelWebhookService {
  /** Opens the integrations' sealed sender API keys (SECRETS_KEY, as for their signing secrets). */
  private readonly box: SecretBox = createSecretBox();

  constructor(private readonly deps: FunnelWebhookDeps) {}

  async handle(d: Delivery): Promise<WebhookResult> {
    const { events, integrations } = this.deps;
    let pinned: IntegrationDoc | null = null;
    if (d.key !== null) {
      pinned = looksLikeWebhookKey(d.key) ? await integrations.byKey(d.key) : null;
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
    const refuse = async (message: string): Promise<never> => {
      await events.record('invalid', d.raw, info({ verification_reason: message }));
      throw new BadRequestError(message);
    };
    if (!read.ok) return refuse(read.error);
    let { fact } = read;

    // Structural rules of the spec's format first (a 400 whatever the configuration), stored as `invalid`. Other
    // senders' deliveries that cannot concern the SMS side are answered and recorded as ignored: they retry a 4xx.
    let phone: string | null = null;
    if (fact.kind === 'contact' || fact.kind === 'purchase') {
      if (source === 'generic') {
        if (!fact.funnelId && !pinned) return refuse(smsMessages.funnelIdRequired);
        if (!fact.contactId) return refuse('contact_id is required');
      }
      phone = fact.phone ? toE164(fact.phone) : null;
      if (fact.phone && !phone) {
        if (source === 'generic') return refuse(smsMessages.phoneInvalid);
        if (fact.kind === 'contact') fact = { kind: 'ignored', reason: `The phone number ${fact.phone} is not valid` };
      } else if (fact.kind === 'contact' && !phone) {
        if (source === 'generic') return refuse(smsMessages.phoneRequired);
        fact = { kind: 'ignored', reason: 'The contact has no phone number: nothing to send on the SMS side' };
      }
    }

    const funnelId = fact.kind === 'contact' || fact.kind === 'purchase' ? fact.funnelId : null;
    const integration = pinned ?? (funnelId ? await integrations.activeForFunnel(funnelId) : null);
    const decision = decideVerification({
      source,
      raw: d.bytes,
      headers: d.headers,
      secret: integration ? await integrations.secretOf(integration) : null,
      requireSigned: await integrations.requireSigned(),
    });
    const base = {
      ...info({ integration_id: integration?.id ?? null, verification: decision.verification }),
      person_keys: personKeysOf(read.fact, integration?.funnel_id ?? funnelId),
    };
    if (decision.verification === 'rejected') {
      await events.record('rejected', d.raw, { ...base, outcome: 'rejected', verification_reason: decision.reason });
      throw new UnauthorizedError(decision.reason);
    }

    const claim = await claimDelivery(this.deps.replays, integration?.id ?? NO_INTEGRATION, {
      source,
      raw: d.bytes,
      body: d.body,
      headers: d.headers,
      verified: decision.verification === 'verified',
    });
    if (!claim.fresh) {
      await events.record(typeOf(fact), d.raw, { ...base, outcome: 'duplicate' });
      return { status: 200, body: { status: 'ok', message: 'Duplicate delivery: already processed', duplicate: true } };
    }
    // The email side applies its own integration's signing rules to what this delivery publishes.
    const origin = webhookOrigin(source, decision.verification, integration?.id ?? null);
    try {
      const test = fact.kind === 'contact' && isTestDelivery(d.headers, { email: fact.email, phone });
      const { result, outcome, reason } = await this.apply(fact, phone, pinned, integration, origin, test);
      await events.record(typeOf(fact), d.raw, { ...base, outcome, verification_reason: reason ?? null });
      return result;
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
  private async ping(d: Delivery, pinned: IntegrationDoc | null): Promise<WebhookResult> {
    await this.deps.events.record('handshake', d.raw, {
      source: 'woocommerce',
      verification: 'unsigned',
      verification_reason: null,
      outcome: 'handshake',
      integration_id: pinned?.id ?? null,
      event_name: 'ping',
    });
    return { status: 200, body: { status: 'ok', message: 'WooCommerce webhook ping received' } };
  }

  private read(source: SourceId, d: Delivery): Read {
    if (source === 'generic') {
      if (d.parseError) return { ok: false, error: d.parseError, eventName: null };
      const p = parseFunnelWebhook(d.body);
      if (p.kind === 'invalid') return { ok: false, error: p.error, eventName: eventNameOf(d.body) };
      const eventName = eventNameOf(d.body);
      if (p.kind === 'handshake') return { ok: true, fact: p, eventName };
      if (p.kind === 'purchase')
        return {
          ok: true,
          eventName,
          fact: {
            kind: 'purchase',
            contactId: p.contactId,
            email: p.email,
            phone: p.phone,
            amount: p.amount,
            currency: p.currency,
            funnelId: p.funnelId,
          },
        };
      return {
        ok: true,
        eventName,
        fact: {
          kind: 'contact',
          op: p.event === 'contact_updated' ? 'updated' : 'created',
          contactId: p.contactId ?? '',
          email: p.email,
          phone: p.phone,
          firstName: p.firstName,
          checkoutUrl: p.checkoutUrl,
          funnelId: p.funnelId,
          cart: genericCart(d.body),
        },
      };
    }
    if (d.parseError) return { ok: false, error: 'Invalid JSON body', eventName: null };
    const r = adapterFor(source).parse!(d.body, d.headers);
    return r.ok
      ? { ok: true, fact: r.fact, eventName: r.eventName }
      : { ok: false, error: r.error, eventName: r.eventName };
  }

  private async apply(
    fact: Fact,
    phone: string | null,
    pinned: IntegrationDoc | null,
    integration: IntegrationDoc | null,
    origin: FactOrigin,
    /** The product's own "Send test delivery" (its contact is stored and relayed with `test: true`). */
    test: boolean,
  ): Promise<Applied> {
    if (fact.kind === 'handshake')
      return { result: { status: 200, body: { status: 'ok', message: 'Handshake received' } }, outcome: 'handshake' };
    if (fact.kind === 'ignored')
      return {
        result: { status: 200, body: { status: 'ok', message: `Ignored: ${fact.reason}` } },
        outcome: 'ignored',
        reason: fact.reason,
      };
    // Stripe names its promotion codes by id: read once with the integration's key before the purchase goes both
    // ways (the email side gets the codes themselves), or the delivery says why not.
    let codesNote: string | null = null;
    if (fact.kind === 'purchase' && fact.promotionCodeRefs?.length) {
      const codes = await purchaseCodes(fact, { apiKey: integration?.sender_api_key ? this.box.open(integration.sender_api_key) : null });
      fact = { ...fact, discountCodes: codes.discountCodes, promotionCodeRefs: [] };
      codesNote = codes.note;
    }
    // A delivery to an integration's own URL belongs to it whatever its body says; so does the fact the email side
    // hears (it finds its own integration by this funnel id).
    const funnelId = pinned ? pinned.funnel_id : fact.funnelId;
    const now = this.deps.now().toISOString();
    // The email side decides for itself whether the funnel concerns it, so the fact is published either way.
    const published = !funnelId
      ? Promise.resolve()
      : fact.kind === 'contact'
        ? this.deps.publisher.contact(fact.op, {
            funnelId,
            contactId: fact.contactId,
            email: fact.email,
            phone,
            firstName: fact.firstName,
            createdAt: now,
            origin,
            test,
            // The email side keeps these on its contact too (the line items a sender must be asked for are fetched
            // on the side that holds the key: the cart travels as the delivery gave it).
            ...sharedExtras(fact, integration),
          })
        : this.deps.publisher.purchase({
            funnelId,
            contactId: fact.contactId,
            email: fact.email,
            phone,
            amount: fact.amount,
            currency: fact.currency,
            purchasedAt: now,
            origin,
            ...(fact.recoveredFrom ? { recoveredFrom: fact.recoveredFrom } : {}),
            // The other side marks the codes its own steps gave as redeemed.
            ...(fact.discountCodes?.length ? { discountCodes: fact.discountCodes } : {}),
          });
    // Settled, not raced: the answer waits for both, so a failure never answers before the fact is in the outbox.
    const [publishedFact, applied] = await Promise.allSettled([
      published,
      this.applyHere(fact, phone, integration, funnelId, test),
    ]);
    for (const r of [publishedFact, applied]) if (r.status === 'rejected') throw r.reason;
    const out = (applied as PromiseFulfilledResult<Applied>).value;
    return codesNote ? { ...out, reason: [out.reason, codesNote].filter(Boolean).join('; ') } : out;
  }

  private async applyHere(
    fact: Extract<Fact, { kind: 'contact' | 'purchase' }>,
    phone: string | null,
    integration: IntegrationDoc | null,
    funnelId: string | null,
    test: boolean,
  ): Promise<Applied> {
    if (!integration || !integration.active) {
      const message = integration
        ? `The SMS integration ${integration.name} is paused`
        : funnelId
          ? `No active SMS integration for funnel ${funnelId}`
          : "No funnel id: post to the integration's own URL";
      return { result: { status: 202, body: { status: 'ignored', message } }, outcome: 'ignored', reason: message };
    }

    if (fact.kind === 'contact') {
      const apiKey = integration.sender_api_key ? this.box.open(integration.sender_api_key) : null;
      const hold = reminderHold(fact, integration.send_without_consent === true);
      // A cart with no line items to ask the sender for is known before the write: a new contact is inserted with it,
      // its hold and zone hints in one write. Otherwise, and for a contact already there, after the contact's own
      // write: the cart newest-wins by the sender's time (the line items fetched for a new contact only).
      const upfront = fact.lineItemsRef && apiKey ? null : await contactCart(fact, { created: false, apiKey: null, receivedAt: this.deps.now() });
      const { contact, created } = await this.deps.contacts.upsertFromFunnel({
        integration,
        funnelId: integration.funnel_id,
        contactId: fact.contactId,
        phone: phone!,
        email: fact.email,
        firstName: fact.firstName,
        test,
        ...(upfront ? { extras: contactExtras(upfront.cart, hold, fact.zoneHints) } : {}),
      });
      const { cart, notes } = created && upfront ? upfront : await contactCart(fact, { created, apiKey, receivedAt: this.deps.now() });
      if (!(created && upfront)) await this.deps.carts.keepExtras(integration.id, contact.contact_id, contactExtras(cart, hold, fact.zoneHints));
      return {
        result: {
          status: 200,
          body: {
            status: 'ok',
            message: created ? 'SMS contact created' : 'SMS contact updated',
            contact_id: contact.contact_id,
            id: contact.id,
          },
        },
        outcome: created ? 'created' : 'updated',
        reason: withCartNotes(hold, notes) ?? undefined,
      };
    }
    const updated = await this.deps.contacts.markPurchased({
      integrationId: integration.id,
      contactId: fact.contactId,
      phone,
    });
    await this.deps.redeemCodes?.(integration.id, fact, phone);
    return {
      result: {
        status: 200,
        body: {
          status: 'ok',
          message:
            updated > 0 ? 'Purchase recorded; SMS sequence stopped' : 'Purchase recorded; no open SMS contact matched',
          updated,
        },
      },
      outcome: 'purchase',
    };
  }
}

/** What a contact fact carries to the email side besides the contact, only when there is something to carry. */
function sharedExtras(fact: ContactFact, integration: IntegrationDoc | null): { cart?: Cart; remindersHeld?: string; zoneHints?: StoredZoneHints } {
  const cart = keptCart(fact.cart, new Date()).cart;
  const held = reminderHold(fact, integration?.send_without_consent === true);
  return { ...(cart ? { cart } : {}), ...(held ? { remindersHeld: held } : {}), ...(fact.zoneHints ? { zoneHints: fact.zoneHints } : {}) };
}

/** The spec's event types; a contact or purchase that found no integration keeps its type (outcome `ignored`). */
function typeOf(fact: Fact): SmsWebhookEventType {
  if (fact.kind === 'handshake') return 'handshake';
  if (fact.kind === 'ignored') return 'ignored';
  return fact.kind === 'purchase' ? 'purchase' : 'contact';
}

function eventNameOf(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  const name = b.event ?? b.event_type;
  return typeof name === 'string' ? name.slice(0, 100) : null;
}

/** Whom a delivery names, in the ledgers' form: a contact's timeline finds its deliveries by these. */
function personKeysOf(fact: SourceFact | { kind: string }, funnelId: string | null): string[] | undefined {
  if (fact.kind !== 'contact' && fact.kind !== 'purchase') return undefined;
  const f = fact as Extract<SourceFact, { kind: 'contact' | 'purchase' }>;
  return buyerKeys({ funnelId, contactId: f.contactId ?? null, email: f.email ?? null, phone: f.phone ?? null });
}
