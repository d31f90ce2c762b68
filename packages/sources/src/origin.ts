import type { FactOrigin } from '@act/contracts/src/events';
import type { DeliveryInfo } from '@act/contracts/src/webhook-signing';
import { isSourceId } from './adapters';
import { SOURCE_LABELS, type SourceId } from './types';

/**
 * The origin a delivery's fact carries to the other side (`FactOrigin` in packages/contracts events.ts): which
 * scheme read it, whether its signature was checked, and the integration that took it on this side.
 */
export function webhookOrigin(
  scheme: SourceId,
  verification: 'verified' | 'unsigned',
  integrationId: number | null,
): FactOrigin {
  return { via: 'webhook', scheme, verified: verification === 'verified', integrationId };
}

/**
 * The origin of a consumed event, read defensively (the payload is JSON from the stream). Missing or malformed reads
 * as an unverified delivery: an event published before the field existed cannot show it was signed, so a funnel
 * that requires signing does not take it.
 */
export function readOrigin(payload: Record<string, unknown>): FactOrigin {
  const o = payload.origin;
  if (o && typeof o === 'object' && !Array.isArray(o)) {
    const r = o as Record<string, unknown>;
    if (r.via === 'staff') return { via: 'staff' };
    if (r.via === 'webhook' && isSourceId(r.scheme))
      return {
        via: 'webhook',
        scheme: r.scheme,
        verified: r.verified === true,
        integrationId: typeof r.integrationId === 'number' && Number.isInteger(r.integrationId) ? r.integrationId : null,
      };
  }
  return { via: 'webhook', scheme: 'generic', verified: false, integrationId: null };
}

/**
 * Whether a fact may change a funnel whose integration requires signing: a delivery verified on either side (against
 * a secret an admin set there), or a staff action (a change the staff member may make on this side directly).
 */
export function isTrusted(origin: FactOrigin): boolean {
  return origin.via === 'staff' || origin.verified;
}

/**
 * The Webhook Events row of a relayed fact this side's signing rules refused: a rejected delivery of the integration
 * it would have changed, with the reason an operator reads; the event's name says which fact it was.
 */
export function refusedFact(
  origin: FactOrigin,
  subject: string,
  otherSide: 'email' | 'SMS',
  integration: { id: number; name: string } | null,
): DeliveryInfo & { verification_reason: string } {
  const what = origin.via === 'webhook' ? `An unsigned ${SOURCE_LABELS[origin.scheme]} delivery` : 'A fact';
  const rule = integration
    ? `the integration ${integration.name} requires signed deliveries`
    : 'signed deliveries are required';
  return {
    source: origin.via === 'webhook' ? origin.scheme : 'generic',
    verification: 'rejected',
    verification_reason: `${what} received by the ${otherSide} side was refused: ${rule}`,
    outcome: 'rejected',
    integration_id: integration?.id ?? null,
    event_name: subject,
  };
}
