/**
 * Previews with real data (both channels): a template as it would be sent to one contact (or to sample data), through
 * the same renderer, variables and link as a send. Self-contained (yup): the browser bundles import it too.
 */
import * as yup from 'yup';
import { templateTestSchema } from './sms-api';

/** What a step's code shows as in a preview: a unique code is never spent on one. */
export const UNIQUE_CODE_PREVIEW = '(unique code)';
/** Contacts a search offers at most. */
export const PREVIEW_CONTACTS_MAX = 10;

/** A contact a preview may use. */
export interface PreviewContact {
  id: number;
  email: string | null;
  phone: string | null;
  first_name: string | null;
  has_cart: boolean;
  created_at: string;
}

export interface PreviewContactsQuery {
  /** The start of an email address or phone number; empty: the newest contacts, those with a cart first. */
  q?: string;
}

export interface PreviewContactsResponse {
  contacts: PreviewContact[];
  /** The contact a preview uses when none is chosen: the newest with a cart, else the newest; null: sample data. */
  default_contact_id: number | null;
}

const contactChoice = {
  /** A contact's id; absent or null: the default contact (the newest with a cart), unless `sample`. */
  contact_id: yup.number().integer().min(1).nullable().optional(),
  /** Sample data instead of a contact. */
  sample: yup.boolean().optional(),
  /** The code to show for {{discountCode}}; absent: the step's as its send gives it ("(unique code)" for a unique one). */
  discount_code: yup.string().trim().max(100).nullable().optional(),
  /**
   * The template previewed, when it is saved: its step's incentive decides the code and the link as the send does
   * (a code created in Shopify goes into the link). Absent: "(unique code)", the link as it is.
   */
  template_id: yup.number().integer().min(1).nullable().optional(),
};

export const emailPreviewRequestSchema = yup.object({
  subject: yup.string().max(500).default(''),
  html_content: yup.string().max(2_000_000).required('HTML content is required'),
  ...contactChoice,
});
export type EmailPreviewRequest = yup.InferType<typeof emailPreviewRequestSchema>;

export interface EmailPreview {
  subject: string;
  /** The email's HTML as it would be sent (Cart blocks rendered, variables filled, links as sent). */
  html: string;
  /** The contact whose data it shows; null: sample data. */
  contact: PreviewContact | null;
  /** Why the send would give this contact no code (the step's pool is empty, the shop holds no credentials); null: none. */
  incentive_note: string | null;
}

export const smsPreviewRequestSchema = yup.object({
  message: yup.string().max(2000).required('Message is required'),
  ...contactChoice,
});
export type SmsPreviewRequest = yup.InferType<typeof smsPreviewRequestSchema>;

export interface SmsPreview {
  /** The text as it would be sent (the first item's name shortened when needed). */
  message: string;
  segments: number;
  encoding: 'GSM-7' | 'UCS-2';
  /** In the encoding's units. */
  characters: number;
  /** The template's typical segments: what a send keeps to by shortening the first item's name. */
  template_segments: number;
  shortened: boolean;
  contact: PreviewContact | null;
  /** Why the send would give this contact no code; null: none. */
  incentive_note: string | null;
}

/** POST /api/sms-templates/{id}/test: the spec's test phone, and a contact whose data the test shows (as previewed). */
export const smsTemplateTestRequestSchema = templateTestSchema.shape({
  contact_id: yup.number().integer().min(1).nullable().optional(),
});
