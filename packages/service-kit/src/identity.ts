import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import { ForbiddenError, UnauthorizedError } from './errors';

export const IDENTITY_HEADER = 'x-act-identity';
/** A signed identity older than this is refused, so a captured header cannot be replayed for long. */
const MAX_AGE_MS = 60_000;

export interface IdentityUser {
  id: number;
  username: string;
  role: 'admin' | 'user';
}
export interface Identity {
  user: IdentityUser | null;
  iat: number;
}

declare module 'koa' {
  interface DefaultState {
    identity?: Identity;
  }
}

function mac(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

export function signIdentity(user: IdentityUser | null, secret: string, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ user, iat: now })).toString('base64url');
  return `${payload}.${mac(payload, secret)}`;
}

export function verifyIdentity(header: string | undefined, secret: string, now = Date.now()): Identity | null {
  if (!header) return null;
  const dot = header.indexOf('.');
  if (dot <= 0) return null;
  const payload = header.slice(0, dot);
  const given = Buffer.from(header.slice(dot + 1), 'hex');
  const expected = Buffer.from(mac(payload, secret), 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Identity;
    if (typeof parsed.iat !== 'number' || Math.abs(now - parsed.iat) > MAX_AGE_MS) return null;
    return parsed;
  } catch {
    return null;
  }
}

/**
 * Services trust only the gateway's signed header: a call straight to a service port without it is refused,
 * whether or not the route is public (public means "no user needed", not "no gateway").
 */
export function identityMiddleware(secret: string, { open = ['/healthz', '/readyz'] }: { open?: string[] } = {}) {
  // Headers whose signature was checked: the gateway signs one per user (and one for nobody) per second or so, so
  // at thousands of webhooks a second one HMAC per request was mostly the same HMAC. The age is checked on each use.
  const verified = new Map<string, Identity>();
  return async function checkIdentity(ctx: Context, next: Next) {
    if (open.includes(ctx.path)) return next();
    const header = ctx.get(IDENTITY_HEADER) || undefined;
    let identity = header ? verified.get(header) : undefined;
    if (identity && Math.abs(Date.now() - identity.iat) > MAX_AGE_MS) identity = undefined;
    if (!identity) {
      identity = verifyIdentity(header, secret) ?? undefined;
      if (identity && header) {
        if (verified.size >= 256) verified.clear();
        verified.set(header, identity);
      }
    }
    if (!identity) throw new UnauthorizedError('Unauthorized: missing or invalid gateway identity');
    ctx.state.identity = identity;
    return next();
  };
}

export function currentUser(ctx: Context): IdentityUser | null {
  return (ctx.state.identity as Identity | undefined)?.user ?? null;
}

export function requireUser() {
  return async function mustBeSignedIn(ctx: Context, next: Next) {
    if (!currentUser(ctx)) throw new UnauthorizedError();
    return next();
  };
}

export function requireAdmin() {
  return async function mustBeAdmin(ctx: Context, next: Next) {
    const user = currentUser(ctx);
    if (!user) throw new UnauthorizedError();
    if (user.role !== 'admin') throw new ForbiddenError();
    return next();
  };
}
