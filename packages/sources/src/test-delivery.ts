import { randomBytes } from 'node:crypto';
import { TEST_DELIVERY_HEADER, TEST_DELIVERY_PHONE, isTestDeliveryEmail, testDeliveryEmail } from '@act/contracts/src/test-delivery';
import { adapterFor } from './adapters';
import type { Headers, SourceId } from './types';

export interface TestDeliveryResult {
  source: SourceId;
  signed: boolean;
  url: string;
  status: number;
  body: unknown;
}

/**
 * "Send test delivery": a realistic sample of the sender, signed with the integration's secret by the sender's own
 * scheme (server side, so the secret never reaches a browser), posted to the integration's public URL the way the
 * sender would, and the answer handed back. The sample's contact is a test address on example.com.
 */
export async function sendTestDelivery(opts: {
  source: SourceId;
  url: string;
  secret: string | null;
  funnelId: string | null;
  timeoutMs?: number;
}): Promise<TestDeliveryResult> {
  const nonce = randomBytes(8).toString('hex');
  const adapter = adapterFor(opts.source);
  const { body, headers } = adapter.sample({
    email: testDeliveryEmail(nonce),
    phone: TEST_DELIVERY_PHONE,
    firstName: 'Test',
    funnelId: opts.funnelId,
    nonce,
  });
  const raw = Buffer.from(JSON.stringify(body));
  const signature = opts.secret ? adapter.sign(raw, opts.secret) : {};
  const res = await fetch(opts.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'AbandonedCartTracker-TestDelivery/1.0',
      [TEST_DELIVERY_HEADER]: nonce,
      ...headers,
      ...signature,
    },
    body: raw,
    signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: shown as text.
  }
  return {
    source: opts.source,
    signed: Object.keys(signature).length > 0,
    url: opts.url,
    status: res.status,
    body: parsed,
  };
}

/**
 * Whether a delivery is the product's own "Send test delivery": its header, and the sample's reserved address (or,
 * without an address, the reserved phone). The header alone cannot hide a real shopper, and a real delivery whose
 * shopper happens to have a reserved address is not a test.
 */
export function isTestDelivery(headers: Headers, contact: { email: string | null; phone: string | null }): boolean {
  const h = headers[TEST_DELIVERY_HEADER];
  if (typeof h !== 'string' || h.length === 0) return false;
  return contact.email ? isTestDeliveryEmail(contact.email) : contact.phone === TEST_DELIVERY_PHONE;
}
