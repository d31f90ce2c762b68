import type { StoredZoneHints } from './timing';
import type { WebhookSource } from './webhook-signing';
import type { Cart } from './cart';

/**
 * Facts shared between services over NATS JetStream. Subjects are given without the deployment prefix
 * (`NATS_PREFIX`), which the bus adds. Every payload carries `eventId` (idempotency), `source`, `occurredAt`.
 */
export const Subjects = {
  contactCreated: 'funnel.contact.created',
  contactUpdated: 'funnel.contact.updated',
  purchaseCreated: 'funnel.purchase.created',
  unsubscribeAdded: 'unsubscribe.email.added',
  unsubscribeRemoved: 'unsubscribe.email.removed',
  /** A reminder handed to a provider (or, email without live sending, logged as would-send): attribution's touches. */
  emailSent: 'send.email.sent',
  emailDelivered: 'send.email.delivered',
  emailBounced: 'send.email.bounced',
  smsSent: 'send.sms.sent',
  smsDelivered: 'send.sms.delivered',
  smsFailed: 'send.sms.failed',
  /** Clear All Test Data ran on one side: the other side's revenue ledger (the same facts) goes too. */
  testDataCleared: 'send.test-data.cleared',
  /** The account's frequency cap changed on one side: the other side keeps the same value. */
  frequencyCapChanged: 'send.frequency-cap.changed',
} as const;
export type Subject = (typeof Subjects)[keyof typeof Subjects];

export type EventSource = 'svc-email' | 'svc-sms';

/**
 * How a funnel fact entered the product, so the side that applies it can hold it to its own integration's signing
 * rules (docs/webhooks.md "Signatures across the two sides"): a webhook delivery, with the sender's scheme, whether
 * its signature was checked against a secret an admin set, and the publishing side's integration that took it; or a
 * signed-in staff member's action (Mark as Purchased). An event without `origin` (published before the field
 * existed) reads as an unverified delivery: a funnel that requires signing does not take it.
 */
export type FactOrigin =
  | { via: 'webhook'; scheme: WebhookSource; verified: boolean; integrationId: number | null }
  | { via: 'staff' };

export interface EventEnvelope {
  eventId: string;
  source: EventSource;
  occurredAt: string;
}

/** A funnel contact as either webhook saw it; `email` and `phone` are whatever the funnel sent. */
export interface FunnelContactEvent extends EventEnvelope {
  funnelId: string;
  contactId: string;
  email: string | null;
  phone: string | null;
  firstName?: string | null;
  createdAt: string;
  origin?: FactOrigin;
  /** The cart the delivery carried, as the publishing side stored it (cart.ts); the other side keeps it too. */
  cart?: Cart | null;
  /** Why no reminder may go to this contact (the shopper declined promotions), as the publishing side decided. */
  remindersHeld?: string | null;
  /** What the sender said of where the shopper lives (timing.ts's StoredZoneHints); the other side keeps it too. */
  zoneHints?: StoredZoneHints | null;
  /** A "Send test delivery" sample's contact, as the publishing side stored it; absent only in events from before the flag. */
  test?: boolean;
}

/** `frequency_cap_hours` as one side saved it (null: off), and when: the latest change wins on both sides. */
export interface FrequencyCapChangedEvent extends EventEnvelope {
  hours: number | null;
  changedAt: string;
}

export interface FunnelPurchaseEvent extends EventEnvelope {
  funnelId: string;
  /** Null when the sender names the buyer only by email or phone (a Shopify order without its checkout). */
  contactId: string | null;
  email: string | null;
  phone: string | null;
  amount?: number | null;
  currency?: string | null;
  purchasedAt: string;
  origin?: FactOrigin;
  /** The sender's checkout the purchase recovered (Stripe's `recovered_from`: the expired session), for revenue. */
  recoveredFrom?: string;
  /**
   * The discount codes the purchase used, as the sender reported them: the other side marks the ones its steps gave
   * as redeemed (an SMS step's code in an order posted to the email integration). Absent: none said.
   */
  discountCodes?: UsedPurchaseCode[];
}

/** A code a purchase used: the discount in major units as the sender wrote it ("5.00"), null when not said. */
export interface UsedPurchaseCode {
  code: string;
  amount: string | number | null;
}

export interface UnsubscribeEvent extends EventEnvelope {
  email: string;
  reason?: string | null;
}

/**
 * One reminder to one contact (`send.email.sent`, `send.sms.sent`, and the provider's later verdicts on it): what
 * recovered-revenue attribution needs to credit a purchase to the touch before it, on either side.
 */
export interface SendEvent extends EventEnvelope {
  channel: 'email' | 'sms';
  funnelId: string | null;
  contactId: string;
  email: string | null;
  phone: string | null;
  integrationId: number | null;
  campaignId: number | null;
  templateId: number | null;
  /** Position in the campaign (template_order / sequence_order); null for the plain reminder. */
  step: number | null;
  /** The provider's message id (Resend id, Twilio SID); null for a would-send log. */
  messageId: string | null;
  /** The send's own id on its side (the log's key): the same on a republished event, so ledgers count it once. */
  sendId?: string | null;
  sentAt: string;
  /** Only logged (`would_send`, live sending off): the ledgers keep it apart from what shoppers received. */
  simulated?: boolean;
  /** The step's variant the contact got (campaign experiments); absent or null: the step's own content. */
  variant?: string | null;
  /** A holdout mark, not a send: the contact is in the campaign's control group and got no message. */
  holdout?: boolean;
}
