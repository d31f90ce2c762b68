import { hmacSha256, signatureMatches, unixSeconds } from './crypto';
import type { VerifyResult } from './types';

export interface TimestampedScheme {
  /** Names used in the messages, e.g. `X-Webhook-ClickFunnels-Signature`. */
  signatureHeader: string;
  timestampHeader: string;
  /** How far the timestamp may be from now, either way. */
  toleranceSeconds: number;
  /** Text before the hex digest in the header (`sha256=` in ours, none in ClickFunnels'). */
  prefix: string;
}

/** Hex HMAC-SHA256 of `"{timestamp}.{raw body}"`, refused when the timestamp is outside the tolerance. */
export function verifyTimestamped(
  scheme: TimestampedScheme,
  raw: Buffer,
  signature: string | null,
  timestamp: string | null,
  secret: string,
  nowMs: number,
): VerifyResult {
  if (!signature) return { ok: false, reason: 'missing', message: `Missing signature (${scheme.signatureHeader})` };
  const ts = unixSeconds(timestamp);
  if (ts === null)
    return { ok: false, reason: 'missing', message: `Missing or malformed timestamp (${scheme.timestampHeader})` };
  if (Math.abs(nowMs / 1000 - ts) > scheme.toleranceSeconds)
    return {
      ok: false,
      reason: 'stale',
      message: `Stale signature: the timestamp is more than ${scheme.toleranceSeconds} s away from now`,
    };
  const digest = signature.trim().startsWith(scheme.prefix) ? signature.trim().slice(scheme.prefix.length) : '';
  const expected = hmacSha256(secret, `${timestamp!.trim()}.`, raw);
  if (!signatureMatches(digest, expected, 'hex'))
    return { ok: false, reason: 'wrong', message: `Wrong signature (${scheme.signatureHeader})` };
  return { ok: true };
}

export function signTimestamped(
  scheme: TimestampedScheme,
  raw: Buffer,
  secret: string,
  nowMs: number,
): Record<string, string> {
  const ts = String(Math.floor(nowMs / 1000));
  return {
    [scheme.signatureHeader]: scheme.prefix + hmacSha256(secret, `${ts}.`, raw).toString('hex'),
    [scheme.timestampHeader]: ts,
  };
}
