import { privacyHash } from '@act/service-kit';

/** At most this many keys on one record: a change is a handful of fields, so this only bounds a pathological one. */
const MAX_KEYS = 200;
// Starts only at the first character of a run (the lookbehind): retried inside a long run without an @, it is quadratic.
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
/** A run of digits with the separators a number is written with ("+1 (555) 010-2030"), at least seven digits. */
const PHONE = /\+?\d(?:[\s().-]{0,3}\d){6,}/g;

/**
 * The people an audit record's change mentions, as keys an erase can find by index: the privacy hash of
 * each address in it (lower-cased) and of each number (by ten consecutive digits, as numbers are matched; a shorter
 * run of seven to nine digits as it is). Hashed, so the index names nobody; a false key (a long id read as a number)
 * costs only a look at that record when someone with that number is erased.
 */
export function mentionKeys(change: unknown): string[] {
  if (change === null || change === undefined) return [];
  const text = JSON.stringify(change);
  const keys = new Set<string>();
  for (const m of text.matchAll(EMAIL)) {
    const h = privacyHash('email', m[0]);
    if (h) keys.add(`e:${h}`);
  }
  for (const m of text.matchAll(PHONE)) {
    const digits = m[0].replace(/\D/g, '');
    const windows = digits.length <= 10 ? [digits] : Array.from({ length: digits.length - 9 }, (_, i) => digits.slice(i, i + 10));
    for (const w of windows) {
      const h = privacyHash('phone', w);
      if (h) keys.add(`p:${h}`);
    }
  }
  return [...keys].slice(0, MAX_KEYS);
}

/** The keys an erase of this person looks for. */
export function personKeys(email: string | null, phone: string | null): string[] {
  const e = email ? privacyHash('email', email) : null;
  const p = phone ? privacyHash('phone', phone) : null;
  return [...(e ? [`e:${e}`] : []), ...(p ? [`p:${p}`] : [])];
}
