/**
 * The email side's REST shapes (spec/email-and-shell.md sections 3, 7 and 9) and the rules of section 5 as
 * yup schemas with the spec's exact messages. mfe-email (forms) and svc-email (handlers) both import this
 * file, so a rule is written once. Self-contained on purpose (only yup): the browser bundle imports it too.
 *
 * Import path: `@act/contracts/src/email-api`. Field names are the spec's snake_case ones; ids are numbers;
 * dates are ISO strings.
 */
import * as yup from 'yup';
import { checkoutFallbackUrlField } from './checkout-link';
import { campaignExitFieldsOptional, type CampaignExitSettings } from './timing';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN, isEmailAddress } from './email-address';
import type { DeliveryInfo, IntegrationSigning } from './webhook-signing';
import type { Cart } from './cart';
import { canonicalPlaceholder, usesPlaceholder } from './placeholders';
import { escapeHtml, fillVariables, messageVariableOf, type MessageValues } from './message-variables';

// ---------------------------------------------------------------------------------------------------------
// Constants of section 9

export const REMINDER_DELAY_MIN = 1;
export const REMINDER_DELAY_MAX = 720;
/** Minutes; also what GET /api/settings/reminder-delay answers while nothing is stored. */
export const REMINDER_DELAY_DEFAULT = 30;
export const DEFAULT_FUNNEL_ID = 'default';
export const DEFAULT_INTEGRATION_NAME = 'Default Integration';
export const DEFAULT_TEMPLATE_TYPE = 'abandoned_cart';
export const EMAIL_PAGE_SIZES = [10, 25, 50, 100, 250] as const;
export const EMAIL_DEFAULT_PAGE_SIZE = 25;
export const RECENT_ACTIVITY_COUNT = 3;

export const REMINDER_DELAY_MESSAGE = 'Reminder delay must be between 1 and 720 minutes';

// ---------------------------------------------------------------------------------------------------------
// Entities as the API returns them (section 3)

/**
 * The spec's three, and `unsubscribed`: the reminder fell due but the address is on the unsubscribe
 * list, so nothing was sent; such a contact is not an abandoned cart we tried to win back.
 */
export type ContactStatus = 'pending' | 'sent' | 'purchased' | 'unsubscribed';
export const CONTACT_STATUSES: readonly ContactStatus[] = ['pending', 'sent', 'purchased', 'unsubscribed'];

export interface Contact {
  id: number;
  /** The funnel's contact id (a string, as the funnel sent it). */
  contact_id: string;
  email: string;
  created_at: string;
  remind_at: string;
  purchased_at: string | null;
  status: ContactStatus;
  integration_id: number | null;
  /** The cart the sender told us about (packages/contracts cart.ts); null when it sent none. */
  cart: Cart | null;
  /** Why no reminder goes to this contact (the shopper declined the sender's promotional messages); null: none. */
  reminders_held: string | null;
  /**
   * The address is on the unsubscribe list, whenever it got there (before the contact came in, before or after its
   * reminder). `status` keeps its lifecycle value; screens show "Unsubscribed" for such a contact unless it purchased
   * (docs/decisions.md, "Unsubscribed contacts").
   */
  unsubscribed: boolean;
  /**
   * Its reminder was only logged (`would_send`, live sending off), never received: screens write "Sent (simulated)".
   * Present on every contact the contacts routes answer.
   */
  simulated?: boolean;
  /** A "Send test delivery" sample (contracts test-delivery.ts): a "Test" badge, no reminder, in no count. */
  test?: boolean;
}

export interface EmailLog {
  id: number;
  /** The funnel's contact id of the contact the reminder was for. */
  contact_id: string;
  /** The contact's number on the email side (its contact page, `/contacts/:id`). */
  contact_ref?: number;
  email: string;
  timestamp: string;
  message: string;
  /** `would_send` while live sending is not configured. */
  status: string;
  /**
   * What Resend reported after sending (its signed webhooks): delivery_delayed, delivered, opened, clicked,
   * bounced, complained; null when nothing was reported.
   */
  delivery: string | null;
}

/**
 * Types stored for a delivery to POST /api/webhook; `invalid` = malformed JSON, missing fields or unknown type;
 * `ignored` = a sender's event the product does not act on; `rejected` = refused for its signature (401).
 */
export type WebhookEventType = 'contact_created' | 'contact_updated' | 'purchase_created' | 'handshake' | 'invalid' | 'ignored' | 'rejected';

export interface WebhookEvent extends DeliveryInfo {
  id: number;
  type: WebhookEventType;
  timestamp: string;
  /** The raw request body text, exactly as received. */
  payload: string;
}

export interface WebhookIntegration extends IntegrationSigning {
  id: number;
  name: string;
  funnel_id: string;
  active: boolean;
  /** Minutes. */
  reminder_delay: number;
  resend_template_id: number | null;
  campaign_id: number | null;
  email_template: string | null;
  /** The link {{recoveryUrl}} takes for a contact whose funnel sent none; null = none. */
  checkout_fallback_url: string | null;
  created_at: string;
}

/** GET /api/resend/templates rows (what the integration form chooses among). */
export interface EmailTemplateSummary {
  id: number;
  name: string;
  active: boolean;
  type: string;
}

// ---------------------------------------------------------------------------------------------------------
// Requests and responses (section 7)

/** Every list answers an array; with `?page=` it answers this instead (see ListQuery). */
export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * Optional query of GET /api/contacts, /api/email-logs, /api/webhook-events. Without `page` the whole list is
 * returned (the spec's UI pages in the browser). `sort` is a field name, `-field` or `field:desc` for
 * descending; nulls sort last either way.
 */
export interface ListQuery {
  page?: number;
  pageSize?: number;
  sort?: string;
}
export interface ContactListQuery extends ListQuery {
  /**
   * The status a screen shows: `purchased`; `unsubscribed` (on the list, not purchased: see `Contact.unsubscribed`);
   * `pending` or `sent` (that status, address not on the list).
   */
  status?: ContactStatus;
  /** A number, or `none` for contacts without integration. */
  integration_id?: number | 'none';
}

/** GET /api/contacts?page=: one page, and how many of its `total` are test deliveries (listed, in no figure). */
export interface ContactPage extends Paged<Contact> {
  tests: number;
}

/** POST /api/contacts/mark-purchased: the contact's numeric `id`, or its funnel `contact_id` string. */
export interface MarkPurchasedRequest {
  contact_id: number | string;
}
export interface MarkPurchasedResponse {
  success: true;
  contact: Contact;
}

export interface ReminderDelayResponse {
  reminderDelay: number;
}
export interface ReminderDelayRequest {
  reminderDelay: number;
}
export interface SetReminderDelayResponse {
  success: true;
  reminderDelay: number;
  message: string;
}

export interface IntegrationRequest {
  name: string;
  funnel_id: string;
  active?: boolean;
  reminder_delay?: number;
  resend_template_id?: number | null;
  campaign_id?: number | null;
  email_template?: string | null;
  checkout_fallback_url?: string | null;
}
/** PATCH /api/webhook-integrations/{id}: the full form body, or only `{ active }`. */
export type IntegrationPatchRequest = Partial<IntegrationRequest>;

export interface MessageResponse {
  message: string;
}
export interface SuccessResponse {
  success: true;
  message: string;
}
/** POST /api/test/check-abandoned-carts */
export interface CheckAbandonedCartsResponse extends SuccessResponse {
  processed: number;
}

/** POST /api/webhook answers (the spec does not show them; docs/webhooks.md does). */
export interface WebhookOkResponse {
  status: 'ok';
  message: string;
  contact_id?: string;
  integration_id?: number;
  /** Purchases: how many contacts were moved to purchased. */
  matched?: number;
  /** A replay of a delivery already applied (the sender's delivery id was seen before): nothing was done. */
  duplicate?: true;
}

// ---------------------------------------------------------------------------------------------------------
// Rules of section 5. Form variants cast input strings to numbers (formik); request variants take numbers and
// booleans only as JSON numbers and booleans, so the server refuses `"30"`, objects and `$`-operators
// instead of coercing them. (A transform rather than yup's `strict()`: strict would also skip defaults.)

/** yup's `.trim()` calls `.trim()` on whatever arrives (an object → TypeError → 500); this one trims strings only. */
const trimmed = () => yup.string().transform((v: unknown) => (typeof v === 'string' ? v.trim() : v));

const onlyNumber = (value: unknown, original: unknown) => (original === null ? null : typeof original === 'number' ? original : NaN);
const onlyBoolean = (value: unknown, original: unknown) => (original === null || typeof original === 'boolean' ? original : 'not a boolean');

function reminderDelayField(strict: boolean, integer: boolean) {
  let s = yup.number().typeError(REMINDER_DELAY_MESSAGE).required(REMINDER_DELAY_MESSAGE).min(REMINDER_DELAY_MIN, REMINDER_DELAY_MESSAGE).max(REMINDER_DELAY_MAX, REMINDER_DELAY_MESSAGE);
  if (integer) s = s.integer(REMINDER_DELAY_MESSAGE);
  return strict ? s.transform(onlyNumber) : s;
}

/** Dashboard dialog and settings page: integer 1 to 720. */
export const reminderDelaySchema = yup.object({ reminderDelay: reminderDelayField(false, true) });
export const reminderDelayRequestSchema = yup.object({ reminderDelay: reminderDelayField(true, true) });

function optionalId(strict: boolean, label: string) {
  const s = yup.number().typeError(`${label} must be a number`).integer(`${label} must be an integer`).min(1, `${label} must be a positive integer`).nullable().default(null);
  return strict ? s.transform(onlyNumber) : s;
}

function integrationFields(strict: boolean) {
  const active = yup.boolean().typeError('active must be true or false').default(true);
  return {
    name: trimmed().typeError('Name is required').required('Name is required').max(200, 'Name must be at most 200 characters'),
    funnel_id: trimmed().typeError('Funnel ID is required').required('Funnel ID is required').max(200, 'Funnel ID must be at most 200 characters'),
    active: strict ? active.transform(onlyBoolean) : active,
    reminder_delay: reminderDelayField(strict, false).default(REMINDER_DELAY_DEFAULT),
    resend_template_id: optionalId(strict, 'resend_template_id'),
    campaign_id: optionalId(strict, 'campaign_id'),
    email_template: yup.string().typeError('email_template must be a string').nullable().default(null).max(100_000, 'email_template is too long'),
    checkout_fallback_url: checkoutFallbackUrlField().default(null),
  };
}

/** Integration side sheet (name and funnel_id required; reminder_delay 1 to 720, default 30). */
export const integrationSchema = yup.object(integrationFields(false));
export const integrationRequestSchema = yup.object(integrationFields(true));

/** PATCH: every field optional, each checked by the same rule when present. */
export const integrationPatchRequestSchema = yup.object({
  name: trimmed().typeError('Name is required').nonNullable('Name is required').min(1, 'Name is required').max(200, 'Name must be at most 200 characters'),
  funnel_id: trimmed().typeError('Funnel ID is required').nonNullable('Funnel ID is required').min(1, 'Funnel ID is required').max(200, 'Funnel ID must be at most 200 characters'),
  active: yup.boolean().transform(onlyBoolean).typeError('active must be true or false').nonNullable('active must be true or false'),
  reminder_delay: yup.number().transform(onlyNumber).typeError(REMINDER_DELAY_MESSAGE).nonNullable(REMINDER_DELAY_MESSAGE).min(REMINDER_DELAY_MIN, REMINDER_DELAY_MESSAGE).max(REMINDER_DELAY_MAX, REMINDER_DELAY_MESSAGE),
  resend_template_id: yup.number().transform(onlyNumber).typeError('resend_template_id must be a number').integer('resend_template_id must be an integer').min(1, 'resend_template_id must be a positive integer').nullable(),
  campaign_id: yup.number().transform(onlyNumber).typeError('campaign_id must be a number').integer('campaign_id must be an integer').min(1, 'campaign_id must be a positive integer').nullable(),
  email_template: yup.string().typeError('email_template must be a string').nullable().max(100_000, 'email_template is too long'),
  checkout_fallback_url: checkoutFallbackUrlField(),
});

export const markPurchasedRequestSchema = yup.object({
  contact_id: yup
    .mixed<number | string>()
    .required('contact_id is required')
    // For the API document (yup.mixed() has no JSON type of its own): what the test below accepts.
    .meta({ jsonSchema: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string', minLength: 1, maxLength: 200 }] } })
    .test('contact-id', 'contact_id must be a contact id (number or string)', (v) => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) || (typeof v === 'string' && v.trim().length > 0 && v.length <= 200)),
});

// =========================================================================================================
// Campaigns and sending: campaigns, templates, Resend, unsubscribe list (spec sections 2, 3, 5, 7, 9 and
// sms-and-unsubscribe.md for the unsubscribe calls; docs/email-sending.md).

export const DEFAULT_TEMPLATE_SUBJECT = 'Your cart is waiting!';
/** Default from name of the standalone (legacy) templates page. */
export const DEFAULT_TEMPLATE_FROM_NAME = 'Cart Reminders';
/** Default from name of the campaign templates page (section 9). */
export const CAMPAIGN_TEMPLATE_FROM_NAME = 'Notification';
/** Default delay of a campaign's first template, and of every later one (section 9). */
export const FIRST_TEMPLATE_DELAY_HOURS = 0;
export const LATER_TEMPLATE_DELAY_HOURS = 24;
export const MAX_DELAY_HOURS = 8760;
/**
 * The spec's two, the contact's first name (when the sender gave one), the unsubscribe link (the same
 * signed token as the List-Unsubscribe header; it opens the confirm page), and the cart's (message-variables.ts:
 * total, item count, first item, the step's discount code). Every spelling of placeholders.ts is accepted
 * (`{first_name}`, `{{unsubscribe_url}}`), and `checkout_url` as another name of the recovery link, as users of other
 * tools write them; a template may write its own fallback (`{{firstName | "friend"}}`).
 */
export const TEMPLATE_VARIABLES = [
  'contactEmail',
  'firstName',
  'recoveryUrl',
  'unsubscribeUrl',
  'cartTotal',
  'itemCount',
  'firstItemName',
  'discountCode',
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];
/** A placeholder that may stand for a whole link (an href): every variable but the contact's email. */
export const LINK_VARIABLE_PATTERN = /^\{\{\s*(recoveryUrl|unsubscribeUrl|unsubscribe_url|checkout_url)\s*\}\}$/;

/**
 * Section 3's default template content: a heading, a greeting with the contact's email and a 'Complete Your
 * Purchase' button to the recovery URL. The UIs use it as a new template's content; it passes the server's
 * sanitiser unchanged in meaning (inline styles of the button are kept).
 */
export const DEFAULT_TEMPLATE_HTML = [
  '<h1>You left something in your cart</h1>',
  '<p>Hi {{contactEmail}},</p>',
  '<p>We noticed you did not finish your order. Your items are still waiting for you, but we cannot hold them forever.</p>',
  '<p><a href="{{recoveryUrl}}" style="display:inline-block;padding:12px 24px;background-color:#1976d2;color:#ffffff;text-decoration:none;border-radius:4px">Complete Your Purchase</a></p>',
  '<p>Thank you!</p>',
].join('\n');

export { escapeHtml };

/**
 * Replaces the variables, in any spelling of placeholders.ts ({{contactEmail}}, {first_name}, spaces inside the
 * braces allowed), through the renderer of both channels (message-variables.ts). Values are HTML-escaped unless
 * `escape` is false (plain-text fields such as the subject). A first name that is missing or empty becomes the
 * template's fallback, else "there"; the cart's variables and the code become their fallback or nothing; a link or
 * address without a value, and unknown placeholders, stay as written.
 */
export function renderTemplateVariables(
  content: string,
  values: Partial<Record<TemplateVariable, string | null>>,
  { escape = true } = {},
): string {
  const byName: MessageValues = {};
  for (const [k, v] of Object.entries(values)) {
    const name = messageVariableOf(canonicalPlaceholder(k));
    if (name) byName[name] = v;
  }
  return fillVariables(content, byName, { escape });
}

/** Whether content links to the contact's checkout ({{recoveryUrl}} or its alias {{checkout_url}}, any spelling). */
export function usesCheckoutLink(content: string): boolean {
  return usesPlaceholder(content, ['recovery_url', 'checkout_url']);
}

export interface EmailCampaign {
  id: number;
  name: string;
  description: string | null;
  type: string;
  active: boolean;
  created_at: string;
  on_cart_change: CampaignExitSettings['on_cart_change'];
  priority: number;
}

export interface EmailTemplate {
  id: number;
  name: string;
  subject: string;
  from_name: string;
  /** Sanitised HTML with {{contactEmail}} / {{recoveryUrl}} placeholders. */
  html_content: string;
  type: string;
  active: boolean;
  /** Kept when the campaign is deleted (the template is then orphaned). */
  campaign_id: number | null;
  template_order: number;
  delay_hours: number;
  created_at: string;
}

export interface CampaignRequest {
  name: string;
  description?: string | null;
  type?: string;
  active?: boolean;
  on_cart_change?: CampaignExitSettings['on_cart_change'];
  priority?: number;
}

export interface TemplateRequest {
  name: string;
  subject?: string;
  from_name?: string;
  html_content: string;
  type?: string;
  active?: boolean;
  campaign_id?: number | null;
  /** Default: 1, or the campaign's highest order + 1. */
  template_order?: number;
  /** Default: 0 for a campaign's first template, 24 for later ones. */
  delay_hours?: number;
}
export type TemplatePatchRequest = Partial<TemplateRequest>;

/** GET /api/resend/config: never the key itself. Environment values win over stored ones. */
export interface ResendConfigStatus {
  configured: boolean;
  /** Whether a key is set at all (apiKeySource says where from). */
  apiKeyConfigured: boolean;
  /** Which value is in force: the environment's wins over a stored one (spec); null: none. */
  apiKeySource: 'env' | 'stored' | null;
  /** The environment's from-address; a stored one is write-only (null here, see `stored`). */
  from: string | null;
  fromSource: 'env' | 'stored' | null;
  /** What is stored in the app (sealed): when each value was set and its last four characters, never the value. */
  stored: { apiKey: { set_at: string | null; last4: string | null } | null; from: { set_at: string | null; last4: string | null } | null };
  /** Whether Resend's signed delivery events (POST /api/resend/webhooks) can be verified. */
  webhookSecretConfigured: boolean;
  /** EMAIL_LIVE_SENDING: campaign emails go out through Resend instead of `would_send` logs. */
  liveSending: boolean;
  message: string;
  /** Set when live sending goes out with a non-https PUBLIC_URL: the one-click unsubscribe link will be ignored. */
  oneClickWarning?: string | null;
}
/** POST /api/resend/config (admin): stored values, used only where the environment gives none. null clears. */
export interface ResendConfigRequest {
  apiKey?: string | null;
  from?: string | null;
}
export interface ResendConnectionResult {
  success: boolean;
  message: string;
}
export interface TestEmailRequest {
  testEmail: string;
}
export interface TestEmailResponse {
  success: boolean;
  message: string;
  messageId?: string;
}

export type UnsubscribeCheckStatus = 'subscribed' | 'already-unsubscribed';
export type UnsubscribeResultStatus = 'unsubscribed' | 'already-unsubscribed';
/** GET /api/unsubscribe?email= */
export interface UnsubscribeCheckResponse {
  status: UnsubscribeCheckStatus;
  message: string;
}
/** POST /api/unsubscribe and POST /api/unsubscribe/one-click?token= */
export interface UnsubscribeResponse {
  status: UnsubscribeResultStatus;
  message: string;
}
export interface UnsubscribeRequest {
  email: string;
  reason?: string | null;
}
export interface UnsubscribeEntry {
  id: number;
  email: string;
  unsubscribed_at: string;
  reason: string | null;
}
export interface QuickAddUnsubscribeRequest {
  email: string;
  reason?: string | null;
}
export interface QuickAddUnsubscribeResponse {
  success: true;
  status: UnsubscribeResultStatus;
  message: string;
  entry: UnsubscribeEntry;
}
export interface RemoveUnsubscribeRequest {
  id: number;
}
export interface RemoveUnsubscribeResponse {
  success: true;
  message: string;
  entry: UnsubscribeEntry;
}
export const UNSUBSCRIBE_ADMIN_REASON = 'Manually added by admin';

// Rules of section 5 for campaigns, templates, test emails and the unsubscribe list (the same message set for form
// and request; request variants take numbers and booleans only as JSON numbers and booleans).

/** Trims strings; an empty string becomes undefined so a field's default applies. */
const trimmedOrDefault = () => yup.string().transform((v: unknown) => (typeof v === 'string' ? v.trim() || undefined : v));
/** Trims strings; an empty string becomes null (optional text such as a description). */
const trimmedOrNull = () => yup.string().transform((v: unknown) => (typeof v === 'string' ? v.trim() || null : v));
export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address';
/**
 * An address field after its required check: one test that looks at the length before the pattern (yup runs every
 * test of a field, so `.max()` then `.matches()` still ran the pattern on a megabyte). The API document keeps the
 * rule's length and pattern.
 */
const emailAddressTest = <S extends yup.StringSchema<string | undefined>>(s: S) =>
  s
    .test('email-address', INVALID_EMAIL_MESSAGE, (v) => v == null || isEmailAddress(v))
    .meta({ jsonSchema: { maxLength: EMAIL_MAX_LENGTH, pattern: EMAIL_PATTERN.source } });

function campaignFields(strict: boolean) {
  const active = yup.boolean().typeError('active must be true or false').default(true);
  return {
    name: trimmed().typeError('Campaign name is required').required('Campaign name is required').max(200, 'Campaign name must be at most 200 characters'),
    description: trimmedOrNull().typeError('Description must be text').nullable().default(null).max(2000, 'Description must be at most 2000 characters'),
    type: trimmedOrDefault().typeError('Campaign type must be text').max(100, 'Campaign type must be at most 100 characters').default(DEFAULT_TEMPLATE_TYPE),
    active: strict ? active.transform(onlyBoolean) : active,
    ...campaignExitFieldsOptional,
  };
}
/** Campaign dialog (name required; type default abandoned_cart; description optional; active default true). */
export const campaignSchema = yup.object(campaignFields(false));
export const campaignRequestSchema = yup.object(campaignFields(true));

/** Which form a template comes from: the messages differ (section 5), the rules do not. */
export type TemplateForm = 'standalone' | 'campaign';
export const TEMPLATE_MESSAGES = {
  standalone: { subject: 'Subject line is required', content: 'HTML content is required', fromName: DEFAULT_TEMPLATE_FROM_NAME },
  campaign: { subject: 'Subject is required', content: 'Email content is required', fromName: CAMPAIGN_TEMPLATE_FROM_NAME },
} as const;
export const TEMPLATE_ORDER_MESSAGE = 'Template order must be a whole number of at least 1';
export const DELAY_HOURS_MESSAGE = 'Delay must be a number of hours of at least 0';

function templateFields(form: TemplateForm, strict: boolean, patch: boolean) {
  const m = TEMPLATE_MESSAGES[form];
  const num = (s: yup.NumberSchema<number | undefined>) => (strict ? s.transform(onlyNumber) : s);
  const bool = (s: yup.BooleanSchema<boolean | undefined>) => (strict ? s.transform(onlyBoolean) : s);
  const text = (msg: string, max: number, maxMsg: string, def?: string) => {
    const s = trimmed().typeError(msg).max(max, maxMsg);
    if (patch) return s.nonNullable(msg).min(1, msg);
    return def === undefined ? s.required(msg) : s.default(def).required(msg);
  };
  return {
    name: text('Template name is required', 200, 'Template name must be at most 200 characters'),
    subject: text(m.subject, 500, 'Subject must be at most 500 characters', patch ? undefined : DEFAULT_TEMPLATE_SUBJECT),
    from_name: text('From name is required', 200, 'From name must be at most 200 characters', patch ? undefined : m.fromName),
    html_content: patch
      ? yup.string().typeError(m.content).nonNullable(m.content).min(1, m.content).max(500_000, 'Content is too long')
      : yup.string().typeError(m.content).required(m.content).max(500_000, 'Content is too long'),
    type: patch ? trimmedOrDefault().typeError('type must be text').max(100, 'type must be at most 100 characters') : trimmedOrDefault().typeError('type must be text').max(100, 'type must be at most 100 characters').default(DEFAULT_TEMPLATE_TYPE),
    active: patch ? bool(yup.boolean().typeError('active must be true or false')).nonNullable('active must be true or false') : bool(yup.boolean().typeError('active must be true or false')).default(true),
    campaign_id: strict ? optionalId(strict, 'campaign_id').default(patch ? undefined : null) : optionalId(strict, 'campaign_id'),
    template_order: num(yup.number().typeError(TEMPLATE_ORDER_MESSAGE).integer(TEMPLATE_ORDER_MESSAGE).min(1, TEMPLATE_ORDER_MESSAGE).max(100_000, TEMPLATE_ORDER_MESSAGE)),
    delay_hours: num(yup.number().typeError(DELAY_HOURS_MESSAGE).min(0, DELAY_HOURS_MESSAGE).max(MAX_DELAY_HOURS, `Delay must be at most ${MAX_DELAY_HOURS} hours`)),
  };
}
/** Legacy standalone page's dialog and campaign page's dialog (section 5's two message sets). */
export const standaloneTemplateSchema = yup.object(templateFields('standalone', false, false));
export const campaignTemplateSchema = yup.object(templateFields('campaign', false, false));
/** POST /api/resend/templates: the campaign message set when a campaign_id is given. */
export function templateRequestSchema(form: TemplateForm) {
  return yup.object(templateFields(form, true, false));
}
/** PATCH /api/resend/templates/{id}: changed fields only, each by the same rule. */
export function templatePatchRequestSchema(form: TemplateForm) {
  return yup.object(templateFields(form, true, true));
}

export const TEST_EMAIL_REQUIRED_MESSAGE = 'Test email address is required';
export const testEmailRequestSchema = yup.object({
  testEmail: emailAddressTest(trimmed().typeError(TEST_EMAIL_REQUIRED_MESSAGE).required(TEST_EMAIL_REQUIRED_MESSAGE)),
  /** A contact whose data the test shows (its name, cart, link), as the preview does; absent: sample values. */
  contact_id: yup.number().integer().min(1).nullable().optional(),
});

export const resendConfigRequestSchema = yup.object({
  apiKey: trimmedOrNull().typeError('apiKey must be text').nullable().max(500, 'apiKey is too long'),
  from: trimmedOrNull().typeError('from must be text').nullable().max(320, 'from is too long'),
  webhookSecret: trimmedOrNull()
    .typeError('webhookSecret must be text')
    .nullable()
    .matches(/^whsec_[A-Za-z0-9+/=]{16,200}$/, {
      message: 'The webhook secret must be the whsec_... value Resend shows for the endpoint',
      excludeEmptyString: true,
    }),
});

export const EMAIL_REQUIRED_MESSAGE = 'Email required';
const emailField = () => emailAddressTest(trimmed().typeError(EMAIL_REQUIRED_MESSAGE).required(EMAIL_REQUIRED_MESSAGE));
const reasonField = () => trimmedOrNull().typeError('Reason must be text').nullable().max(500, 'Reason must be at most 500 characters');
/** POST /api/unsubscribe (public page: email from the link, optional reason). */
export const unsubscribeRequestSchema = yup.object({ email: emailField(), reason: reasonField().default(null) });
/** POST /api/email-unsubscribes/quick-add (admin; reason defaults to 'Manually added by admin'). */
export const quickAddUnsubscribeRequestSchema = yup.object({
  email: emailField(),
  reason: reasonField().transform((v: unknown) => (v === null ? undefined : v)).default(UNSUBSCRIBE_ADMIN_REASON),
});
export const removeUnsubscribeRequestSchema = yup.object({
  id: yup.number().transform(onlyNumber).typeError('id must be a number').required('id is required').integer('id must be an integer').min(1, 'id must be a positive integer'),
});
