import Stripe from 'stripe';
import type { CartItemInput } from '@act/contracts/src/cart';
import { obj } from '../values';

/**
 * Where the Stripe API is: STRIPE_API_BASE (tests point it at packages/testing's fake), else Stripe's own. The
 * library takes host, port and protocol separately.
 */
export function apiOptions(base: string | undefined): Stripe.StripeConfig {
  if (!base) return {};
  const u = new URL(base);
  const protocol = u.protocol === 'http:' ? 'http' : 'https';
  return { host: u.hostname, port: Number(u.port || (protocol === 'http' ? 80 : 443)), protocol };
}

/**
 * A Checkout Session's line items through the official library (`checkout.sessions.listLineItems`, products
 * expanded for their name, images and URL), with the integration's restricted key (read access to Checkout
 * Sessions is enough). At most 100 lines (the cart's limit), one request, a short timeout: the sender waits for
 * the answer. Throws with Stripe's message when the key or the session is refused.
 */
export async function fetchStripeLineItems(
  apiKey: string,
  sessionId: string,
  opts: { apiBase?: string; timeoutMs?: number } = {},
): Promise<{ items: CartItemInput[]; more: boolean }> {
  const client = new Stripe(apiKey, {
    ...apiOptions(opts.apiBase ?? process.env.STRIPE_API_BASE),
    timeout: opts.timeoutMs ?? 5_000,
    maxNetworkRetries: 1,
    telemetry: false,
    appInfo: { name: 'AbandonedCartTracker' },
  });
  const page = await client.checkout.sessions.listLineItems(sessionId, {
    limit: 100,
    expand: ['data.price.product'],
  });
  const items = page.data.map((line): CartItemInput => {
    const price = line.price;
    const product = obj(price?.product);
    const images = Array.isArray(product?.images) ? product.images : [];
    return {
      name: line.description ?? product?.name,
      // A price's nickname is how Stripe names a variant of one product (size, plan).
      variant: price?.nickname ?? null,
      quantity: line.quantity ?? 1,
      unitPrice: { minor: price?.unit_amount ?? null },
      lineTotal: { minor: line.amount_total },
      productUrl: product?.url ?? null,
      imageUrl: images[0] ?? null,
      sku: obj(product?.metadata)?.sku ?? null,
    };
  });
  return { items, more: page.has_more };
}
