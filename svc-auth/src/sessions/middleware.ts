import type Koa from 'koa';
import type { Context, Next } from 'koa';
import createSession from 'koa-session';
import { SESSION_COOKIE } from '@act/contracts/src/auth-api';
import type { Logger } from '@act/service-kit';
import type { SessionData, SessionStore } from './store';

export const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export type AppSession = SessionData & {
  readonly externalKey?: string;
  regenerate(): Promise<void>;
};

declare module 'koa' {
  interface BaseContext {
    /** koa-session's session (this service only); `null` ends it. */
    session: AppSession | null;
  }
}

const DEV_SESSION_SECRET = 'dev-only-session-secret-change-me';

/** SESSION_SECRET may list several keys separated by commas: the first signs, all verify (key rotation). */
export function sessionKeys(logger: Logger): string[] {
  const raw = process.env.SESSION_SECRET;
  if (raw)
    return raw
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
  if (process.env.NODE_ENV === 'production') throw new Error('SESSION_SECRET must be set in production');
  logger.warn('SESSION_SECRET is not set: using the development default; set it outside development');
  return [DEV_SESSION_SECRET];
}

/**
 * Sessions live in MongoDB; the browser holds only a signed id. `secure` is left unset on purpose: the cookie
 * library then marks the cookie Secure exactly when the request came over HTTPS, which with `app.proxy` on
 * means X-Forwarded-Proto https from the gateway.
 */
export function sessionMiddleware(app: Koa, store: SessionStore, keys: string[]) {
  app.keys = keys;
  const session = createSession(
    {
      key: SESSION_COOKIE,
      maxAge: SESSION_MAX_AGE_MS,
      rolling: true,
      httpOnly: true,
      sameSite: 'lax',
      signed: true,
      store: {
        get: (key: string) => store.get(key),
        set: (key: string, sess: SessionData, maxAge: number) => store.set(key, sess, maxAge),
        destroy: (key: string) => store.destroy(key),
      },
    },
    app,
  );
  // Only the public /api calls use the session; /internal/session reads the cookie itself, without rolling writes.
  return function apiSession(ctx: Context, next: Next) {
    return ctx.path.startsWith('/api/') ? session(ctx, next) : next();
  };
}
