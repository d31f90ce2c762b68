import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * E.164 form of a phone as funnels send it ("+1 555 123 4567", "(555) 123-4567", "15551234567"), US by default.
 * "Possible" rather than "valid": funnels and tests use 555 numbers, which the numbering plan marks unassigned
 * but Twilio still accepts for a send attempt. Null when the input cannot be a phone number.
 */
export function toE164(raw: unknown, defaultCountry: 'US' = 'US'): string | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const text = String(raw).trim();
  if (!text) return null;
  const parsed = parsePhoneNumberFromString(text, defaultCountry);
  if (!parsed || !parsed.isPossible()) return null;
  return parsed.number;
}
