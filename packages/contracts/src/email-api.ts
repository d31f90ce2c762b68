/**
 * The email side's REST shapes (spec/email-and-shell.md sections 3, 7 and 9) and the rules of section 5 as
 * yup schemas with the spec's exact messages. mfe-email (forms) and svc-email (handlers) both import this
 * file, so a rule is written once. Self-contained on purpose (only yup): the browser bundle imports it too.
 *
 * Import path: `@act/contracts/src/email-api`. Field names are the spec's snake_case ones; ids are numbers;
 * dates are ISO strings.
 */
import * as yup from 'yup';

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

export type ContactStatus = 'pending' | 'sent' | 'purchased';
export const CONTACT_STATUSES: readonly ContactStatus[] = ['pending', 'sent', 'purchased'];

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
}

export interface EmailLog {
  id: number;
  /** The funnel's contact id of the contact the reminder was for. */
  contact_id: string;
  email: string;
  timestamp: string;
  message: string;
  /** `would_send` while live sending is not configured. */
  status: string;
}

/** Types stored for a delivery to POST /api/webhook; `invalid` = malformed JSON, missing fields or unknown type. */
export type WebhookEventType = 'contact_created' | 'contact_updated' | 'purchase_created' | 'handshake' | 'invalid';

export interface WebhookEvent {
  id: number;
  type: WebhookEventType;
  timestamp: string;
  /** The raw request body text, exactly as received. */
  payload: string;
}

export interface WebhookIntegration {
  id: number;
  name: string;
  funnel_id: string;
  active: boolean;
  /** Minutes. */
  reminder_delay: number;
  resend_template_id: number | null;
  campaign_id: number | null;
  email_template: string | null;
  created_at: string;
}

/** GET /api/resend/templates rows (part 1 of the email side: what the integration form chooses among). */
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
  status?: ContactStatus;
  /** A number, or `none` for contacts without integration. */
  integration_id?: number | 'none';
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
});

export const markPurchasedRequestSchema = yup.object({
  contact_id: yup
    .mixed<number | string>()
    .required('contact_id is required')
    .test('contact-id', 'contact_id must be a contact id (number or string)', (v) => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) || (typeof v === 'string' && v.trim().length > 0 && v.length <= 200)),
});
