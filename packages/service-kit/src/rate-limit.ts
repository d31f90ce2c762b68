import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Context, Next } from 'koa';
import { TooManyRequestsError } from './errors';

/**
 * Per-key fixed-window limiter (in memory: each instance counts its own share, which is enough to slow abuse).
 * `key` picks what is limited: the client address by default, a username for login throttling.
 */
export function createLimiter({ points, durationSec }: { points: number; durationSec: number }) {
  const limiter = new RateLimiterMemory({ points, duration: durationSec });
  return {
    /** Throws 429 once `key` has used its points in the window. */
    async consume(key: string, message?: string): Promise<void> {
      try {
        await limiter.consume(key);
      } catch {
        throw new TooManyRequestsError(message);
      }
    },
    /** Points used by `key` in the current window. */
    async consumed(key: string): Promise<number> {
      return (await limiter.get(key))?.consumedPoints ?? 0;
    },
    async isBlocked(key: string): Promise<boolean> {
      const r = await limiter.get(key);
      return !!r && r.consumedPoints >= points;
    },
    async reset(key: string): Promise<void> {
      await limiter.delete(key);
    },
  };
}

export function rateLimit({ points, durationSec, key = (ctx: Context) => ctx.ip }: { points: number; durationSec: number; key?: (ctx: Context) => string }) {
  const limiter = createLimiter({ points, durationSec });
  return async function limitRate(ctx: Context, next: Next) {
    await limiter.consume(key(ctx));
    return next();
  };
}
