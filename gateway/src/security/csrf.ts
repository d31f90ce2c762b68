import type { IncomingHttpHeaders } from 'node:http';
import { HttpError } from '@act/service-kit';

/** Methods that change nothing: a cross-site page may trigger them, and they are answered as usual. */
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `application/json`, `application/merge-patch+json`... with any parameters (`; charset=utf-8`). */
const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

class ForbiddenRequest extends HttpError {
  constructor(message: string) {
    super(403, message);
  }
}

class UnsupportedMediaType extends HttpError {
  constructor(message: string) {
    super(415, message);
  }
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function hasBody(headers: IncomingHttpHeaders): boolean {
  const length = first(headers['content-length']);
  return (length !== undefined && length.trim() !== '0') || headers['transfer-encoding'] !== undefined;
}

/** The origins this app is served from: `PUBLIC_URL`'s, and the one the browser addressed (the Host it sent). */
export function ownOrigins(publicUrl: string | null, headers: IncomingHttpHeaders, proto: string): Set<string> {
  const origins = new Set<string>();
  if (publicUrl) origins.add(new URL(publicUrl).origin);
  // A page of ours always sends the host it was loaded from; a page elsewhere cannot make its Origin match that
  // Host, and a rebinding name that does match has no cookie of ours to send.
  if (headers.host) origins.add(`${proto}://${headers.host.toLowerCase()}`);
  return origins;
}

/**
 * CSRF defence for the calls a browser makes with the session cookie (everything under /api but the public
 * webhooks, callbacks and unsubscribe endpoints, which keep their own rules). SameSite=Lax does not stop a page on
 * another port of the same host, and a form can post `text/plain` without a preflight, so:
 * - a state-changing call that carries a body must declare it JSON (a form cannot, a preflighted fetch must ask);
 * - one whose `Origin` is not ours, or, without an Origin, whose `Sec-Fetch-Site` says another site, is refused.
 * Clients that send neither header (curl, scripts, the services' tests) are not browsers riding a cookie.
 */
export function checkBrowserRequest(
  method: string,
  headers: IncomingHttpHeaders,
  origins: Set<string>,
): void {
  if (SAFE.has(method)) return;
  const origin = first(headers.origin);
  if (origin !== undefined) {
    if (origin === 'null' || !origins.has(origin.toLowerCase()))
      throw new ForbiddenRequest('Cross-site request refused: this call must come from the app itself');
  } else {
    const site = first(headers['sec-fetch-site']);
    if (site !== undefined && site !== 'same-origin' && site !== 'none')
      throw new ForbiddenRequest('Cross-site request refused: this call must come from the app itself');
  }
  if (hasBody(headers) && !JSON_TYPE.test(first(headers['content-type']) ?? ''))
    throw new UnsupportedMediaType('Content-Type must be application/json');
}
