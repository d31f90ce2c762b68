import { call, startServiceProcess, testDbName, type ServiceProcess } from '@act/service-kit/testing';
import type { IdentityUser } from '@act/service-kit';
import type { CurrentUserDto } from '@act/contracts/src/auth-api';

export const ADMIN_PASSWORD = 'admin-pass-123';

/** Starts the real svc-auth on a fresh database with a known admin password. */
export function startAuth(label: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  return startServiceProcess('svc-auth', {
    MONGODB_URI: process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017',
    MONGODB_DB: testDbName(label),
    ADMIN_PASSWORD,
    SESSION_SECRET: 'test-session-secret',
    // A stream of its own per label: svc-auth consumes the audit subject, and test files running side by side must
    // not take each other's records (instances started with one label share it, as instances of one deployment do).
    NATS_PREFIX: `${process.env.NATS_PREFIX ?? ''}t${process.pid}${label}_`.replace(/[^A-Za-z0-9_]/g, '_'),
    ...env,
  });
}

/** `name=value` pairs of a response's Set-Cookie headers, ready for a Cookie header. */
export function cookieHeader(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

let address = 0;
/** A distinct client address per caller, so login throttling by address does not leak between tests. */
export function freshAddress(): string {
  address += 1;
  return `10.0.${Math.floor(address / 250)}.${(address % 250) + 1}`;
}

/** Signs in (as a browser behind the gateway would, identity user null) and returns the session cookie. */
export async function login(
  url: string,
  username: string,
  password: string,
): Promise<{ cookie: string; user: CurrentUserDto }> {
  const res = await call(url, 'POST', '/api/login', {
    user: null,
    body: { username, password },
    headers: { 'x-forwarded-for': freshAddress() },
  });
  if (res.status !== 200) throw new Error(`login ${username} failed: ${res.status} ${res.text}`);
  return { cookie: cookieHeader(res.headers), user: res.body };
}

export const asIdentity = (u: { id: number; username: string; role: 'admin' | 'user' }): IdentityUser => ({
  id: u.id,
  username: u.username,
  role: u.role,
});
