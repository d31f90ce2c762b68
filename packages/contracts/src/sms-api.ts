/**
 * The SMS side's REST shapes (spec/sms-and-unsubscribe.md sections 3, 4, 7) and the rules of section 5 as yup
 * schemas with the spec's exact messages. mfe-sms (forms) and svc-sms (handlers) both import this file, so a
 * rule is written once. Self-contained on purpose (only yup): the browser bundle imports it too.
 *
 * Import path: `@act/contracts/src/sms-api`.
 */
import * as yup from 'yup';
import { checkoutFallbackUrlField } from './checkout-link';
import type { Paged } from './email-api';
import type { DeliveryInfo, IntegrationSigning } from './webhook-signing';
import type { Cart } from './cart';
import { placeholderToken, usesPlaceholder } from './placeholders';
import {
  fillVariables,
  messageValues,
  SAMPLE_MESSAGE_INPUT,
  type MessageInput,
  type MessageValues,
} from './message-variables';
import { campaignExitFields, frequencyCapHours, type CampaignExitSettings } from './timing';

// ---------------------------------------------------------------------------------------------------------
// Constants of section 9

export const DEFAULT_REMINDER_DELAY = 30;
export const MIN_REMINDER_DELAY = 1;
/**
 * Not in the spec (minimum only): one year. Without an upper bound a delay such as 1e308 was stored and every
 * webhook for that funnel then failed with a 500 (its reminder time is not a representable date).
 */
export const MAX_REMINDER_DELAY = 525_600;
export const SMS_MAX_LENGTH = 160;
export const MAX_SEQUENCE_ORDER = 1000;
export const DEFAULT_TEST_MESSAGE = 'This is a test message from your SMS system.';
export const PAGE_SIZE_OPTIONS = [25, 50, 100, 250, 500] as const;
export const DEFAULT_PAGE_SIZE = 50;

/** Section 9's timezone options, in the spec's order. */
export const SMS_TIMEZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'America/Phoenix',
  'America/Anchorage',
  'Pacific/Honolulu',
  'UTC',
] as const;
export type SmsTimezone = (typeof SMS_TIMEZONES)[number];

export const BLACKOUT_DEFAULTS = {
  blackout_enabled: true,
  blackout_start_hour: 22,
  blackout_end_hour: 8,
  blackout_timezone: 'America/New_York' as SmsTimezone,
};

export const SMS_DATE_RANGES = ['today', 'yesterday', 'last_7_days', 'last_28_days', 'last_90_days'] as const;
export type SmsDateRange = (typeof SMS_DATE_RANGES)[number];
export const DEFAULT_SMS_DATE_RANGE: SmsDateRange = 'today';

/** Optional +, optional leading 1, then 10 to 15 digits (section 9), applied to the trimmed input. */
export const TEST_PHONE_PATTERN = /^\+?1?\d{10,15}$/;

/** North-American toll-free prefixes: messages to these are never sent (they cannot receive SMS reliably). */
export const TOLL_FREE_AREA_CODES = ['800', '833', '844', '855', '866', '877', '888'] as const;

export function isTollFree(e164: string): boolean {
  const m = /^\+1(\d{3})\d{7}$/.exec(e164);
  return !!m && (TOLL_FREE_AREA_CODES as readonly string[]).includes(m[1]!);
}

// ---------------------------------------------------------------------------------------------------------
// Template placeholders, in every spelling of placeholders.ts (`{first_name}`, `{{firstName}}`: funnel tools and
// the email side write either); the editor shows the email side's, `{{firstName}}`, so both editors show one.

export const SMS_PLACEHOLDERS = [
  { key: 'first_name', token: placeholderToken('first_name'), label: 'First name', fallback: 'there' },
  { key: 'checkout_url', token: placeholderToken('checkout_url'), label: 'Checkout URL', fallback: '' },
  { key: 'cart_total', token: placeholderToken('cart_total'), label: 'Cart total', fallback: '' },
  { key: 'item_count', token: placeholderToken('item_count'), label: 'Item count', fallback: '' },
  { key: 'first_item_name', token: placeholderToken('first_item_name'), label: 'First item', fallback: '' },
  { key: 'discount_code', token: placeholderToken('discount_code'), label: 'Discount code', fallback: '' },
] as const;
export type SmsPlaceholderKey = (typeof SMS_PLACEHOLDERS)[number]['key'];
/** Text for the form's hint line. */
export const SMS_PLACEHOLDER_HINT = `Placeholders: ${SMS_PLACEHOLDERS.map((p) => p.token).join(', ')}`;

/** Whether a template needs the contact's checkout link ({checkout_url}, {{checkoutUrl}}, {{recoveryUrl}}, ...). */
export function usesCheckoutLink(message: string): boolean {
  return usesPlaceholder(message, ['checkout_url', 'recovery_url']);
}

/** Values by the SMS side's names, as the shared renderer's (message-variables.ts) names them. */
export function smsMessageValues(values: Partial<Record<SmsPlaceholderKey, string | null | undefined>>): MessageValues {
  const { checkout_url, ...rest } = values;
  return { ...rest, recovery_url: checkout_url };
}

/**
 * Replaces known placeholders in any spelling, through the renderer of both channels (plain text, nothing escaped);
 * a variable without a value takes the template's fallback (`{{firstName | "friend"}}`), else "there" for the first
 * name and nothing for the rest. An unknown `{word}` is left as written so a typo shows in the test SMS.
 */
export function renderSmsTemplate(
  message: string,
  values: Partial<Record<SmsPlaceholderKey, string | null | undefined>>,
): string {
  return fillVariables(message, smsMessageValues(values), { escape: false, keepMissing: false });
}

/** The SMS side's names of one message's values (message-variables.ts `messageValues`). */
export function smsValuesOf(input: MessageInput): Record<SmsPlaceholderKey, string | null> {
  const v = messageValues(input);
  return {
    first_name: v.first_name,
    checkout_url: v.recovery_url,
    cart_total: v.cart_total,
    item_count: v.item_count,
    first_item_name: v.first_item_name,
    discount_code: v.discount_code,
  };
}

/** Sample values for template test sends and previews. */
export const SAMPLE_PLACEHOLDER_VALUES = smsValuesOf(SAMPLE_MESSAGE_INPUT) as Record<SmsPlaceholderKey, string>;

// ---------------------------------------------------------------------------------------------------------
// Statuses (section 4)

/**
 * pending: waiting for its first message. sent: at least one message went out (stays `sent` when the
 * sequence is complete). purchased: bought (webhook, other channel, or 'Mark Purchased'); nothing more is
 * sent. skipped_duplicate: another contact of the same integration already received messages on this phone.
 * abandoned: the sequence ended before any message was sent (toll-free number, phone opted out, or no
 * campaign with active templates when it came due). error: the provider refused a send.
 */
export const SMS_CONTACT_STATUSES = [
  'pending',
  'sent',
  'purchased',
  'abandoned',
  'skipped_duplicate',
  'error',
  'opted_out',
] as const;
export type SmsContactStatus = (typeof SMS_CONTACT_STATUSES)[number];
export const SMS_CONTACT_STATUS_LABELS: Record<SmsContactStatus, string> = {
  pending: 'Pending',
  sent: 'Sent',
  purchased: 'Purchased',
  abandoned: 'Abandoned',
  skipped_duplicate: 'Duplicate Blocked',
  error: 'Error',
  opted_out: 'Opted out',
};

/** Provider statuses of section 4, plus those the sequence writes when it does not send (skipped, blocked, held). */
export const SMS_LOG_STATUSES = [
  'skipped_no_link',
  'sent',
  'delivered',
  'failed',
  'undelivered',
  'pending',
  'queued',
  'skipped_duplicate',
  'blocked_toll_free',
  'held_blackout',
  'held_frequency_cap',
  /** The contact is in the campaign's control group: no text, measured against those reminded. */
  'held_out',
  /** Not a text: the sequence started again (the cart changed) or ended by an exit rule; the message says why. */
  'sequence_restarted',
  'sequence_exited',
] as const;
export type SmsLogStatus = (typeof SMS_LOG_STATUSES)[number];
/** Failed and undelivered are shown and counted together, as are pending and queued (section 4). */
export function smsLogStatusGroup(
  status: string,
): 'sent' | 'delivered' | 'failed' | 'queued' | 'skipped_duplicate' | 'blocked_toll_free' | 'other' {
  if (status === 'failed' || status === 'undelivered') return 'failed';
  if (status === 'pending' || status === 'queued') return 'queued';
  if (status === 'sent' || status === 'delivered' || status === 'skipped_duplicate' || status === 'blocked_toll_free')
    return status;
  return 'other';
}
/** The SMS Logs page's status filter values: a group of smsLogStatusGroup. */
export const SMS_LOG_STATUS_FILTERS = [
  'sent',
  'delivered',
  'failed',
  'queued',
  'skipped_duplicate',
  'blocked_toll_free',
] as const;
export type SmsLogStatusFilter = (typeof SMS_LOG_STATUS_FILTERS)[number];
/** The stored statuses a status filter stands for (failed + undelivered, pending + queued, else itself). */
export function smsLogStatusesOf(filter: SmsLogStatusFilter): SmsLogStatus[] {
  return SMS_LOG_STATUSES.filter((s) => smsLogStatusGroup(s) === filter);
}

export const SMS_WEBHOOK_EVENT_TYPES = [
  'contact',
  'purchase',
  'sms_delivery',
  'sms_reply',
  'handshake',
  'invalid',
  'ignored',
  'rejected',
] as const;
export type SmsWebhookEventType = (typeof SMS_WEBHOOK_EVENT_TYPES)[number];

// ---------------------------------------------------------------------------------------------------------
// Entities as the API returns them (snake_case, numeric ids, ISO date strings)

export interface SmsIntegration extends IntegrationSigning {
  id: number;
  name: string;
  funnel_id: string;
  sms_campaign_id: number | null;
  /** Minutes. */
  reminder_delay: number;
  active: boolean;
  created_at: string;
  /** Convenience for the cards: the campaign's name, null when none. */
  campaign_name: string | null;
  /** The link {checkout_url} takes for a contact whose funnel sent none; null = none. */
  checkout_fallback_url: string | null;
}

export interface SmsCampaign {
  id: number;
  name: string;
  integration_id: number | null;
  active: boolean;
  created_at: string;
  integration_name: string | null;
  template_count: number;
  on_cart_change: CampaignExitSettings['on_cart_change'];
  priority: number;
}

export interface SmsTemplate {
  id: number;
  campaign_id: number;
  name: string;
  message: string;
  sequence_order: number;
  delay_minutes: number;
  active: boolean;
  created_at: string;
}

export interface SmsContact {
  id: number;
  /** E.164. */
  phone: string;
  /** The funnel's contact id. */
  contact_id: string;
  funnel_id: string;
  integration_id: number | null;
  integration_name: string | null;
  status: SmsContactStatus;
  remind_at: string;
  created_at: string;
  first_name: string | null;
  email: string | null;
  /** When the next message is due (null: nothing more will be sent); held back to the blackout end when needed. */
  next_send_at: string | null;
  /** Messages of the sequence handed to the provider so far. */
  messages_sent: number;
  purchased_at: string | null;
  /** The phone replied STOP (and not START since). */
  opted_out: boolean;
  /** While a timing rule holds the next message: when the hold ends; null otherwise. */
  held_until: string | null;
  /** Which rule holds it while held_until is set: the blackout (on the shopper's clock) or the frequency cap. */
  held_by: 'blackout' | 'frequency_cap' | null;
  /** The cart the sender told us about (packages/contracts cart.ts); null when it sent none. */
  cart: Cart | null;
  /** Why no message goes to this contact (the shopper declined the sender's promotional messages); null: none. */
  reminders_held: string | null;
  /** A "Send test delivery" sample (contracts test-delivery.ts): a "Test" badge, never texted, in no count. */
  test: boolean;
}

export interface SmsLog {
  id: number;
  phone: string;
  /** The funnel's contact id; null for provider test messages. */
  contact_id: string | null;
  /** The SMS contact's number (its contact page, `/sms-contacts/:id`); null for provider test messages. */
  contact_ref?: number | null;
  integration_id: number | null;
  template_id: number | null;
  message: string;
  sequence_order: number | null;
  status: SmsLogStatus;
  message_sid: string | null;
  timestamp: string;
  error_message: string | null;
  /** `held_blackout` rows: when the held step goes out (the blackout's end). */
  held_until?: string | null;
}

/** Funnel deliveries carry the DeliveryInfo fields; Twilio callbacks carry them too (source generic, unsigned/verified). */
export interface SmsWebhookEvent extends Partial<DeliveryInfo> {
  id: number;
  type: SmsWebhookEventType;
  /** The delivery as received: JSON text (form callbacks are stored as a JSON object of their fields). */
  payload: string;
  timestamp: string;
}

// ---------------------------------------------------------------------------------------------------------
// Paged lists (beyond the spec's section 7: its calls have no query and answer the whole list, which is what
// these routes still answer without `page`). With `?page=` GET /api/sms-contacts, /api/sms-logs and
// /api/sms-webhook-events answer one page, its total over the filters, and the page's summary cards, each
// counted over every row (the cards ignore search and filters, as on the spec's pages).

export type { Paged };

/** Query of the paged form; pageSize is one of PAGE_SIZE_OPTIONS (default DEFAULT_PAGE_SIZE). */
export interface SmsListQuery {
  page: number;
  pageSize?: number;
  /** Plain substring, case-insensitive, on the fields the page searches. */
  search?: string;
}
export interface SmsContactListQuery extends SmsListQuery {
  status?: SmsContactStatus;
  /** An integration id, or 'none' for contacts without one. */
  integration_id?: number | 'none';
}
export interface SmsLogListQuery extends SmsListQuery {
  status?: SmsLogStatusFilter;
}
export interface SmsWebhookEventListQuery extends SmsListQuery {
  type?: SmsWebhookEventType;
}

/**
 * The four cards of SMS Contacts: every contact, and those pending, purchased, sent, none of them a test delivery's
 * (those are listed with their "Test" badge and counted apart in `tests`).
 */
export interface SmsContactSummary {
  total: number;
  pending: number;
  purchased: number;
  sent: number;
  tests: number;
}
/** The five cards of SMS Logs: failed counts undelivered too, pending counts queued too. */
export interface SmsLogSummary {
  total: number;
  sent: number;
  delivered: number;
  failed: number;
  pending: number;
}
/** SMS Webhook Events: every event, and a count per type (only types with events are present). */
export interface SmsWebhookEventSummary {
  total: number;
  by_type: Partial<Record<SmsWebhookEventType, number>>;
}

export interface SmsContactPage extends Paged<SmsContact> {
  summary: SmsContactSummary;
}
export interface SmsLogPage extends Paged<SmsLog> {
  summary: SmsLogSummary;
}
export interface SmsWebhookEventPage extends Paged<SmsWebhookEvent> {
  summary: SmsWebhookEventSummary;
}

/**
 * Figures of one integration over the range (by the time each message was sent): total_sms_sent = messages
 * handed to Twilio; sent/delivered/failed/queued split them by current status; unique_phones = distinct phones
 * among them; duplicates_sent = of them, messages to a phone first messaged for another contact of the
 * integration (0 while deduplication is on); duplicate_phones = phones with a duplicate sent or blocked;
 * purchases_recorded = contacts of the integration marked purchased in the range.
 */
export interface SmsIntegrationStats {
  integration_id: number;
  integration_name: string;
  unique_phones: number;
  total_sms_sent: number;
  purchases_recorded: number;
  duplicates_sent: number;
  sent_count: number;
  delivered_count: number;
  /** failed + undelivered */
  failed_count: number;
  /** queued + pending */
  queued_count: number;
  skipped_duplicate_count: number;
  blocked_toll_free_count: number;
  duplicate_phones: string[];
}

export interface SmsStatsResponse {
  stats: SmsIntegrationStats[];
  integrations: { id: number; name: string }[];
  /** One point per day of the range, in the blackout timezone, for the chart. */
  daily: { date: string; sent: number; delivered: number }[];
  date_range: SmsDateRange;
  timezone: string;
  from: string;
  to: string;
}

export interface TwilioConfig {
  messaging_service_sid: string;
  phone_number: string;
  webhook_url: string;
  delivery_webhooks_enabled: boolean;
  blackout_start_hour: number;
  blackout_end_hour: number;
  blackout_timezone: SmsTimezone;
  blackout_enabled: boolean;
  /**
   * At most one message per person per this many hours, across both channels and every campaign (null: off); the
   * same account setting as the email side's, kept equal on both (docs/delivery.md, "Timing rules").
   */
  frequency_cap_hours: number | null;
}
/** GET /api/twilio/config: the config plus whether credentials are present in the server's environment. */
export interface TwilioConfigResponse extends TwilioConfig {
  configured: boolean;
}
export interface MessagingServiceOption {
  sid: string;
  friendlyName: string;
}
export interface MessagingServicesResponse {
  services: MessagingServiceOption[];
  message?: string;
}
export interface TwilioTestResponse {
  success: boolean;
  message: string;
  sid?: string;
}

/**
 * POST and PATCH of integrations, campaigns and templates answer the entity itself (201 / 200); deletes and
 * actions (mark-purchased, clear) answer `{ success: true, message, ... }`.
 */
export interface SmsActionResponse {
  success: true;
  message: string;
}

// ---------------------------------------------------------------------------------------------------------
// Validation (section 5)

export const smsMessages = {
  senderPhoneInvalid: 'The phone number must be in E.164 format, like +14155550123',
  messagingServiceSidInvalid: 'The messaging service SID must be MG followed by 32 hexadecimal characters',
  nameRequired: 'Name is required',
  funnelIdRequired: 'Funnel ID is required',
  reminderDelayMin: 'Reminder delay must be at least 1 minute',
  reminderDelayInteger: 'Reminder delay must be a whole number of minutes',
  reminderDelayMax: `Reminder delay must be at most ${MAX_REMINDER_DELAY} minutes (one year)`,
  campaignNameRequired: 'Campaign name is required',
  templateNameRequired: 'Template name is required',
  messageRequired: 'Message is required',
  messageMax: 'SMS messages must be 160 characters or less',
  sequenceOrderMin: 'Sequence order must be at least 1',
  sequenceOrderInteger: 'Sequence order must be a whole number',
  delayMin: 'Delay must be 0 or greater',
  // Upper bounds the spec does not give (docs/decisions.md): a year of delay, a thousand steps.
  delayMax: `Delay must be at most ${MAX_REMINDER_DELAY} minutes (one year)`,
  sequenceOrderMax: `Sequence order must be at most ${MAX_SEQUENCE_ORDER}`,
  delayInteger: 'Delay must be a whole number of minutes',
  campaignRequired: 'Campaign is required',
  phoneRequired: 'Phone number is required',
  phoneInvalid: 'Invalid phone number format',
  urlInvalid: 'Must be a valid URL',
  blackoutStartHour: 'Blackout start hour must be a whole number from 0 to 23',
  blackoutEndHour: 'Blackout end hour must be a whole number from 0 to 23',
  timezoneInvalid: `Timezone must be one of: ${SMS_TIMEZONES.join(', ')}`,
  contactIdRequired: 'contact_id is required',
  notConfigured: 'Twilio is not configured: set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN',
  senderMissing: 'Twilio sender is not configured: choose a messaging service or enter a phone number',
} as const;

/**
 * A trimmed string. yup's own `.trim()` calls `.trim()` on whatever arrives, so `{ "name": {"$gt": ""} }` or an
 * array was a TypeError (500) in svc-sms; this trims strings only and leaves other types to the type check (400).
 */
const trimmedString = () => yup.string().transform((v: unknown) => (typeof v === 'string' ? v.trim() : v));

const nullableId = (label: string) =>
  yup
    .number()
    .typeError(`${label} must be a number`)
    .integer(`${label} must be a number`)
    .positive(`${label} must be a number`)
    .nullable()
    .transform((v: unknown, orig: unknown) => (orig === '' || orig === null || orig === undefined ? null : v));

/** The UI falls back to 30 for a non-numeric entry; the server applies the same rule. */
const reminderDelay = yup
  .number()
  .transform((v: number, orig: unknown) =>
    orig === '' || orig === null || orig === undefined || Number.isNaN(v) ? DEFAULT_REMINDER_DELAY : v,
  )
  .integer(smsMessages.reminderDelayInteger)
  .min(MIN_REMINDER_DELAY, smsMessages.reminderDelayMin)
  .max(MAX_REMINDER_DELAY, smsMessages.reminderDelayMax)
  .default(DEFAULT_REMINDER_DELAY);

export const smsIntegrationSchema = yup.object({
  name: trimmedString().required(smsMessages.nameRequired),
  funnel_id: trimmedString().required(smsMessages.funnelIdRequired),
  sms_campaign_id: nullableId('Campaign').default(null),
  reminder_delay: reminderDelay,
  active: yup.boolean().default(true),
  checkout_fallback_url: checkoutFallbackUrlField().default(null),
});
export type SmsIntegrationInput = yup.InferType<typeof smsIntegrationSchema>;

export const smsCampaignSchema = yup.object({
  name: trimmedString().required(smsMessages.campaignNameRequired),
  integration_id: nullableId('Integration').default(null),
  active: yup.boolean().default(true),
  ...campaignExitFields,
});
export type SmsCampaignInput = yup.InferType<typeof smsCampaignSchema>;

/** sequence_order may be left out on create: the server then takes the campaign's highest order plus 1. */
export const smsTemplateSchema = yup.object({
  campaign_id: yup
    .number()
    .typeError(smsMessages.campaignRequired)
    .integer(smsMessages.campaignRequired)
    .positive(smsMessages.campaignRequired)
    .required(smsMessages.campaignRequired),
  name: trimmedString().required(smsMessages.templateNameRequired),
  message: trimmedString().required(smsMessages.messageRequired).max(SMS_MAX_LENGTH, smsMessages.messageMax),
  sequence_order: yup
    .number()
    .typeError(smsMessages.sequenceOrderMin)
    .integer(smsMessages.sequenceOrderInteger)
    .min(1, smsMessages.sequenceOrderMin)
    .max(MAX_SEQUENCE_ORDER, smsMessages.sequenceOrderMax)
    .optional(),
  delay_minutes: yup
    .number()
    .typeError(smsMessages.delayMin)
    .integer(smsMessages.delayInteger)
    .min(0, smsMessages.delayMin)
    .max(MAX_REMINDER_DELAY, smsMessages.delayMax)
    .default(0),
  active: yup.boolean().default(true),
});
export type SmsTemplateInput = yup.InferType<typeof smsTemplateSchema>;

const testPhone = trimmedString()
  .required(smsMessages.phoneRequired)
  .matches(TEST_PHONE_PATTERN, smsMessages.phoneInvalid);

/** POST /api/sms-templates/{id}/test */
export const templateTestSchema = yup.object({ testPhone });
/** POST /api/twilio/test-sms */
export const twilioTestSmsSchema = yup.object({
  test_phone: testPhone,
  test_message: trimmedString()
    .required(smsMessages.messageRequired)
    .max(1600, 'Message must be 1600 characters or less'),
});

const hour = (msg: string) => yup.number().typeError(msg).integer(msg).min(0, msg).max(23, msg);

/** POST /api/twilio/config: fields left out keep their saved value. */
export const twilioConfigSchema = yup.object({
  // Twilio's own formats: a sender in E.164, a Messaging Service SID "MG" + 32 hex (an "abc" was saved and every send
  // failed later).
  messaging_service_sid: trimmedString()
    .max(64)
    .optional()
    .test('sid', smsMessages.messagingServiceSidInvalid, (v) => !v || /^MG[0-9a-fA-F]{32}$/.test(v)),
  phone_number: trimmedString()
    .max(32)
    .optional()
    .test('e164', smsMessages.senderPhoneInvalid, (v) => !v || /^\+[1-9]\d{7,14}$/.test(v)),
  webhook_url: trimmedString()
    .optional()
    .test('url', smsMessages.urlInvalid, (v) => {
      if (!v) return true;
      try {
        const u = new URL(v);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    }),
  delivery_webhooks_enabled: yup.boolean().optional(),
  blackout_start_hour: hour(smsMessages.blackoutStartHour).optional(),
  blackout_end_hour: hour(smsMessages.blackoutEndHour).optional(),
  blackout_timezone: yup
    .string()
    .oneOf([...SMS_TIMEZONES], smsMessages.timezoneInvalid)
    .optional(),
  blackout_enabled: yup.boolean().optional(),
  frequency_cap_hours: frequencyCapHours(),
});
export type TwilioConfigInput = yup.InferType<typeof twilioConfigSchema>;

/**
 * POST /api/sms-contacts/mark-purchased. `contact_id` is the row's numeric `id`; a string is taken as the
 * funnel's contact id and marks every SMS contact with it.
 */
export const markPurchasedSchema = yup.object({
  contact_id: yup
    .mixed<number | string>()
    .required(smsMessages.contactIdRequired)
    // For the API document (yup.mixed() has no JSON type of its own): what the test below accepts.
    .meta({ jsonSchema: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string', minLength: 1 }] } })
    .test(
      'type',
      smsMessages.contactIdRequired,
      (v) => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) || (typeof v === 'string' && v.trim() !== ''),
    ),
});

export const smsStatsQuerySchema = yup.object({
  date_range: yup
    .string()
    .oneOf([...SMS_DATE_RANGES], `date_range must be one of: ${SMS_DATE_RANGES.join(', ')}`)
    .default(DEFAULT_SMS_DATE_RANGE),
  integration_id: nullableId('integration_id').optional(),
});
