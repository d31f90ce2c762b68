import type { Context } from 'koa';
import {
  DELIVERY_OUTCOMES,
  DELIVERY_VERIFICATIONS,
  WEBHOOK_SOURCES,
  integrationSigningPatchSchema,
  type IntegrationSigningPatch,
  type WebhookSource,
} from '@act/contracts/src/webhook-signing';
import { BadRequestError, ForbiddenError } from './errors';
import { currentUser } from './identity';
import { validate } from './validate';
import type { SecretBox } from './secret-box';

const SIGNING_KEYS = ['webhook_secret', 'webhook_source', 'sender_api_key', 'send_without_consent'] as const;

/**
 * The signing part of an integration PATCH (both sides): present only when the body names `webhook_secret` or
 * `webhook_source`, and then for admins only, since a secret decides who may create contacts and purchases.
 */
export async function readSigningPatch(ctx: Context): Promise<IntegrationSigningPatch | null> {
  const body = ctx.request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const given = SIGNING_KEYS.filter((k) => Object.prototype.hasOwnProperty.call(body, k));
  if (given.length === 0) return null;
  if (currentUser(ctx)?.role !== 'admin') throw new ForbiddenError('Admin access required to change webhook signing');
  const picked = Object.fromEntries(given.map((k) => [k, (body as Record<string, unknown>)[k]]));
  return (await validate(integrationSigningPatchSchema, picked)) as IntegrationSigningPatch;
}

/** The stored form of a signing patch. */
export interface SigningFields {
  webhook_secret?: string | null;
  webhook_source?: WebhookSource | null;
  sender_api_key?: string | null;
  send_without_consent?: boolean;
}

/** Stored fields for a signing patch: the secret and the sender's API key sealed (or null to remove them), the pinned source. */
export function signingFields(patch: IntegrationSigningPatch, box: SecretBox): SigningFields {
  const set: SigningFields = {};
  if (patch.webhook_secret !== undefined)
    set.webhook_secret = patch.webhook_secret === null ? null : box.seal(patch.webhook_secret);
  if (patch.webhook_source !== undefined) set.webhook_source = patch.webhook_source;
  if (patch.sender_api_key !== undefined)
    set.sender_api_key = patch.sender_api_key === null ? null : box.seal(patch.sender_api_key);
  if (patch.send_without_consent !== undefined) set.send_without_consent = patch.send_without_consent;
  return set;
}

/**
 * `?source=&verification=&outcome=` of the Webhook Events lists, as a MongoDB filter. Rows stored before these
 * fields existed count as generic and unsigned.
 */
export function deliveryFilter(query: Record<string, unknown>): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  const pick = <T extends string>(name: string, allowed: readonly T[]): T | null => {
    const v = query[name];
    if (v === undefined || v === '') return null;
    if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v))
      throw new BadRequestError(`${name} must be one of ${allowed.join(', ')}`);
    return v as T;
  };
  const source = pick('source', WEBHOOK_SOURCES);
  const verification = pick('verification', DELIVERY_VERIFICATIONS);
  const outcome = pick('outcome', DELIVERY_OUTCOMES);
  if (source) filter.source = source === 'generic' ? { $in: ['generic', null] } : source;
  if (verification) filter.verification = verification === 'unsigned' ? { $in: ['unsigned', null] } : verification;
  if (outcome) filter.outcome = outcome;
  return filter;
}
