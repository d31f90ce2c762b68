import sanitizeHtml from 'sanitize-html';

// Inline CSS values an email can carry: lengths, colours, keywords. No url(), expression() or quotes, so a
// style attribute cannot load anything or break out of itself.
const LENGTH = /^-?\d+(\.\d+)?(px|em|rem|%|pt)?$/;
const LENGTHS = /^(-?\d+(\.\d+)?(px|em|rem|%|pt)?)(\s+-?\d+(\.\d+)?(px|em|rem|%|pt)?){0,3}$/;
const COLOR =
  /^(#[0-9a-fA-F]{3,8}|rgba?\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*(,\s*(0|1|0?\.\d+)\s*)?\)|[a-zA-Z]{3,20})$/;
const KEYWORD = /^[a-zA-Z-]{1,30}$/;
const BORDER =
  /^(\d+(\.\d+)?(px|em)?\s+)?(solid|dashed|dotted|none)(\s+(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}))?$|^none$|^0$/;
const FONT_FAMILY = /^[a-zA-Z0-9 ,'-]{1,100}$/;

const STYLES: Record<string, RegExp[]> = {
  // The editor's indent levels 1 to 8 are written as a left margin or padding (or text-indent).
  'margin-left': [LENGTH],
  'padding-left': [LENGTH],
  'text-indent': [LENGTH],
  'text-align': [/^(left|right|center|justify)$/],
  color: [COLOR],
  'background-color': [COLOR],
  'font-size': [LENGTH],
  'font-weight': [/^(normal|bold|bolder|lighter|\d{3})$/],
  'font-style': [/^(normal|italic|oblique)$/],
  'font-family': [FONT_FAMILY],
  'text-decoration': [/^(none|underline|line-through|overline)$/],
  'line-height': [LENGTH],
  display: [/^(inline|block|inline-block|none|table|table-cell)$/],
  padding: [LENGTHS],
  margin: [LENGTHS],
  'margin-top': [LENGTH],
  'margin-bottom': [LENGTH],
  'margin-right': [LENGTH],
  'padding-top': [LENGTH],
  'padding-bottom': [LENGTH],
  'padding-right': [LENGTH],
  'border-radius': [LENGTHS],
  border: [BORDER],
  width: [LENGTH, /^auto$/],
  'max-width': [LENGTH],
  height: [LENGTH, /^auto$/],
  'vertical-align': [KEYWORD],
};

/**
 * What a template's HTML may contain, on write and again before a send (spec section 5): the rich editor's
 * blocks (headings 1–6, lists, quotes, code, tables), links only to http, https, mailto and tel, images only
 * from http, https and data: URLs, inline styles limited to the properties above. Everything else (scripts,
 * event handlers, iframes, forms, javascript: URLs) is dropped. Placeholders such as href="{{recoveryUrl}}"
 * are relative URLs to the sanitiser and pass unchanged.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'center', 'font'],
  allowedAttributes: {
    '*': ['style', 'align', 'data-indent', 'dir'],
    a: ['href', 'title', 'target', 'rel', 'name'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    table: ['width', 'border', 'cellpadding', 'cellspacing', 'bgcolor'],
    td: ['colspan', 'rowspan', 'width', 'valign', 'bgcolor'],
    th: ['colspan', 'rowspan', 'width', 'valign', 'bgcolor'],
    ol: ['start', 'type'],
    font: ['color', 'size', 'face'],
    // The editor's Cart block (contracts/cart-block.ts), replaced by the contact's cart when the email is written.
    div: ['data-cart-block', 'data-items'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  allowedStyles: { '*': STYLES },
  // Links that open a new tab must not hand the opener to the target page.
  transformTags: {
    a: (tagName, attribs) =>
      attribs.target ? { tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } } : { tagName, attribs },
  },
};

export function sanitizeTemplateHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
