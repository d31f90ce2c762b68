import type { IncomingMessage } from 'node:http';

/**
 * `TRUST_PROXY`: how many proxies in front of the gateway append to X-Forwarded-For (a TLS terminator, a load
 * balancer). `false`/`0`: none, the socket's peer is the client; `true`: one; a number: that many.
 */
export function parseTrustedHops(raw: string | undefined): number {
  const v = (raw ?? '').trim().toLowerCase();
  if (v === '' || ['false', 'no', 'off', '0'].includes(v)) return 0;
  if (['true', 'yes', 'on'].includes(v)) return 1;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 20)
    throw new Error(`TRUST_PROXY must be true, false or the number of proxies in front of the gateway (0-20), not "${raw}"`);
  return n;
}

/**
 * The client's address: the rightmost hop no trusted proxy vouches for. Each trusted proxy appends the address it
 * received the request from, so with N of them the client is the N-th entry from the right of
 * X-Forwarded-For + the socket's peer; everything left of it was written by the client and is ignored (taking the
 * leftmost let a client rotate the header past the login and unsubscribe limits).
 */
export function clientAddress(req: IncomingMessage, trustedHops: number): string {
  const peer = req.socket.remoteAddress ?? '';
  if (trustedHops === 0) return peer;
  const header = req.headers['x-forwarded-for'];
  const listed = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const chain = [...listed, peer];
  return chain[Math.max(0, chain.length - 1 - trustedHops)]!;
}

/** The scheme the client used: the outermost trusted proxy's X-Forwarded-Proto, else plain http to the gateway. */
export function clientProto(req: IncomingMessage, trustedHops: number): string {
  if (trustedHops === 0) return 'http';
  const header = req.headers['x-forwarded-proto'];
  const listed = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  // One value per trusted proxy, the first of ours written leftmost of them.
  const v = listed[Math.max(0, listed.length - trustedHops)];
  return v === 'https' ? 'https' : 'http';
}
