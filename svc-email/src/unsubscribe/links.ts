import { signUnsubscribeToken } from './token';

export interface UnsubscribeLinkSettings {
  publicUrl: string;
  secret: string;
  /** UNSUBSCRIBE_MAILTO: an inbox that processes unsubscribe requests; none → https link only. */
  mailto: string | null;
}

/**
 * PUBLIC_URL without its trailing slashes. The lookbehind starts the match only at the run's first slash; without
 * it the engine retried from every slash of a run followed by anything else (quadratic, docs/security.md).
 */
export const withoutTrailingSlashes = (url: string) => url.replace(/(?<!\/)\/+$/, '');

export function oneClickUrl(email: string, s: UnsubscribeLinkSettings): string {
  return `${withoutTrailingSlashes(s.publicUrl)}/api/unsubscribe/one-click?token=${encodeURIComponent(signUnsubscribeToken(email, s.secret))}`;
}

/**
 * RFC 2369 List-Unsubscribe with the RFC 8058 one-click marker: mail clients show an unsubscribe button that
 * POSTs `List-Unsubscribe=One-Click` to the https link (no session, token-verified).
 */
export function listUnsubscribeHeaders(email: string, s: UnsubscribeLinkSettings): Record<string, string> {
  const links = [`<${oneClickUrl(email, s)}>`];
  if (s.mailto) links.push(`<mailto:${s.mailto}?subject=unsubscribe>`);
  return { 'List-Unsubscribe': links.join(', '), 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
