import { signTimestamped, verifyTimestamped, type TimestampedScheme } from '../timestamped';
import { header, obj, text } from '../values';
import type { SourceAdapter } from '../types';

/**
 * Our own scheme for the spec's formats (a relay, a custom shop, Zapier): `X-Signature: sha256=<hex>` where hex is
 * the HMAC-SHA256 of `"{X-Signature-Timestamp}.{raw body}"` with the integration's secret, within 5 minutes.
 * An optional `X-Webhook-Id` header names the delivery, so a retry of it is recognised.
 */
export const GENERIC_SCHEME: TimestampedScheme = {
  signatureHeader: 'X-Signature',
  timestampHeader: 'X-Signature-Timestamp',
  toleranceSeconds: 300,
  prefix: 'sha256=',
};

export const generic: SourceAdapter = {
  id: 'generic',
  parse: null,
  deliveryId: (body, headers) => text(header(headers, 'x-webhook-id')) ?? text(obj(body)?.delivery_id),
  verify: (raw, headers, secret, nowMs = Date.now()) =>
    verifyTimestamped(
      GENERIC_SCHEME,
      raw,
      header(headers, 'x-signature'),
      header(headers, 'x-signature-timestamp'),
      secret,
      nowMs,
    ),
  sign: (raw, secret, nowMs = Date.now()) => signTimestamped(GENERIC_SCHEME, raw, secret, nowMs),
  sample: ({ email, phone, firstName, funnelId, nonce }) => ({
    body: {
      event: 'contact_created',
      funnel_id: funnelId,
      contact: {
        id: `test-${nonce}`,
        email,
        phone,
        first_name: firstName,
        checkout_url: `https://shop.example.com/checkout/test-${nonce}`,
      },
    },
    headers: { 'X-Webhook-Id': `test-${nonce}` },
  }),
};
