import http from 'node:http';
import { SESSION_COOKIE, type SessionIdentityDto } from '@act/contracts/src/auth-api';
import { ServiceUnavailableError, signIdentity, type IdentityUser, type Logger } from '@act/service-kit';
import type { Instance, Upstreams } from './upstreams/instances';

const SID = `${SESSION_COOKIE}=`;
const SIG = `${SESSION_COOKIE}.sig=`;

/** The session cookie and its signature out of a Cookie header, or null when either is missing. */
export function sessionCookie(header: string | undefined): { sid: string; sig: string } | null {
  if (!header || !header.includes(SID)) return null;
  let sid: string | undefined;
  let sig: string | undefined;
  for (const part of header.split(';')) {
    const p = part.trim();
    if (p.startsWith(SID)) sid = p.slice(SID.length);
    else if (p.startsWith(SIG)) sig = p.slice(SIG.length);
  }
  // svc-auth only accepts signed session cookies: without the signature there is no session to look up.
  return sid && sig ? { sid, sig } : null;
}

export interface Resolved {
  user: IdentityUser | null;
  /** The signed x-act-identity header for this user, reused while the entry lives (services accept 60 s). */
  token: string;
}

interface Entry extends Resolved {
  expires: number;
}

export interface SessionResolverOptions {
  /** svc-auth's instances (a lookup whose connection fails is asked once more of another one). */
  auth: Pick<Upstreams, 'pick' | 'failed' | 'instances'>;
  secret: string;
  agent: http.Agent;
  ttlMs: number;
  maxEntries: number;
  timeoutMs: number;
  logger: Logger;
}

/**
 * Who a request's session belongs to, asked of svc-auth's /internal/session and cached per cookie for a few
 * seconds (bounded, oldest out first). Concurrent requests with one cookie share one lookup.
 */
export function createSessionResolver({
  auth,
  secret,
  agent,
  ttlMs,
  maxEntries,
  timeoutMs,
  logger,
}: SessionResolverOptions) {
  const cache = new Map<string, Entry>();
  const pending = new Map<string, Promise<Resolved>>();
  let anonymous: Entry = { user: null, token: '', expires: 0 };
  // Bumped by forget/clear: a lookup that started before a logout must not put the old answer back.
  let generation = 0;

  /** The identity "nobody", re-signed once a second rather than per request (hot webhook path). */
  function anonymousIdentity(): Resolved {
    const now = Date.now();
    if (anonymous.expires <= now)
      anonymous = { user: null, token: signIdentity(null, secret, now), expires: now + 1_000 };
    return anonymous;
  }

  function lookup(cookie: { sid: string; sig: string }, retry = true, not?: Instance): Promise<IdentityUser | null> {
    const instance = auth.pick('svc-auth', not);
    return new Promise((resolve, reject) => {
      const req = http.request(
        new URL('/internal/session', instance.url),
        {
          method: 'GET',
          agent,
          timeout: timeoutMs,
          headers: { 'x-act-identity': anonymousIdentity().token, cookie: `${SID}${cookie.sid}; ${SIG}${cookie.sig}` },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () => {
            if (res.statusCode !== 200) {
              logger.error(
                { status: res.statusCode, body: text.slice(0, 200) },
                'svc-auth refused the session lookup (IDENTITY_SECRET mismatch?)',
              );
              return reject(new ServiceUnavailableError('svc-auth unavailable'));
            }
            try {
              resolve((JSON.parse(text) as SessionIdentityDto).user ?? null);
            } catch {
              reject(new ServiceUnavailableError('svc-auth unavailable'));
            }
          });
          res.on('error', () => reject(new ServiceUnavailableError('svc-auth unavailable')));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (err) => {
        const code = (err as NodeJS.ErrnoException).code;
        // A lookup only reads: when the connection failed, another instance is asked.
        if (code && code !== 'ECONNABORTED' && err.message !== 'timeout') {
          auth.failed(instance, code);
          if (retry && auth.instances('svc-auth').length > 1) return void lookup(cookie, false, instance).then(resolve, reject);
        }
        logger.warn({ err: err.message, instance: instance.url }, 'session lookup failed');
        reject(new ServiceUnavailableError('svc-auth unavailable'));
      });
      req.end();
    });
  }

  function remember(key: string, user: IdentityUser | null, startedAt: number): Resolved {
    const now = Date.now();
    const entry: Entry = { user, token: signIdentity(user, secret, now), expires: now + ttlMs };
    if (startedAt !== generation) return entry;
    cache.delete(key);
    while (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
    cache.set(key, entry);
    return entry;
  }

  return {
    anonymous: anonymousIdentity,

    /** Throws 503 "svc-auth unavailable" when svc-auth cannot answer; failures are not cached. */
    async resolve(cookieHeader: string | undefined): Promise<Resolved> {
      const cookie = sessionCookie(cookieHeader);
      if (!cookie) return anonymousIdentity();
      const key = `${cookie.sid}.${cookie.sig}`;
      const hit = cache.get(key);
      if (hit && hit.expires > Date.now()) return hit;
      let inflight = pending.get(key);
      if (!inflight) {
        const startedAt = generation;
        const p: Promise<Resolved> = lookup(cookie)
          .then((user) => remember(key, user, startedAt))
          .finally(() => {
            if (pending.get(key) === p) pending.delete(key);
          });
        pending.set(key, p);
        inflight = p;
      }
      return inflight;
    },

    /** Forget one cookie's entry (its login or logout just went through). */
    forget(cookieHeader: string | undefined): void {
      const cookie = sessionCookie(cookieHeader);
      if (!cookie) return;
      const key = `${cookie.sid}.${cookie.sig}`;
      cache.delete(key);
      pending.delete(key);
      generation += 1;
    },

    /** Forget everything: a user was changed or deleted, and their cookies are not known here. */
    clear(): void {
      cache.clear();
      pending.clear();
      generation += 1;
    },

    get size(): number {
      return cache.size;
    },
  };
}

export type SessionResolver = ReturnType<typeof createSessionResolver>;
