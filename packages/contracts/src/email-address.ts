/**
 * The one email-address check of the product: forms, handlers, webhook parsing and the public unsubscribe page all
 * call it. Self-contained (no imports) so the browser bundles can take it without yup.
 *
 * Linear time on any input (docs/security.md): the length is checked first, and the pattern itself cannot
 * backtrack. It accepts and refuses exactly what `/^[^\s@]+@[^\s@]+\.[^\s@]+$/` does (something, one @, a
 * domain with a dot that is neither its first nor its last character), but that plainer form lets `[^\s@]+` and
 * `\.` trade dots: "a@" followed by 128,000 dots and an "@" takes 15 s of one service's only thread. Here the
 * domain is its first character, then everything up to the next dot (which cannot be a dot), that dot, and at
 * least one more character: each part has one way to match.
 */

/** RFC 5321's path limit; longer is refused before any pattern runs. */
export const EMAIL_MAX_LENGTH = 320;

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/;

/** Whether `value` is an address by the product's rule (length first, then the pattern). */
export function isEmailAddress(value: unknown): value is string {
  return typeof value === 'string' && value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);
}
