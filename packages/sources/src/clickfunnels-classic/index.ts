import { amount, currency, email, first, LIMITS, obj, text } from '../values';
import type { CartInput } from '@act/contracts/src/cart';
import type { AdapterResult, SourceAdapter } from '../types';

/**
 * ClickFunnels Classic (1.0) funnel webhooks (Funnel → Settings → Webhooks), as far as their shape is documented:
 * no event field; a contact delivery carries the contact at the top level or under `contact`, a purchase delivery
 * its purchase under `purchase` (amount as `{ cents, currency_iso }` or a number, the buyer under
 * `purchase.contact`), with a numeric `funnel_id`. Supported: contact (opt-in) and purchase deliveries; others are
 * ignored. A purchase that did not go through (`failed`, `pending`, `unpaid`: a declined card) is the buyer left
 * with a cart: a contact whose cart is the purchase's products (each `name` and `amount`, one of each, `bump` an
 * order bump) and its `amount` as the total. Classic does not sign its deliveries: an integration that receives them relies on its unguessable URL,
 * and a signing secret on it would refuse them (docs/webhooks.md).
 */

function purchaseAmount(p: Record<string, unknown>): { amount: number | null; currency: string | null } {
  const a = obj(p.amount);
  if (a) {
    const cents = amount(a.cents);
    return { amount: cents === null ? null : cents / 100, currency: currency(a.currency_iso ?? a.currency) };
  }
  // Some Classic payloads carry the price per product only.
  const products = Array.isArray(p.products) ? p.products : [];
  const fromProducts = products.reduce<number | null>((sum, prod) => {
    const pa = obj(prod);
    const cents = amount(obj(pa?.amount)?.cents);
    return cents === null ? sum : (sum ?? 0) + cents / 100;
  }, null);
  const productCurrency = products.length ? currency(obj(obj(products[0])?.amount)?.currency_iso) : null;
  return {
    amount: first(amount(p.amount), amount(p.total), fromProducts),
    currency: first(currency(p.currency), productCurrency),
  };
}

/** Statuses of a purchase that did not go through: its buyer still has the cart. */
const UNPAID_STATUSES = ['failed', 'pending', 'unpaid', 'incomplete'];

/** A Classic purchase's products as the cart (amounts in cents, so minor units as given). */
function purchaseCart(p: Record<string, unknown>): CartInput {
  const total = obj(p.amount) ?? obj(p.original_amount);
  const products = Array.isArray(p.products) ? p.products : [];
  const productCurrency = products.length ? obj(obj(products[0])?.amount)?.currency_iso : null;
  return {
    currency: total?.currency_iso ?? productCurrency ?? p.original_amount_currency,
    items: products.map((prod) => {
      const pr = obj(prod) ?? {};
      const cents = obj(pr.amount)?.cents;
      return { name: pr.name, quantity: pr.quantity ?? 1, unitPrice: { minor: cents }, lineTotal: { minor: cents }, sku: pr.sku };
    }),
    total: { minor: total?.cents ?? p.original_amount_cents },
    updatedAt: p.updated_at ?? p.created_at,
  };
}

function parse(body: unknown): AdapterResult {
  const b = obj(body);
  const purchase = obj(b?.purchase);
  const eventName = purchase ? 'purchase' : 'contact';
  const deliveryId = null;
  const fail = (error: string): AdapterResult => ({ ok: false, error, eventName, deliveryId });
  if (!b) return fail('Request body must be a JSON object');
  const funnelId = text(b.funnel_id) ?? text(purchase?.funnel_id);

  if (purchase) {
    const buyer = obj(purchase.contact) ?? obj(b.contact) ?? {};
    const status = text(purchase.status);
    if (status && UNPAID_STATUSES.includes(status.toLowerCase())) {
      const contactId = first(text(purchase.contact_id), text(buyer.id), text(purchase.member_id));
      const em = email(buyer.email) ?? email(purchase.email);
      const phone = text(buyer.phone, LIMITS.phone);
      if (!contactId) return fail('purchase.contact.id is required for an unpaid purchase');
      if (!em && !phone) return fail('purchase.contact.email or phone is required');
      return {
        ok: true,
        eventName,
        deliveryId,
        fact: {
          kind: 'contact',
          op: 'created',
          contactId,
          email: em,
          phone,
          firstName: text(buyer.first_name, LIMITS.name) ?? text(buyer.name, LIMITS.name),
          checkoutUrl: null,
          funnelId,
          cart: purchaseCart(purchase),
        },
      };
    }
    if (status && !['paid', 'completed', 'success'].includes(status.toLowerCase()))
      return {
        ok: true,
        eventName,
        deliveryId,
        fact: { kind: 'ignored', reason: `Purchase status ${status.slice(0, 40)} is not paid` },
      };
    const contactId = first(text(purchase.contact_id), text(buyer.id), text(purchase.member_id));
    const em = email(buyer.email) ?? email(purchase.email);
    const phone = text(buyer.phone, LIMITS.phone);
    if (!contactId && !em && !phone) return fail('purchase.contact is required');
    return {
      ok: true,
      eventName,
      deliveryId,
      fact: { kind: 'purchase', contactId, email: em, phone, ...purchaseAmount(purchase), funnelId },
    };
  }

  const c = obj(b.contact) ?? b;
  const contactId = text(c.id) ?? text(c.contact_id);
  if (!contactId) return fail('contact id is required (id or contact.id)');
  const em = email(c.email);
  const phone = text(c.phone, LIMITS.phone);
  if (!em && !phone) return fail('email or phone is required');
  return {
    ok: true,
    eventName,
    deliveryId,
    fact: {
      kind: 'contact',
      op: 'created',
      contactId,
      email: em,
      phone,
      firstName: text(c.first_name, LIMITS.name) ?? text(c.name, LIMITS.name),
      checkoutUrl: null,
      funnelId,
      // Classic's opt-in hook says who, not what: no cart.
      cart: null,
    },
  };
}

export const clickfunnelsClassic: SourceAdapter = {
  id: 'clickfunnels_classic',
  parse: (body) => parse(body),
  deliveryId: () => null,
  // Classic has no signature scheme; with a secret set, nothing unsigned passes (see above).
  verify: () => ({ ok: false, reason: 'missing', message: 'ClickFunnels Classic does not sign its deliveries' }),
  sign: () => ({}),
  sample: ({ email: em, phone, firstName, funnelId, nonce }) => ({
    body: {
      id: 700_000 + (parseInt(nonce.slice(0, 5), 16) % 99_999),
      email: em,
      phone,
      first_name: firstName,
      last_name: 'Sample',
      funnel_id: funnelId === null ? null : Number.isFinite(Number(funnelId)) ? Number(funnelId) : funnelId,
      funnel_step_id: 1,
      created_at: new Date().toISOString(),
    },
    headers: {},
  }),
};
