/**
 * Webhook senders and signed deliveries, the same on the email and SMS sides (docs/webhooks.md): which sender a
 * delivery came from, whether its signature was checked, what it did; an integration's own endpoint URL and its
 * write-only signing secret. Self-contained (only yup): the browser bundle imports it too.
 */
import * as yup from 'yup';

export const WEBHOOK_SOURCES = [
  'generic',
  'clickfunnels2',
  'clickfunnels_classic',
  'shopify',
  'stripe',
  'woocommerce',
] as const;
export type WebhookSource = (typeof WEBHOOK_SOURCES)[number];
export const WEBHOOK_SOURCE_LABELS: Record<WebhookSource, string> = {
  generic: 'Generic',
  clickfunnels2: 'ClickFunnels 2.0',
  clickfunnels_classic: 'ClickFunnels Classic',
  shopify: 'Shopify',
  stripe: 'Stripe Checkout',
  woocommerce: 'WooCommerce',
};

/** `verified`: signature checked; `unsigned`: accepted without one (no secret set); `rejected`: refused with 401. */
export const DELIVERY_VERIFICATIONS = ['verified', 'unsigned', 'rejected'] as const;
export type DeliveryVerification = (typeof DELIVERY_VERIFICATIONS)[number];

/** What a delivery did. */
export const DELIVERY_OUTCOMES = [
  'created',
  'updated',
  'purchase',
  'duplicate',
  'ignored',
  'invalid',
  'rejected',
  'handshake',
] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** Fields every webhook event row carries on both sides, besides the spec's id, type, payload and timestamp. */
export interface DeliveryInfo {
  source: WebhookSource;
  verification: DeliveryVerification;
  /** Why a delivery was rejected (or why it was ignored / invalid); null otherwise. */
  verification_reason: string | null;
  outcome: DeliveryOutcome;
  /** The integration the delivery belonged to, when one was found. */
  integration_id: number | null;
  /** The sender's name for the event (`contact.identified`, `checkouts/create`, `contact_created`). */
  event_name: string | null;
  /**
   * The sender's own headers describing the delivery (WooCommerce's `x-wc-webhook-topic`, `-resource`, `-event`,
   * `-delivery-id`; Shopify's topic and webhook id), lower-case names; absent when it sent none.
   */
  delivery_headers?: Record<string, string> | null;
  /**
   * The id of this side's contact the delivery produced or named (its contact page: /contacts/:id or
   * /sms-contacts/:id); null when it named none that is still there. Answered by the Webhook Events lists.
   */
  contact_ref?: number | null;
}

/** Filters of the Webhook Events lists (`?source=&verification=&outcome=`). */
export interface DeliveryFilters {
  source?: WebhookSource;
  verification?: DeliveryVerification;
  outcome?: DeliveryOutcome;
}

/** Added to each integration in GET /api/webhook-integrations and /api/sms-webhook-integrations. */
export interface IntegrationSigning {
  /** Absolute URL of the integration's own endpoint (PUBLIC_URL + /api/webhook/i/<key> or /api/sms/webhook/i/<key>). */
  webhook_url: string;
  signing: {
    has_secret: boolean;
    /** The sender the integration is pinned to; null = recognised per delivery. */
    source: WebhookSource | null;
    /**
     * It holds the sender's API key (a Stripe restricted key), sealed like the secret. Both services always answer
     * it and the next field; optional so that a screen's older fixtures still type.
     */
    has_api_key?: boolean;
    /** Reminders go to shoppers who declined the sender's promotional messages (the shop has another basis). */
    send_without_consent?: boolean;
  };
}

/**
 * PATCH of an integration (both sides), admin only: `webhook_secret` a string sets it (the sender's secret pasted,
 * or one generated in the browser), null removes it; `webhook_source` pins the sender or (null) unpins it. The
 * secret is never returned by any call.
 */
export interface IntegrationSigningPatch {
  webhook_secret?: string | null;
  webhook_source?: WebhookSource | null;
  /**
   * The sender's API key, write-only and sealed: a Stripe restricted key with read access to Checkout Sessions
   * (`rk_…`), used to fetch a session's line items once; null removes it.
   */
  sender_api_key?: string | null;
  /** Off by default: a shopper who declined promotions (Stripe `consent.promotions: opt_out`) gets no reminder. */
  send_without_consent?: boolean;
}

export const SENDER_API_KEY_MESSAGE = 'The API key must be 8 to 500 printable characters without spaces';

export const WEBHOOK_SECRET_MIN = 16;
export const WEBHOOK_SECRET_MAX = 500;
export const WEBHOOK_SECRET_MESSAGE = `The signing secret must be ${WEBHOOK_SECRET_MIN} to ${WEBHOOK_SECRET_MAX} characters`;

export const integrationSigningPatchSchema = yup.object({
  webhook_secret: yup
    .string()
    .transform((v: unknown) => (typeof v === 'string' ? v.trim() : v))
    .typeError(WEBHOOK_SECRET_MESSAGE)
    .nullable()
    .min(WEBHOOK_SECRET_MIN, WEBHOOK_SECRET_MESSAGE)
    .max(WEBHOOK_SECRET_MAX, WEBHOOK_SECRET_MESSAGE)
    .matches(/^[\x21-\x7e]+$/, 'The signing secret may contain printable characters without spaces only'),
  webhook_source: yup
    .string()
    .typeError('webhook_source must be one of ' + WEBHOOK_SOURCES.join(', '))
    .nullable()
    .oneOf([...WEBHOOK_SOURCES, null], 'webhook_source must be one of ' + WEBHOOK_SOURCES.join(', ')),
  sender_api_key: yup
    .string()
    .transform((v: unknown) => (typeof v === 'string' ? v.trim() : v))
    .typeError(SENDER_API_KEY_MESSAGE)
    .nullable()
    .min(8, SENDER_API_KEY_MESSAGE)
    .max(500, SENDER_API_KEY_MESSAGE)
    .matches(/^[\x21-\x7e]+$/, SENDER_API_KEY_MESSAGE),
  send_without_consent: yup
    .boolean()
    .transform((v: unknown, original: unknown) => (typeof original === 'boolean' ? original : 'not a boolean'))
    .typeError('send_without_consent must be true or false'),
});

/** GET / PUT /api/webhook-signing (email side) and /api/sms/webhook-signing (SMS side); PUT is admin only. */
export interface WebhookSigningSettings {
  /** Refuse every delivery without a valid signature (integrations without a secret then refuse everything). */
  require_signed: boolean;
}
export const webhookSigningSettingsSchema = yup.object({
  require_signed: yup
    .boolean()
    .transform((v: unknown, original: unknown) => (typeof original === 'boolean' ? original : 'not a boolean'))
    .typeError('require_signed must be true or false')
    .required('require_signed is required'),
});

/** POST /api/webhook-integrations/{id}/test-delivery and /api/sms-webhook-integrations/{id}/test-delivery. */
export interface TestDeliveryRequest {
  /** Which sender's sample to send; default: the pinned source, else ClickFunnels 2.0. */
  source?: WebhookSource;
}
export const testDeliveryRequestSchema = yup.object({
  source: yup
    .string()
    .typeError('source must be one of ' + WEBHOOK_SOURCES.join(', '))
    .oneOf([...WEBHOOK_SOURCES], 'source must be one of ' + WEBHOOK_SOURCES.join(', ')),
});
export interface TestDeliveryResponse {
  source: WebhookSource;
  /** Whether the sample was signed with the integration's secret. */
  signed: boolean;
  /** Where it was posted. */
  url: string;
  /** The public endpoint's answer. */
  status: number;
  body: unknown;
}

/** ClickFunnels 2.0 events that mean "a contact is known" (its Contact payload in `data`). */
export const CLICKFUNNELS2_CONTACT_EVENTS = ['contact.created', 'contact.identified', 'contact.updated'] as const;
/**
 * ClickFunnels 2.0 events that mean "paid" (Order or invoice payloads). `order.completed` also fires when a
 * subscription's service period ends: it counts for one-time orders only.
 */
export const CLICKFUNNELS2_PAID_EVENTS = [
  'one-time-order.completed',
  'order.completed',
  'one-time-order.invoice.paid',
  'subscription/invoice.paid',
  'subscription.first_payment_received',
] as const;
/** Stripe events that mean "the shopper left the checkout" (the Checkout Session in `data.object`). */
export const STRIPE_CONTACT_EVENTS = ['checkout.session.expired'] as const;
/** Stripe events that mean "paid". */
export const STRIPE_PAID_EVENTS = ['checkout.session.completed', 'checkout.session.async_payment_succeeded'] as const;
/** WooCommerce topics the product acts on (the order's status decides unpaid / paid). */
export const WOOCOMMERCE_TOPICS = ['order.created', 'order.updated'] as const;
/** Order statuses that mean "not paid yet": the contact and its reminders (settable per deployment). */
export const WOOCOMMERCE_UNPAID_STATUSES = ['pending', 'failed', 'checkout-draft'] as const;
/** Order statuses that mean "paid": the purchase. */
export const WOOCOMMERCE_PAID_STATUSES = ['processing', 'completed'] as const;

/** Shopify topics the product acts on. */
export const SHOPIFY_TOPICS = ['checkouts/create', 'checkouts/update', 'orders/create'] as const;
