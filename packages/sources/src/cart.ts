import { normalizeCart, type Cart, type CartInput } from '@act/contracts/src/cart';
import { obj } from './values';

/** Field names the spec's formats' senders use for the link back to the checkout, most specific first. */
const LINK_FIELDS = ['recovery_url', 'checkout_url', 'cart_url', 'abandoned_checkout_url', 'cart_recovery_url'];

/**
 * The cart of the spec's own formats (docs/webhooks.md): they name no items, so a contact event that carries
 * `amount` and `currency` (in `contact`, in `purchase`, or at the top level, as the legacy purchase does) gives a
 * total-only cart, with the checkout link when one is sent. Null when the body says nothing of a cart.
 */
export function genericCart(body: unknown): CartInput | null {
  const b = obj(body);
  if (!b) return null;
  const contact = obj(b.contact) ?? {};
  const purchase = obj(b.purchase) ?? {};
  const pick = (key: string): unknown => contact[key] ?? purchase[key] ?? b[key];
  const link = LINK_FIELDS.map(pick).find((v) => typeof v === 'string' && v.trim() !== '');
  const amount = pick('amount');
  if ((amount === undefined || amount === null) && link === undefined) return null;
  return {
    currency: pick('currency'),
    total: { major: amount },
    recoveryUrl: link,
    updatedAt: pick('updated_at'),
  };
}

/** A fact's cart with the limits applied, and what they dropped (each side records the notes on the delivery). */
export function keptCart(input: CartInput | null, receivedAt: Date): { cart: Cart | null; notes: string[] } {
  return normalizeCart(input, receivedAt);
}

/** The notes on a delivery's event row: the reason it was ignored first, then what was dropped from its cart. */
export function withCartNotes(reason: string | null | undefined, notes: readonly string[]): string | null {
  const all = [reason, ...notes].filter((s): s is string => Boolean(s));
  return all.length ? all.join('; ') : null;
}

/**
 * The cart a fact from the other side carries (its `cart` as that side stored it), read defensively: the payload is
 * JSON from the stream, so it goes through the same limits again. Null when absent or not a cart.
 */
export function cartFromEvent(v: unknown, receivedAt: Date): Cart | null {
  const c = obj(v);
  if (!c) return null;
  const items = Array.isArray(c.items) ? c.items : [];
  return normalizeCart(
    {
      currency: c.currency,
      items: items.map((i) => {
        const it = obj(i) ?? {};
        return {
          name: it.name,
          variant: it.variant,
          quantity: it.quantity,
          unitPrice: { minor: it.unit_price },
          lineTotal: { minor: it.line_total },
          productUrl: it.product_url,
          imageUrl: it.image_url,
          sku: it.sku,
        };
      }),
      subtotal: { minor: c.subtotal },
      discounts: { minor: c.discounts },
      total: { minor: c.total },
      recoveryUrl: c.recovery_url,
      recoveryExpiresAt: c.recovery_expires_at,
      updatedAt: c.updated_at_source === 'sender' ? c.updated_at : undefined,
    },
    typeof c.updated_at === 'string' && c.updated_at_source !== 'sender' && !Number.isNaN(Date.parse(c.updated_at))
      ? new Date(c.updated_at)
      : receivedAt,
  ).cart;
}

/** The other side's reason to hold a contact's reminders, read defensively (text, capped). */
export function heldFromEvent(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, 300) : null;
}
