/**
 * The cart a sender told us about, in one shape whatever the sender (Shopify, ClickFunnels, Stripe, WooCommerce, the
 * spec's formats), kept on the contact on both sides. Money is integer minor units with its currency (no floating
 * point anywhere: amounts given in major units are read from their decimal text); the number of fraction digits is
 * the currency's own (`Intl.NumberFormat`: JPY 0, USD 2, KWD 3). Self-contained but for kept-once.ts: the browser bundle
 * imports it too.
 */
import { keptOnce } from './kept-once';

/** One line of a cart. Prices in minor units of the cart's currency; null where the sender gave none. */
export interface CartItem {
  name: string;
  /** The variant's own title (`Grey / M`); null when the product has none. */
  variant: string | null;
  /** Whole units, at least 1. */
  quantity: number;
  unit_price: number | null;
  line_total: number | null;
  /** http(s) only. */
  product_url: string | null;
  /** http(s) only. */
  image_url: string | null;
  sku: string | null;
}

export interface Cart {
  /** At most `CART_LIMITS.items`, in the sender's order. */
  items: CartItem[];
  /** Lines the sender gave beyond the ones kept. */
  more_items: number;
  subtotal: number | null;
  /** Discounts given, as a positive amount off. */
  discounts: number | null;
  total: number | null;
  /** ISO 4217, upper case; null only for a cart whose sender named no currency (then it has no amounts). */
  currency: string | null;
  /** Where the shopper finishes this checkout (the sender's recovery / checkout / payment URL), http(s) only. */
  recovery_url: string | null;
  /** When the recovery URL stops working, where the sender says (Stripe's `after_expiration.recovery.expires_at`). */
  recovery_expires_at: string | null;
  /**
   * When the cart last changed, ISO 8601 UTC (`toISOString`, so the text sorts as time): the sender's timestamp,
   * else the time it was received (`updated_at_source`). A later delivery replaces the cart only when newer.
   */
  updated_at: string;
  updated_at_source: 'sender' | 'received';
}

export const CART_LIMITS = {
  items: 100,
  name: 200,
  variant: 200,
  sku: 100,
  url: 2048,
  /** Quantities above this are a sender's mistake, not a cart. */
  quantity: 100_000,
  /** Largest absolute amount in minor units (well inside Number.MAX_SAFE_INTEGER). */
  amount: 1e15,
} as const;

/** An amount as a sender gives it: already in minor units (Stripe), or in major units as decimal text (Shopify). */
export type MoneyInput = { minor: unknown } | { major: unknown } | null | undefined;

/** One line as an adapter reads it, before the limits. */
export interface CartItemInput {
  name?: unknown;
  variant?: unknown;
  quantity?: unknown;
  unitPrice?: MoneyInput;
  lineTotal?: MoneyInput;
  productUrl?: unknown;
  imageUrl?: unknown;
  sku?: unknown;
}

/** A cart as an adapter reads it from its sender's fields, before the limits. */
export interface CartInput {
  currency?: unknown;
  items?: readonly CartItemInput[] | null;
  subtotal?: MoneyInput;
  discounts?: MoneyInput;
  total?: MoneyInput;
  recoveryUrl?: unknown;
  recoveryExpiresAt?: unknown;
  /** The sender's own "last changed" time: ISO text, or seconds since the epoch (Stripe). */
  updatedAt?: unknown;
}

/** The kept cart and what was dropped from it, one sentence each (shown on the delivery). */
export interface NormalizedCart {
  cart: Cart | null;
  notes: string[];
}

const MAX_NOTES = 10;
const CURRENCY = /^[A-Z]{3}$/;
const DECIMAL = /^(-?)(\d{1,18})(?:\.(\d{1,20}))?$/;

/**
 * Each code's digits, read once: building an Intl.NumberFormat costs about as much as the rest of a cart's
 * normalization, and intake asks for every cart. At most 26^3 keys, since only three capitals reach Intl.
 */
const digitsOf = keptOnce(26 ** 3, (code): number | null => {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return null;
  }
});

/** Fraction digits of a currency (ISO 4217 through Intl); null for text that is not a currency code. */
export function currencyDigits(code: string): number | null {
  return CURRENCY.test(code) ? digitsOf(code) : null;
}

/**
 * Major units as decimal text (`"72.32"`, `"97.0"`, or a JSON number, read through its shortest text) to integer
 * minor units, rounded half away from zero when the sender gives more digits than the currency has. BigInt, never
 * floating point. Null when the value is not a plain decimal.
 */
export function majorToMinor(value: unknown, digits: number): number | null {
  let textValue: string;
  if (typeof value === 'string') textValue = value.trim();
  else if (typeof value === 'number' && Number.isFinite(value)) textValue = String(value);
  else return null;
  const m = DECIMAL.exec(textValue);
  if (!m) return null;
  const [, sign, whole, frac = ''] = m;
  const padded = frac.padEnd(digits, '0');
  let minor = BigInt(whole + padded.slice(0, digits));
  if (padded.length > digits && Number(padded[digits]) >= 5) minor += 1n;
  const n = Number(sign ? -minor : minor);
  return Math.abs(n) <= CART_LIMITS.amount ? n : null;
}

/** Minor units back to the currency's decimal text (`7232`, USD → `"72.32"`), for display and for senders' APIs. */
export function minorToDecimal(minor: number, currencyCode: string): string {
  const digits = currencyDigits(currencyCode) ?? 2;
  const neg = minor < 0;
  const s = String(Math.abs(Math.trunc(minor))).padStart(digits + 1, '0');
  const out = digits === 0 ? s : `${s.slice(0, s.length - digits)}.${s.slice(s.length - digits)}`;
  return neg ? `-${out}` : out;
}

/**
 * Formatters by locale and currency (`en|USD`): building one costs far more than formatting with it, and every message
 * with a cart formats its total and each item's price.
 */
const moneyFormat = keptOnce(500, (key) => {
  const [locale, currency] = key.split('|');
  return new Intl.NumberFormat(locale, { style: 'currency', currency });
});

/** An amount as a shopper reads it (`CA$72.32`, `¥1,200`): Intl formats the exact decimal text. */
export function formatMoney(minor: number, currencyCode: string, locale = 'en'): string {
  const nf = moneyFormat(`${locale}|${currencyCode}`);
  // Intl.NumberFormat.format takes a decimal string exactly (ES2023); the cast covers older lib typings.
  return nf.format(minorToDecimal(minor, currencyCode) as unknown as number);
}

function money(v: MoneyInput, digits: number | null): number | null | 'bad' {
  if (v === null || v === undefined) return null;
  if ('minor' in v) {
    if (v.minor === null || v.minor === undefined) return null;
    const n = typeof v.minor === 'string' && /^-?\d{1,16}$/.test(v.minor.trim()) ? Number(v.minor) : v.minor;
    return typeof n === 'number' && Number.isSafeInteger(n) && Math.abs(n) <= CART_LIMITS.amount ? n : 'bad';
  }
  if (v.major === null || v.major === undefined || v.major === '') return null;
  if (digits === null) return 'bad';
  return majorToMinor(v.major, digits) ?? 'bad';
}

function httpUrl(v: unknown): string | null | 'bad' {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v !== 'string' || v.length > CART_LIMITS.url) return 'bad';
  try {
    const u = new URL(v.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : 'bad';
  } catch {
    return 'bad';
  }
}

function capped(v: unknown, max: number): { value: string | null; cut: boolean } {
  let s: string | null = null;
  if (typeof v === 'string') s = v.trim();
  else if (typeof v === 'number' && Number.isFinite(v)) s = String(v);
  if (!s) return { value: null, cut: false };
  if (s.length <= max) return { value: s, cut: false };
  // Cut at a code point, never inside a surrogate pair.
  const cut = s.slice(0, max);
  return { value: /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut, cut: true };
}

/** A sender's timestamp (ISO text, or seconds / milliseconds since the epoch) as `toISOString` text. */
export function senderTime(v: unknown): string | null {
  let ms: number | null = null;
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) ms = v > 1e11 ? v : v * 1000;
  else if (typeof v === 'string' && /^\d{9,13}$/.test(v.trim())) return senderTime(Number(v.trim()));
  else if (typeof v === 'string' && v.length <= 64 && /^\d{4}-\d{2}-\d{2}/.test(v.trim())) ms = Date.parse(v.trim());
  if (ms === null || !Number.isFinite(ms)) return null;
  const d = new Date(ms);
  return d.getUTCFullYear() >= 2000 && d.getUTCFullYear() <= 9999 ? d.toISOString() : null;
}

/**
 * Applies the limits to what an adapter read: at most 100 items, text capped, URLs http(s) only, amounts integer
 * minor units of a known currency. Whatever does not fit is dropped and said in a note; the rest is kept. Null cart
 * when nothing of a cart remains (no item, no amount, no link).
 */
export function normalizeCart(input: CartInput | null | undefined, receivedAt: Date): NormalizedCart {
  const notes: string[] = [];
  if (!input) return { cart: null, notes };
  let currency: string | null = null;
  if (input.currency !== null && input.currency !== undefined && input.currency !== '') {
    const c = typeof input.currency === 'string' ? input.currency.trim().toUpperCase() : '';
    if (currencyDigits(c) !== null) currency = c;
    else notes.push('Cart: the currency is not an ISO 4217 code; amounts dropped');
  }
  const digits = currency ? currencyDigits(currency) : null;
  const amount = (v: MoneyInput, what: string): number | null => {
    const m = money(v, digits);
    if (m === null || (m !== 'bad' && currency)) return m;
    notes.push(m === 'bad' ? `Cart: ${what} is not an amount; dropped` : `Cart: ${what} has no currency; dropped`);
    return null;
  };

  const given = Array.isArray(input.items) ? input.items : [];
  const beyond = Math.max(0, given.length - CART_LIMITS.items);
  if (beyond > 0) notes.push(`Cart: ${beyond} items beyond the first ${CART_LIMITS.items} dropped`);
  const items: CartItem[] = [];
  for (const [i, raw] of given.slice(0, CART_LIMITS.items).entries()) {
    const n = i + 1;
    const name = capped(raw?.name, CART_LIMITS.name);
    if (!name.value) {
      notes.push(`Cart: item ${n} has no name; dropped`);
      continue;
    }
    const q = raw.quantity === undefined || raw.quantity === null ? 1 : Number(raw.quantity);
    if (!Number.isInteger(q) || q < 1 || q > CART_LIMITS.quantity) {
      notes.push(`Cart: item ${n} has no valid quantity; dropped`);
      continue;
    }
    const variant = capped(raw.variant, CART_LIMITS.variant);
    const sku = capped(raw.sku, CART_LIMITS.sku);
    if (name.cut || variant.cut || sku.cut) notes.push(`Cart: item ${n}'s text was cut to its limit`);
    const url = (v: unknown, what: string) => {
      const u = httpUrl(v);
      if (u !== 'bad') return u;
      notes.push(`Cart: item ${n}'s ${what} is not an http(s) URL; dropped`);
      return null;
    };
    const unit = amount(raw.unitPrice, `item ${n}'s unit price`);
    let line = amount(raw.lineTotal, `item ${n}'s line total`);
    if (line === null && unit !== null && Number.isSafeInteger(unit * q)) line = unit * q;
    items.push({
      name: name.value,
      variant: variant.value,
      quantity: q,
      unit_price: unit,
      line_total: line,
      product_url: url(raw.productUrl, 'product URL'),
      image_url: url(raw.imageUrl, 'image URL'),
      sku: sku.value,
    });
  }

  const recovery = httpUrl(input.recoveryUrl);
  if (recovery === 'bad') notes.push('Cart: the recovery URL is not an http(s) URL; dropped');
  const subtotal = amount(input.subtotal, 'the subtotal');
  const discounts = amount(input.discounts, 'the discount');
  const total = amount(input.total, 'the total');
  const sent = senderTime(input.updatedAt);
  const cart: Cart = {
    items,
    more_items: beyond,
    subtotal,
    discounts: discounts === null ? null : Math.abs(discounts),
    total,
    currency,
    recovery_url: recovery === 'bad' ? null : recovery,
    recovery_expires_at: senderTime(input.recoveryExpiresAt),
    updated_at: sent ?? receivedAt.toISOString(),
    updated_at_source: sent ? 'sender' : 'received',
  };
  // A hostile cart of 100 bad lines must not make a note longer than the delivery it describes.
  if (notes.length > MAX_NOTES) notes.splice(MAX_NOTES, notes.length, `Cart: ${notes.length - MAX_NOTES} more notes`);
  const empty = !items.length && !beyond && subtotal === null && total === null && discounts === null && !cart.recovery_url;
  return { cart: empty ? null : cart, notes };
}

/** Units in the cart (a line of 2 counts 2), for templates' item count. */
/**
 * When the cart was last changed (its `updated_at`), null without a cart or a readable time: what a flow keeps of the
 * cart its last message showed, to tell a change the shopper has not seen.
 */
export function cartChangedAt(cart: Pick<Cart, 'updated_at'> | null | undefined): Date | null {
  const at = cart?.updated_at ? new Date(cart.updated_at) : null;
  return at && !Number.isNaN(at.getTime()) ? at : null;
}

export function cartItemCount(cart: Cart): number {
  return cart.items.reduce((n, it) => n + it.quantity, 0);
}

/** The contact's own checkout link (its cart's) while it still works at `now`; null when it has none or it expired. */
export function workingRecoveryUrl(c: { cart?: Pick<Cart, 'recovery_url' | 'recovery_expires_at'> | null }, now: Date): string | null {
  const own = c.cart?.recovery_url;
  return own && !recoveryExpired(c, now) ? own : null;
}

/** The sender's recovery link has expired (Stripe's `recovery_expires_at`) by `now`. */
export function recoveryExpired(c: { cart?: Pick<Cart, 'recovery_expires_at'> | null }, now: Date): boolean {
  const at = c.cart?.recovery_expires_at;
  return !!at && Date.parse(at) <= now.getTime();
}
