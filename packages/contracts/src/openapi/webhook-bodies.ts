/**
 * What each accepted sender posts to the funnel webhooks (docs/webhooks.md), as far as the adapters of
 * packages/sources read it: the fields named here are the ones that matter, every other field is allowed and
 * ignored. Ids arrive as numbers or strings depending on the sender, so both are accepted where they do.
 */

type Id = string | number;

/** The spec's new format: `event` and a `contact` object. */
export interface GenericWebhookBody {
  event: 'contact_created' | 'contact_updated' | 'purchase_created' | 'handshake';
  funnel_id?: string | null;
  contact?: {
    id: Id;
    email?: string | null;
    phone?: string | null;
    first_name?: string | null;
    funnel_id?: string | null;
    checkout_url?: string | null;
  };
  purchase?: { amount?: number | null; currency?: string | null };
}

/** The spec's legacy format: flat fields and `event_type`. */
export interface GenericLegacyWebhookBody {
  event_type: 'contact_created' | 'purchase_created' | 'handshake';
  funnel_id?: string | null;
  contact_id?: Id;
  email?: string | null;
  phone?: string | null;
  first_name?: string | null;
  amount?: number | null;
  currency?: string | null;
}

/** ClickFunnels 2.0's envelope: the Contact, Order or invoice in `data`. */
export interface ClickFunnels2WebhookBody {
  event_id?: string;
  /** e.g. `contact.identified`, `one-time-order.completed` (docs/webhooks.md lists those acted on). */
  event_type: string;
  subject_id?: Id | null;
  subject_type?: string | null;
  funnel_id?: Id | null;
  page_id?: Id | null;
  created_at?: string | null;
  data: Record<string, unknown>;
}

interface ClickFunnelsClassicFields {
  id?: Id;
  email?: string | null;
  phone?: string | null;
  first_name?: string | null;
  funnel_id?: Id | null;
  funnel_step_id?: Id | null;
  contact?: Record<string, unknown>;
  purchase?: Record<string, unknown>;
}
/**
 * ClickFunnels Classic: a contact at the top level, or `{ purchase: { contact, ... } }`; recognised by one of
 * `contact`, `purchase`, `email` or `funnel_step_id` (it has no event field).
 */
export type ClickFunnelsClassicWebhookBody = ClickFunnelsClassicFields &
  ({ contact: Record<string, unknown> } | { purchase: Record<string, unknown> } | { email: string } | { funnel_step_id: Id });

/** Shopify's checkout (topics `checkouts/create`, `checkouts/update`) or order (`orders/create`); the topic is a header. */
export interface ShopifyWebhookBody {
  id: Id;
  token?: string | null;
  checkout_token?: string | null;
  cart_token?: string | null;
  email?: string | null;
  contact_email?: string | null;
  phone?: string | null;
  abandoned_checkout_url?: string | null;
  completed_at?: string | null;
  total_price?: string | null;
  currency?: string | null;
  customer?: Record<string, unknown> | null;
}

/**
 * A Stripe Event (`Stripe-Signature` header): `checkout.session.expired` (a contact), `checkout.session.completed` /
 * `checkout.session.async_payment_succeeded` (a purchase); `data.object` is the Checkout Session.
 */
export interface StripeWebhookBody {
  id: string;
  object: 'event';
  type: string;
  created: number;
  data: {
    object: {
      id: string;
      object: 'checkout.session';
      customer_email?: string | null;
      customer_details?: { email?: string | null; phone?: string | null; name?: string | null } | null;
      amount_total?: number | null;
      amount_subtotal?: number | null;
      currency?: string | null;
      total_details?: { amount_discount?: number } | null;
      after_expiration?: { recovery?: { url?: string | null; expires_at?: number | null } | null } | null;
      consent?: { promotions?: 'opt_in' | 'opt_out' | null } | null;
      payment_status?: 'paid' | 'unpaid' | 'no_payment_required';
      recovered_from?: string | null;
    };
  };
}

/**
 * A WooCommerce order (REST API v3 shape; topic in `X-WC-Webhook-Topic`: `order.created` / `order.updated`). Its
 * creation ping is the form-encoded body `webhook_id=<id>`, answered 200.
 */
export interface WooCommerceWebhookBody {
  id: number;
  status: string;
  currency?: string;
  total?: string;
  discount_total?: string;
  date_modified_gmt?: string;
  payment_url?: string;
  billing?: { email?: string; phone?: string; first_name?: string };
  line_items?: { name: string; quantity: number; price?: number; total?: string; sku?: string; image?: { src?: string } }[];
}

/**
 * Twilio's status and incoming-message callbacks (form-encoded): a delivery report carries MessageSid and
 * MessageStatus, a reply From and Body.
 */
export interface TwilioCallbackBody {
  MessageSid?: string;
  MessageStatus?: string;
  ErrorCode?: string;
  ErrorMessage?: string;
  From?: string;
  To?: string;
  Body?: string;
  OptOutType?: string;
  AccountSid?: string;
}

/** Resend's delivery events, signed by Svix. */
export interface ResendWebhookBody {
  /** `email.delivered`, `email.bounced`, `email.complained`, `email.opened`, `email.clicked`, `email.delivery_delayed`, ... */
  type: string;
  created_at?: string;
  data: { email_id: string; to?: string[]; [key: string]: unknown };
}
