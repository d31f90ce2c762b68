/** Pure display rules of the SMS screens (spec section 9), kept apart so each one is tested on its own. */
import { DEFAULT_REMINDER_DELAY, SMS_MAX_LENGTH } from '@act/contracts/src/sms-api';

/** Log message preview (section 9). */
export const LOG_MESSAGE_PREVIEW = 50;
/** Log error text preview (section 9). */
export const LOG_ERROR_PREVIEW = 30;
/** Webhook event payload preview (section 9). */
export const EVENT_PAYLOAD_PREVIEW = 100;
/** Duplicate-phone listing: at most this many, then '+N more' (section 9). */
export const DUPLICATE_PHONES_SHOWN = 5;

/** The first `max` characters, with '...' when something was cut; null/undefined give ''. */
export function truncate(text: string | null | undefined, max: number): string {
  if (!text) return '';
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** Delivered divided by total sent, as a whole percent (0 when nothing was sent). */
export function deliveryRate(delivered: number, totalSent: number): number {
  if (!totalSent || totalSent <= 0) return 0;
  return Math.round((delivered / totalSent) * 100);
}

/** At most 5 phones, and the '+N more' text for the rest (null when nothing is left out). */
export function duplicatePhonesPreview(
  phones: readonly string[],
  max = DUPLICATE_PHONES_SHOWN,
): { shown: string[]; more: string | null } {
  const shown = phones.slice(0, max);
  const rest = phones.length - shown.length;
  return { shown, more: rest > 0 ? `+${rest} more` : null };
}

/** The live counter under the template message: 'x/160' and whether it is over the limit. */
export function smsCounter(message: string): { text: string; over: boolean } {
  return { text: `${message.length}/${SMS_MAX_LENGTH}`, over: message.length > SMS_MAX_LENGTH };
}

/** Reminder delay as typed: a non-numeric entry falls back to 30 (section 5); other numbers are kept for validation. */
export function parseReminderDelay(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : DEFAULT_REMINDER_DELAY;
  if (typeof value !== 'string' || value.trim() === '') return DEFAULT_REMINDER_DELAY;
  const n = Number(value);
  return Number.isFinite(n) ? n : DEFAULT_REMINDER_DELAY;
}

/** A payload as stored (JSON text) pretty-printed; text that is not JSON is shown as it is. */
export function prettyJson(payload: string | null | undefined): string {
  if (!payload) return '';
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

/** 'Hour 22' as the select shows it: '10 PM (22:00)'. */
export function hourLabel(hour: number): string {
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${h12} ${hour < 12 ? 'AM' : 'PM'} (${String(hour).padStart(2, '0')}:00)`;
}
