import { createHash } from 'node:crypto';
import { adapterFor } from './adapters';
import { header, obj, text } from './values';
import type { Headers, SourceId } from './types';

/** A delivery as the replay guard needs it: its sender's scheme, what was received, and whether its signature held. */
export interface ReplayedDelivery {
  source: SourceId;
  /** Body bytes as received. */
  raw: Buffer;
  body: unknown;
  headers: Headers;
  verified: boolean;
}

/**
 * The ids a delivery is remembered under against replays, the ones its signature covers first.
 *
 * A header the signature does not cover (our `X-Webhook-Id`, Shopify's `X-Shopify-Webhook-Id`) cannot on its own
 * decide that a verified delivery is new: anyone who captured one could post it again under another id. So a
 * verified delivery is also known by what was signed: for our scheme the HMAC's input (`"{timestamp}.{raw body}"`),
 * for Shopify's and WooCommerce's (no timestamp) the raw body, for ClickFunnels 2.0 the `event_id` inside its signed body. The sender's
 * own id still follows, so a sender's retry that was signed again (a new timestamp) is still recognised.
 * Unsigned deliveries keep the sender's id alone: nothing signed exists to bind it to.
 */
export function replayIds(opts: ReplayedDelivery): string[] {
  const { source, raw, body, headers, verified } = opts;
  const senderId = adapterFor(source).deliveryId(body, headers);
  const ids: string[] = [];
  if (verified) {
    if (source === 'generic') {
      const ts = header(headers, 'x-signature-timestamp')?.trim() ?? '';
      ids.push(digest(`${ts}.`, raw));
      // The spec's body may name itself (`delivery_id`): signed, so it holds even when the header differs.
      const bodyId = text(obj(body)?.delivery_id);
      if (bodyId) ids.push(bodyId);
    } else if (source === 'shopify' || source === 'woocommerce') {
      ids.push(digest('', raw));
    }
  }
  if (senderId !== null && !ids.includes(senderId)) ids.push(senderId);
  return ids;
}

function digest(prefix: string, raw: Buffer): string {
  return `sha256:${createHash('sha256').update(prefix).update(raw).digest('hex')}`;
}

/** The part of service-kit's ReplayGuard this needs. */
export interface ReplayClaims {
  claim(integrationId: number, deliveryId: string): Promise<boolean>;
  release(integrationId: number, deliveryId: string): Promise<void>;
}

/**
 * Claims the delivery's ids (`replayIds`) one after another, stopping at the first one seen before (then the delivery
 * is a duplicate). In order, not at once: a replay must be stopped by its signed id before its new unsigned id is
 * claimed, or that id would be spent and the sender's genuine delivery carrying it later refused as a duplicate.
 * `release` gives back what was claimed, for a delivery that was not applied (the sender's retry must be).
 */
export async function claimDelivery(
  guard: ReplayClaims,
  integrationId: number,
  delivery: ReplayedDelivery,
): Promise<{ fresh: boolean; release: () => Promise<void> }> {
  const ids = replayIds(delivery);
  const claimed: string[] = [];
  const release = async () => {
    await Promise.all(claimed.map((id) => guard.release(integrationId, id).catch(() => undefined)));
  };
  for (const id of ids) {
    if (!(await guard.claim(integrationId, id))) return { fresh: false, release };
    claimed.push(id);
  }
  return { fresh: true, release };
}
