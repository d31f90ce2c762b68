import { EMAIL_PATTERN } from '@act/contracts/src/email-address';
import { LINK_VARIABLE_PATTERN } from '@act/contracts/src/email-api';
/**
 * URL rules of the template editor (spec §5 "Rich-text content"), kept free of tiptap so the browser
 * tests' jsdom runs and the save path can use them without loading the editor.
 *
 * - Links: http, https, mailto and tel only. (§5 also lists data among the editor's URL schemes; we
 *   take that for images: a data: link in an email is a phishing pattern and mail clients block it.)
 * - Images: http, https, and data:image/… (images chosen by file are embedded inline as data URLs).
 * - Anything without a scheme (relative paths) is refused: an email has no "current site"; the one
 *   exception is the {{recoveryUrl}} variable, filled with an https link at send time.
 */

export const LINK_SCHEMES = ['http', 'https', 'mailto', 'tel'] as const;
export const IMAGE_SCHEMES = ['http', 'https', 'data'] as const;

/**
 * What a browser does to a URL before reading its scheme: leading/trailing C0 controls and spaces are
 * stripped, tabs and newlines anywhere are removed (so "java\nscript:" is "javascript:"). The trailing run is
 * matched only from its first character (the lookbehind): retried inside a long run, it is quadratic.
 */
function normalise(url: string): string {
  // eslint-disable-next-line no-control-regex
  return url.replace(/^[\u0000-\u0020]+|(?<![\u0000-\u0020])[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
}

/** The lower-case scheme of an absolute URL, else null. */
export function schemeOf(url: string | null | undefined): string | null {
  if (typeof url !== 'string') return null;
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(normalise(url));
  return match ? match[1].toLowerCase() : null;
}

/**
 * A host name (letters, digits, hyphens, dots; IDNs arrive as punycode) or an IP literal, with an optional port.
 * Checked after parsing because Chromium's parser accepts "https://not a url" as host "not%20a%20url" where
 * Node's refuses it.
 */
const HOST = /^(?:[\w-]+\.)*[\w-]+\.?(?::\d+)?$|^\[[0-9a-f:.]+\](?::\d+)?$/i;

function hasHost(url: string): boolean {
  try {
    return HOST.test(new URL(normalise(url)).host);
  } catch {
    return false;
  }
}

/**
 * A link may also point at a link variable: {{recoveryUrl}} (spec §3: the default template's button does) or
 * {{unsubscribeUrl}}; the service puts the contact's https link there when it sends.
 */
const LINK_VARIABLE = LINK_VARIABLE_PATTERN;

export function isTemplateLinkVariable(url: string | null | undefined): boolean {
  return typeof url === 'string' && LINK_VARIABLE.test(normalise(url));
}

export function isAllowedLinkUrl(url: string | null | undefined): boolean {
  if (isTemplateLinkVariable(url)) return true;
  const scheme = schemeOf(url);
  if (!scheme || !(LINK_SCHEMES as readonly string[]).includes(scheme)) return false;
  if (scheme === 'http' || scheme === 'https') return hasHost(url!);
  // mailto:/tel: need something after the colon.
  return normalise(url!).length > scheme.length + 1;
}

/** data: images must say they are images (no data:text/html behind an <img>). */
const DATA_IMAGE = /^data:image\/[a-z0-9.+-]+(;[a-z0-9=.+-]+)*(;base64)?,/i;

export function isAllowedImageUrl(url: string | null | undefined): boolean {
  const scheme = schemeOf(url);
  if (scheme === 'http' || scheme === 'https') return hasHost(url!);
  if (scheme === 'data') return DATA_IMAGE.test(normalise(url!));
  return false;
}

/**
 * What the link form stores for what was typed: "example.com" becomes "https://example.com", an address
 * with an @ and no scheme becomes mailto:. A typed scheme is kept (and then judged by isAllowedLinkUrl).
 */
export function formatLinkHref(input: string): string {
  const value = normalise(input);
  if (!value) return value;
  if (schemeOf(value) || isTemplateLinkVariable(value)) return value;
  // The product's address pattern; a slash makes it a path ("user@host.com/page"), not an address.
  if (!value.includes('/') && EMAIL_PATTERN.test(value)) return `mailto:${value}`;
  return `https://${value.replace(/^\/+/, '')}`;
}

export const LINK_MESSAGES = {
  required: 'Enter a link',
  scheme: 'Links must start with http://, https://, mailto: or tel:',
  invalid: 'Enter a valid URL',
} as const;

/**
 * What is wrong with a link typed in the editor's link form, or null when formatLinkHref(input) may be saved.
 * A scheme outside LINK_SCHEMES (javascript:, data:, ftp:...) says which ones are allowed; anything else that
 * is not a URL (spaces, no host) asks for a valid one.
 */
export function linkHrefError(input: string): string | null {
  const href = formatLinkHref(input);
  if (!href) return LINK_MESSAGES.required;
  if (isAllowedLinkUrl(href)) return null;
  const scheme = schemeOf(href);
  if (scheme && !(LINK_SCHEMES as readonly string[]).includes(scheme)) return LINK_MESSAGES.scheme;
  return LINK_MESSAGES.invalid;
}

const ATTR_ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };

export function escapeAttribute(value: string): string {
  return value.replace(/[&"<>]/g, (c) => ATTR_ESCAPES[c]);
}

/**
 * The Insert Image dialog's rule (spec §2): the image is appended at the END of the HTML content, as an
 * `<img src>` after everything else, whatever the caret position.
 */
export function appendImage(html: string, src: string, alt = ''): string {
  return `${html}<img src="${escapeAttribute(src.trim())}" alt="${escapeAttribute(alt)}">`;
}

/**
 * True when the HTML shows nothing: no text and no image ("<p></p>" from an emptied editor). An unclosed script,
 * style or tag runs to the end, as a browser reads it; that also keeps both patterns linear (a pattern that had to
 * find its closing part retried from every "<" of a long run that had none).
 */
export function isBlankHtml(html: string | null | undefined): boolean {
  if (!html) return true;
  if (/<img\b/i.test(html)) return false;
  const text = html
    .replace(/<(script|style)\b[\s\S]*?(?:<\/\1>|$)/gi, '')
    .replace(/<[^>]*>?/g, '')
    .replace(/&nbsp;|&#160;/g, ' ');
  return text.trim() === '';
}
