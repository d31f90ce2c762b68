import mjml2html from 'mjml';
import { formatMoney, type Cart, type CartItem } from '@act/contracts/src/cart';
import { findCartBlocks, type CartBlockAt } from '@act/contracts/src/cart-block';
import { escapeHtml } from '@act/contracts/src/message-variables';

/**
 * A template with Cart blocks as one email-safe document (MJML: tables, inline styles, Outlook conditionals, a
 * one-column layout under 480 px). The template's own HTML goes in as written, around each block; each block becomes
 * one row per item (image, name, variant, quantity, price), "and K more", the total and the recovery button.
 *
 * MJML takes milliseconds a document, so it compiles a layout once: the template with tokens where each contact's
 * values go, kept by (template, rows with or without an image, "more", total, button). A send fills the tokens;
 * the variables ({{firstName}}, ...) are filled afterwards by the composer, like in any template.
 */

const BUTTON_TEXT = 'Complete Your Purchase';
const ACCENT = '#1976d2';

interface BlockLayout {
  /** One entry per row shown: whether it has an image. */
  images: boolean[];
  more: boolean;
  total: boolean;
  button: boolean;
}

interface BlockValues {
  rows: CartItem[];
  more: number;
  cart: Cart | null;
}

function blockValues(block: CartBlockAt, cart: Cart | null): BlockValues {
  const items = cart?.items ?? [];
  const rows = items.slice(0, block.items);
  return { rows, more: items.length - rows.length + (cart?.more_items ?? 0), cart };
}

function layoutOf(v: BlockValues, recoveryUrl: string | null): BlockLayout {
  return {
    images: v.rows.map((r) => r.image_url !== null),
    more: v.more > 0,
    total: !!v.cart && v.cart.total !== null && v.cart.currency !== null,
    button: !!recoveryUrl,
  };
}

const token = (b: number, name: string) => `%%ACT-CART:${b}:${name}%%`;

function blockMjml(b: number, layout: BlockLayout): string {
  // Rows line up: a row without a picture keeps the picture's column empty when another row has one.
  const pictures = layout.images.some(Boolean);
  const rows = layout.images.map((hasImage, r) => {
    const text = `<mj-text padding="4px 12px">${token(b, `${r}:text`)}</mj-text>`;
    if (!pictures) return `<mj-section padding="6px 0"><mj-column>${text}</mj-column></mj-section>`;
    const picture = hasImage
      ? `<mj-image padding="4px 12px" width="96px" border-radius="4px" src="${token(b, `${r}:image`)}" alt="${token(b, `${r}:alt`)}" href="${token(b, `${r}:href`)}" />`
      : '<mj-spacer height="1px" />';
    return (
      `<mj-section padding="6px 0"><mj-group>` +
      `<mj-column width="28%" vertical-align="middle">${picture}</mj-column>` +
      `<mj-column width="72%" vertical-align="middle">${text}</mj-column>` +
      `</mj-group></mj-section>`
    );
  });
  const tail: string[] = [];
  if (layout.more) tail.push(`<mj-text padding="4px 12px" color="#555555">${token(b, 'more')}</mj-text>`);
  if (layout.total) tail.push(`<mj-divider border-width="1px" border-color="#dddddd" padding="8px 12px" /><mj-text padding="4px 12px" align="right" font-size="16px"><strong>${token(b, 'total')}</strong></mj-text>`);
  if (layout.button)
    tail.push(
      `<mj-button href="${token(b, 'button')}" background-color="${ACCENT}" color="#ffffff" font-size="16px" inner-padding="12px 24px" border-radius="4px" padding="12px">${BUTTON_TEXT}</mj-button>`,
    );
  const end = tail.length ? `<mj-section padding="0"><mj-column>${tail.join('')}</mj-column></mj-section>` : '';
  return `<mj-wrapper padding="8px 0" border="1px solid #e5e5e5" border-radius="6px">${rows.join('')}${end}</mj-wrapper>`;
}

function documentMjml(html: string, blocks: CartBlockAt[], layouts: BlockLayout[]): string {
  const parts: string[] = [];
  const text = (chunk: string) => {
    if (chunk.trim()) parts.push(`<mj-section padding="0"><mj-column><mj-text>${chunk}</mj-text></mj-column></mj-section>`);
  };
  let at = 0;
  blocks.forEach((block, b) => {
    text(html.slice(at, block.start));
    parts.push(blockMjml(b, layouts[b]!));
    at = block.end;
  });
  text(html.slice(at));
  return (
    '<mjml><mj-head><mj-attributes>' +
    '<mj-all font-family="Helvetica, Arial, sans-serif" />' +
    '<mj-text font-size="15px" line-height="1.5" color="#222222" padding="0 16px" />' +
    '</mj-attributes></mj-head>' +
    `<mj-body width="600px" background-color="#ffffff">${parts.join('')}</mj-body></mjml>`
  );
}

/** Compiled layouts by template and layout; bounded, the oldest dropped first. */
const compiled = new Map<string, Promise<string>>();
const COMPILED_KEPT = 200;

function compile(mjml: string): Promise<string> {
  let done = compiled.get(mjml);
  if (!done) {
    done = mjml2html(mjml, { validationLevel: 'soft', keepComments: false }).then((r) => r.html);
    // A failed compile is not kept: the next send tries again.
    done.catch(() => compiled.delete(mjml));
    if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
    compiled.set(mjml, done);
  }
  return done;
}

function money(minor: number | null, cart: Cart | null): string {
  return minor !== null && cart?.currency ? formatMoney(minor, cart.currency) : '';
}

/** The HTML each token stands for: every value from the cart escaped here, the markup around it ours. */
function tokenValues(b: number, v: BlockValues, recoveryUrl: string | null): Map<string, string> {
  const out = new Map<string, string>();
  v.rows.forEach((item, r) => {
    const price = money(item.line_total ?? (item.unit_price !== null ? item.unit_price * item.quantity : null), v.cart);
    const lines = [
      `<strong>${escapeHtml(item.name)}</strong>`,
      item.variant ? `<span style="color:#555555">${escapeHtml(item.variant)}</span>` : '',
      `<span style="color:#555555">Qty ${item.quantity}</span>${price ? ` &middot; ${escapeHtml(price)}` : ''}`,
    ].filter(Boolean);
    out.set(token(b, `${r}:text`), lines.join('<br>'));
    out.set(token(b, `${r}:image`), escapeHtml(item.image_url ?? ''));
    out.set(token(b, `${r}:alt`), escapeHtml(item.name));
    out.set(token(b, `${r}:href`), escapeHtml(item.product_url ?? recoveryUrl ?? ''));
  });
  out.set(token(b, 'more'), `and ${v.more} more`);
  out.set(token(b, 'total'), `Total: ${escapeHtml(money(v.cart?.total ?? null, v.cart))}`);
  out.set(token(b, 'button'), escapeHtml(recoveryUrl ?? ''));
  return out;
}

const TOKEN = /%%ACT-CART:\d+:[a-z0-9:]+%%/g;

/**
 * The template's HTML (sanitised, variables not yet filled) with its Cart blocks rendered for this cart, as one MJML
 * document; the HTML as it is when it has no block. `recoveryUrl` is the link the button opens (the code applied).
 */
export async function renderCartBlocks(html: string, cart: Cart | null, recoveryUrl: string | null): Promise<string> {
  const blocks = findCartBlocks(html);
  if (blocks.length === 0) return html;
  const values = blocks.map((block) => blockValues(block, cart));
  const layouts = values.map((v) => layoutOf(v, recoveryUrl));
  const doc = await compile(documentMjml(html, blocks, layouts));
  const filled = new Map<string, string>();
  values.forEach((v, b) => tokenValues(b, v, recoveryUrl).forEach((value, key) => filled.set(key, value)));
  return doc.replace(TOKEN, (t) => filled.get(t) ?? '');
}
