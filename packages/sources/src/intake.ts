import { randomBytes } from 'node:crypto';
import { adapterFor } from './adapters';
import { detectSource } from './detect';
import type { Headers, SourceId } from './types';

/**
 * The rules both services apply to a delivery before anything is written (docs/webhooks.md "Signed deliveries"):
 * an integration with a secret takes only deliveries signed with it by its sender's scheme; without a secret a
 * delivery is accepted unsigned, unless the side's "Require signed deliveries" setting is on.
 */
export type VerificationDecision =
  { verification: 'verified' | 'unsigned'; reason: null } | { verification: 'rejected'; reason: string };

export function decideVerification(opts: {
  source: SourceId;
  raw: Buffer;
  headers: Headers;
  /** The integration's secret, opened; null when it has none. */
  secret: string | null;
  requireSigned: boolean;
  nowMs?: number;
}): VerificationDecision {
  if (opts.secret === null) {
    if (opts.requireSigned)
      return {
        verification: 'rejected',
        reason: 'Unsigned delivery refused: signed deliveries are required and this integration has no signing secret',
      };
    return { verification: 'unsigned', reason: null };
  }
  const result = adapterFor(opts.source).verify(opts.raw, opts.headers, opts.secret, opts.nowMs);
  return result.ok ? { verification: 'verified', reason: null } : { verification: 'rejected', reason: result.message };
}

/** The sender of a delivery: the integration's pinned source, else recognised from the delivery. */
export function sourceOf(pinned: SourceId | null | undefined, body: unknown, headers: Headers): SourceId {
  return pinned ?? detectSource(body, headers);
}

/** The unguessable part of an integration's own endpoint URL (144 random bits). */
export function newWebhookKey(): string {
  return randomBytes(18).toString('base64url');
}

/** Keys are base64url; anything else in that path segment cannot be one (answered 404 before any read). */
export function looksLikeWebhookKey(v: string): boolean {
  return /^[A-Za-z0-9_-]{16,64}$/.test(v);
}

/** The integration's own endpoint, e.g. `https://app.example.com/api/webhook/i/<key>`. */
export function integrationWebhookUrl(
  publicUrl: string,
  basePath: '/api/webhook' | '/api/sms/webhook',
  key: string,
): string {
  return `${publicUrl.replace(/(?<!\/)\/+$/, '')}${basePath}/i/${key}`;
}
