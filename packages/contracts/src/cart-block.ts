/**
 * The email editor's Cart block as stored in a template's HTML: an empty-looking `<div data-cart-block data-items="N">`
 * with a line of text saying what it becomes. The rich editor writes it (a node like an image: inserted, moved,
 * deleted whole); svc-email's sanitiser keeps it and its composer replaces it, at send time, with the contact's cart
 * as email-safe markup. Self-contained: the browser bundle imports it too.
 */

export const CART_BLOCK_DEFAULT_ITEMS = 3;
export const CART_BLOCK_MAX_ITEMS = 10;

/** What the stored block says in a client that never renders it (the HTML view, an old preview). */
export function cartBlockLabel(items: number): string {
  return `Cart: up to ${items} ${items === 1 ? 'item' : 'items'}, the total and a button back to the checkout`;
}

export function clampCartBlockItems(v: unknown): number {
  const n = typeof v === 'number' ? v : Number.parseInt(String(v ?? ''), 10);
  return Number.isInteger(n) ? Math.min(CART_BLOCK_MAX_ITEMS, Math.max(1, n)) : CART_BLOCK_DEFAULT_ITEMS;
}

/** The stored form of a block showing at most `items` lines. */
export function cartBlockHtml(items: number): string {
  const n = clampCartBlockItems(items);
  return `<div data-cart-block="" data-items="${n}">${cartBlockLabel(n)}</div>`;
}

// The block's own div holds text only, so the first closing div after it is its own.
const BLOCK = /<div\b[^>]*\bdata-cart-block\b[^>]*>[^<]*<\/div>/gi;
const ITEMS = /\bdata-items\s*=\s*"(\d{1,3})"/i;

export interface CartBlockAt {
  /** Start and end offsets in the HTML. */
  start: number;
  end: number;
  items: number;
}

/** The Cart blocks of a template's HTML, in order. */
export function findCartBlocks(html: string): CartBlockAt[] {
  const out: CartBlockAt[] = [];
  for (const m of html.matchAll(BLOCK)) {
    out.push({ start: m.index!, end: m.index! + m[0].length, items: clampCartBlockItems(ITEMS.exec(m[0])?.[1]) });
  }
  return out;
}

export function usesCartBlock(html: string): boolean {
  return findCartBlocks(html).length > 0;
}
