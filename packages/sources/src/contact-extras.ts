import type { Cart } from '@act/contracts/src/cart';
import { keptCart } from './cart';
import { fetchStripeLineItems } from './stripe/line-items';
import type { ContactFact } from './types';

/**
 * A contact fact's cart with the sender's line items where they must be fetched (Stripe Checkout sends none in its
 * events): only for a contact just created, so once per checkout session, and only with the integration's API key;
 * without one, or when the sender refuses, the total alone is kept and the note says why.
 */
export async function contactCart(
  fact: ContactFact,
  opts: { created: boolean; apiKey: string | null; receivedAt: Date; apiBase?: string },
): Promise<{ cart: Cart | null; notes: string[] }> {
  const input = fact.cart;
  const ref = fact.lineItemsRef;
  if (!input || !ref || !opts.created || !opts.apiKey) return keptCart(input, opts.receivedAt);
  try {
    const { items, more } = await fetchStripeLineItems(opts.apiKey, ref.sessionId, { apiBase: opts.apiBase });
    const kept = keptCart({ ...input, items }, opts.receivedAt);
    if (more) kept.notes.push('Cart: the session has more than 100 line items; the first 100 are kept');
    return kept;
  } catch (err) {
    const kept = keptCart(input, opts.receivedAt);
    const why = ((err as Error).message || 'no answer').slice(0, 200);
    kept.notes.push(`Cart: the line items could not be fetched from Stripe (${why}); the total is kept`);
    return kept;
  }
}

/**
 * Why no reminder may go to this contact, or null: the shopper declined the sender's promotional messages (Stripe
 * `consent.promotions: opt_out`) and the integration has not been told the shop has another basis to write.
 */
export function reminderHold(fact: ContactFact, sendWithoutConsent: boolean): string | null {
  if (fact.promotions !== 'denied' || sendWithoutConsent) return null;
  return 'The shopper declined promotional messages at checkout (Stripe consent.promotions: opt_out): no reminder is sent';
}
