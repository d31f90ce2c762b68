/**
 * The variables a reminder can show, on both channels, and the one renderer that fills them: a pure function of
 * (template text, what is known of the contact, the cart, the values a step adds). Email (svc-email's composer, the
 * rich editor's preview) and SMS (svc-sms's sequence, the SMS editor) all fill through `fillVariables`, so a preview
 * is the message as sent. Self-contained (cart.ts, placeholders.ts): the browser bundles import it too.
 *
 * A template names a variable in any spelling of placeholders.ts (`{{firstName}}`, `{first_name}`) and may write its
 * own fallback: `{{firstName | "there"}}`.
 */
import { cartItemCount, formatMoney, type Cart } from './cart';
import { replacePlaceholders } from './placeholders';

/** What a step knows when it writes one message. Every field may be missing: a preview with sample data, a test send. */
export interface MessageInput {
  contactEmail?: string | null;
  firstName?: string | null;
  cart?: Cart | null;
  /** The shopper's code for this step (fixed, from a pool, created in the shop); none when the step gives none. */
  discountCode?: string | null;
  /** The link that finishes this checkout, the code already applied where the shop takes one in the link. */
  recoveryUrl?: string | null;
  unsubscribeUrl?: string | null;
}

/** Canonical (snake_case) names of the variables, as placeholders.ts compares them. */
export const MESSAGE_VARIABLE_NAMES = [
  'first_name',
  'contact_email',
  'cart_total',
  'item_count',
  'first_item_name',
  'discount_code',
  'recovery_url',
  'unsubscribe_url',
] as const;
export type MessageVariable = (typeof MESSAGE_VARIABLE_NAMES)[number];
export type MessageValues = Partial<Record<MessageVariable, string | null | undefined>>;

/**
 * What a variable without a value becomes when the template writes no fallback of its own. `keep`: it stays as
 * written (a link or address the step refuses to send without, so a test send shows the gap); text: that text.
 */
const WHEN_MISSING: Record<MessageVariable, string | 'keep'> = {
  first_name: 'there',
  contact_email: 'keep',
  cart_total: '',
  item_count: '',
  first_item_name: '',
  discount_code: '',
  recovery_url: 'keep',
  unsubscribe_url: 'keep',
};

/** Other names people write for the same variable, by canonical name. */
const ALIASES: Record<string, MessageVariable> = { checkout_url: 'recovery_url' };

/** The variable a placeholder names, by its canonical name; undefined for a name that is none of ours. */
export function messageVariableOf(canonical: string): MessageVariable | undefined {
  const name = ALIASES[canonical] ?? canonical;
  return (MESSAGE_VARIABLE_NAMES as readonly string[]).includes(name) ? (name as MessageVariable) : undefined;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}
const HTML_UNESCAPES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };
function unescapeHtml(s: string): string {
  return s.replace(/&(?:amp|lt|gt|quot|#39|nbsp);/g, (e) => HTML_UNESCAPES[e]!);
}

/** The values a message shows, each as the shopper reads it: the total in the currency's own digits (`¥1,200`). */
export function messageValues(input: MessageInput): Record<MessageVariable, string | null> {
  const cart = input.cart ?? null;
  const units = cart ? cartItemCount(cart) + cart.more_items : 0;
  return {
    first_name: input.firstName?.trim() || null,
    contact_email: input.contactEmail || null,
    cart_total: cart && cart.total !== null && cart.currency ? formatMoney(cart.total, cart.currency) : null,
    item_count: units > 0 ? String(units) : null,
    first_item_name: cart?.items[0]?.name ?? null,
    discount_code: input.discountCode || null,
    recovery_url: input.recoveryUrl || null,
    unsubscribe_url: input.unsubscribeUrl || null,
  };
}

export interface FillOptions {
  /** HTML content: every filled value, and a fallback written in the template, is HTML-escaped. Default true. */
  escape?: boolean;
  /** A link or address without a value stays as written (true) or becomes empty (false). Default true. */
  keepMissing?: boolean;
}

/**
 * Fills every known variable, in any spelling; unknown placeholders stay as written. A value given is used as given
 * (escaped for HTML); a missing or empty one takes the template's own fallback, else the variable's default.
 */
export function fillVariables(text: string, values: MessageValues, { escape = true, keepMissing = true }: FillOptions = {}): string {
  return replacePlaceholders(text, (canonical, fallback) => {
    const name = messageVariableOf(canonical);
    if (!name) return undefined;
    const given = values[name];
    if (given !== undefined && given !== null && given !== '') return escape ? escapeHtml(given) : given;
    // The fallback is template text: HTML text in HTML content, so read back to characters and escaped again.
    if (fallback !== undefined) return escape ? escapeHtml(unescapeHtml(fallback)) : fallback;
    const missing = WHEN_MISSING[name];
    if (missing === 'keep') return keepMissing ? undefined : '';
    return missing;
  });
}

/** One message's text: the renderer both channels send with and both editors preview with. */
export function renderMessage(text: string, input: MessageInput, options?: FillOptions): string {
  return fillVariables(text, messageValues(input), options);
}

/** A small cart for previews with sample data and for an editor's typical message. */
export const SAMPLE_CART: Cart = {
  items: [
    {
      name: 'Classic Cotton Crew Neck T-Shirt',
      variant: 'Grey / M',
      quantity: 2,
      unit_price: 2500,
      line_total: 5000,
      product_url: 'https://shop.example.com/products/classic-tee',
      image_url: null,
      sku: 'TEE-GRY-M',
    },
    {
      name: 'Canvas Weekender Bag',
      variant: null,
      quantity: 1,
      unit_price: 7999,
      line_total: 7999,
      product_url: 'https://shop.example.com/products/weekender',
      image_url: null,
      sku: 'BAG-WKD',
    },
  ],
  more_items: 0,
  subtotal: 12999,
  discounts: null,
  total: 12999,
  currency: 'USD',
  recovery_url: 'https://shop.example.com/checkouts/c/0123456789abcdef0123456',
  recovery_expires_at: null,
  updated_at: '2026-01-01T00:00:00.000Z',
  updated_at_source: 'sender',
};

/** Sample data for a preview without a contact. */
export const SAMPLE_MESSAGE_INPUT: MessageInput = {
  contactEmail: 'jane@example.com',
  firstName: 'Jane',
  cart: SAMPLE_CART,
  discountCode: 'SAVE10',
  recoveryUrl: 'https://example.com/checkout',
};

/**
 * A typical filled-in message, for the length and segments an SMS editor shows: a longish first name, a 60-character
 * checkout link, a two-line cart, a 13-character unique code.
 */
export const TYPICAL_MESSAGE_INPUT: MessageInput = {
  contactEmail: 'alexandra@example.com',
  firstName: 'Alexandra',
  cart: SAMPLE_CART,
  discountCode: 'SAVE10-7KQ2ZX',
  recoveryUrl: SAMPLE_CART.recovery_url,
};
