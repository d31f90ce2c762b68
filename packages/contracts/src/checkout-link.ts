import * as yup from 'yup';

/**
 * An integration's fallback checkout link, on both channels: the link a reminder takes for a contact
 * whose funnel sent none. Optional; blank means none; http(s) only.
 */
export function checkoutFallbackUrlField() {
  return yup
    .string()
    .typeError('The fallback checkout link must be a string')
    .transform((v: unknown) => (typeof v === 'string' ? v.trim() || null : v))
    .nullable()
    .max(2000, 'The fallback checkout link is too long')
    .test('https', 'The fallback checkout link must be an http(s) URL', (v) => {
      if (!v) return true;
      try {
        return ['http:', 'https:'].includes(new URL(v).protocol);
      } catch {
        return false;
      }
    });
}

/** What a step logs when its template needs a checkout link and neither the contact nor the integration has one. */
export const NO_CHECKOUT_LINK_MESSAGE =
  'Skipped: no checkout link (the funnel sent none and the integration has no fallback link)';
