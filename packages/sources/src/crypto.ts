import { createHmac, timingSafeEqual } from 'node:crypto';

export function hmacSha256(secret: string, ...parts: (string | Buffer)[]): Buffer {
  const h = createHmac('sha256', secret);
  for (const p of parts) h.update(p);
  return h.digest();
}

/**
 * Constant-time comparison of a received signature with the expected digest. The received text is decoded in the
 * expected encoding first; a value of another length or that does not decode fails without an early exit on content.
 */
export function signatureMatches(received: string, expected: Buffer, encoding: 'hex' | 'base64'): boolean {
  const trimmed = received.trim();
  if (encoding === 'hex' && !/^[0-9a-fA-F]+$/.test(trimmed)) return false;
  if (encoding === 'base64' && !/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) return false;
  const got = Buffer.from(trimmed, encoding);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** Seconds since the epoch in a timestamp header, or null when it is not one. */
export function unixSeconds(value: string | null): number | null {
  if (value === null || !/^\d{1,13}$/.test(value.trim())) return null;
  const n = Number(value.trim());
  // Some senders give milliseconds; 13 digits cannot be seconds for thousands of years.
  return n > 1e11 ? Math.floor(n / 1000) : n;
}
