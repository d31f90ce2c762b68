import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The one-click link's token: the address itself plus an HMAC of it, so the link works without a session or a
 * stored token, cannot be forged for another address, and keeps working for as long as the secret does
 * (unsubscribe links must not expire). base64url(email) + '.' + base64url(hmac).
 */
function mac(email: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(`unsubscribe:v1:${email}`).digest();
}

export function signUnsubscribeToken(email: string, secret: string): string {
  const e = email.trim().toLowerCase();
  return `${Buffer.from(e).toString('base64url')}.${mac(e, secret).toString('base64url')}`;
}

/** The lower-cased address the token was made for, or null when it is malformed or forged. */
export function verifyUnsubscribeToken(token: unknown, secret: string): string | null {
  if (typeof token !== 'string' || token.length > 1000) return null;
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const email = Buffer.from(token.slice(0, dot), 'base64url').toString('utf8');
  if (!email.includes('@') || email !== email.trim().toLowerCase()) return null;
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = mac(email, secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return email;
}

/** UNSUBSCRIBE_SECRET, else one derived from IDENTITY_SECRET (a different key for a different purpose). */
export function unsubscribeSecret(explicit: string | undefined, identitySecret: string): string {
  if (explicit) return explicit;
  return createHmac('sha256', identitySecret).update('act-unsubscribe-links').digest('base64url');
}
