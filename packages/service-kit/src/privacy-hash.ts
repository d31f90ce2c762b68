import { createHmac } from 'node:crypto';
import { normEmail, normPhone } from '@act/contracts/src/attribution';
import { identitySecret } from './config';

/**
 * The salted hash that stands for an erased person: on the suppression lists (so a later message to the
 * same address or number is still stopped) and in place of their address or number in kept records.
 *
 * HMAC-SHA256 keyed with PRIVACY_HASH_SALT, else with a key derived from IDENTITY_SECRET (every service and the
 * gateway share it, so the three services hash a person alike). Without the key the hash cannot be reversed by
 * trying addresses. The key must not change: entries hashed under an old key no longer match anyone, so set
 * PRIVACY_HASH_SALT in production rather than rely on IDENTITY_SECRET, which may be rotated.
 */
export function privacyHashKey(): string {
  const salt = process.env.PRIVACY_HASH_SALT;
  if (salt) return salt;
  const secret = identitySecret();
  // Derived once per secret: the opt-out and unsubscribe checks of every send ask for it.
  if (derived?.secret !== secret)
    derived = { secret, key: createHmac('sha256', secret).update('act-privacy-hash-salt-v1').digest('hex') };
  return derived.key;
}
let derived: { secret: string; key: string } | null = null;

/** How a value is compared: addresses lower-cased and trimmed; numbers by their last ten digits (as the export matches). */
export const privacyNormal = {
  email: (v: string): string | null => normEmail(v),
  phone: (v: string): string | null => normPhone(v),
};

/** Hex HMAC of one normalised value; null when the value normalises to nothing. */
export function privacyHash(kind: 'email' | 'phone' | 'key', value: string): string | null {
  const norm = kind === 'key' ? value : privacyNormal[kind](value);
  if (!norm) return null;
  return createHmac('sha256', privacyHashKey()).update(`${kind}:${norm}`).digest('hex').slice(0, 32);
}

const ERASED_EMAIL = /^erased-[0-9a-f]{32}@erased\.invalid$/;
const ERASED_PHONE = /^erased-[0-9a-f]{32}$/;

/**
 * What an erased address becomes, on its contacts and on the unsubscribe list: a fixed form (the field is required)
 * that names nobody, and the same for the same address, so the list entry and the kept contact match each other.
 */
export function erasedEmail(email: string): string | null {
  const h = privacyHash('email', email);
  return h ? `erased-${h}@erased.invalid` : null;
}

/** What an erased number becomes, on its contacts and on the opt-out list. */
export function erasedPhone(phone: string): string | null {
  const h = privacyHash('phone', phone);
  return h ? `erased-${h}` : null;
}

export const isErasedEmail = (v: unknown): boolean => typeof v === 'string' && ERASED_EMAIL.test(v);
export const isErasedPhone = (v: unknown): boolean => typeof v === 'string' && ERASED_PHONE.test(v);

/** The forms a suppression list is searched under for this address: as written (lower-cased) and as erased. */
export function emailSuppressionKeys(email: string): string[] {
  const norm = normEmail(email);
  if (!norm) return [];
  if (isErasedEmail(norm)) return [norm];
  return [norm, erasedEmail(norm)!];
}

/** The forms an opt-out list is searched under for this number: as stored (E.164) and as erased. */
export function phoneSuppressionKeys(phone: string): string[] {
  if (isErasedPhone(phone)) return [phone];
  const erased = erasedPhone(phone);
  return erased ? [phone, erased] : [phone];
}

/**
 * A funnel's contact id after an erase (it names the person in the funnel builder): its hash, the same on every row
 * that showed it (contacts, logs, sequences), and distinct for distinct ids, so the unique (integration, contact id)
 * indexes hold.
 */
export function erasedContactId(contactId: string): string {
  if (contactId.startsWith('erased-')) return contactId;
  return `erased-${privacyHash('key', `contact:${contactId}`)}`;
}

/** What a raw webhook delivery's body becomes: the row stays (event pages count it), what it said does not. */
export function erasedPayload(requestId: number): string {
  return JSON.stringify({ erased: true, privacy_request: requestId });
}

/**
 * What a contact's cart becomes: its items and amounts stay (the figures count them), the recovery link, which
 * reopens this shopper's own checkout, does not.
 */
export function erasedCart(cart: object): object {
  return { ...cart, recovery_url: null };
}

/** A text with every mention of the person's addresses and numbers replaced by their erased forms. */
export function scrubText(text: string, person: { emails: string[]; phones: string[] }): string {
  let out = text;
  for (const e of person.emails) {
    const erased = erasedEmail(e);
    // Whole addresses only: another address that merely ends with this one ("xpat@..." for "pat@...") stays.
    if (erased)
      out = out.replace(new RegExp(`(?<![\\w.+-])${e.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'gi'), erased);
  }
  for (const p of person.phones) {
    const digits = p.replace(/\D/g, '').slice(-10);
    const erased = erasedPhone(p);
    if (digits.length >= 7 && erased)
      out = out.replace(new RegExp(`(?:\\+?\\d{1,3}[ .-]?)?${digits.split('').join('\\D{0,3}')}`, 'g'), erased);
  }
  return out;
}
