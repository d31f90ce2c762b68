import { RateLimiterMemory, RateLimiterMongo, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Context, Next } from 'koa';
import type { Connection } from 'mongoose';
import { TooManyRequestsError } from './errors';

export interface LimiterOptions {
  points: number;
  durationSec: number;
  /**
   * Where the counts live. Given: in this connection's database (`rate_limits` collection, one document per key and
   * window, expired by MongoDB), so every instance of the service counts against one budget; with two instances
   * in memory, a guesser behind the balancing gateway got twice the attempts. Absent: this process's memory (tests,
   * single-process tools).
   */
  store?: { conn: Connection; name: string };
}

function limiterFor({ points, durationSec, store }: LimiterOptions): RateLimiterAbstract {
  if (!store) return new RateLimiterMemory({ points, duration: durationSec });
  return new RateLimiterMongo({
    storeClient: store.conn.getClient(),
    dbName: store.conn.db!.databaseName,
    tableName: 'rate_limits',
    keyPrefix: store.name,
    points,
    duration: durationSec,
  });
}

/**
 * Per-key fixed-window limiter. `key` picks what is limited: the client address by default, a username for login
 * throttling.
 */
export function createLimiter(options: LimiterOptions) {
  const { points } = options;
  const limiter = limiterFor(options);
  return {
    /** Throws 429 once `key` has used its points in the window. */
    async consume(key: string, message?: string): Promise<void> {
      try {
        await limiter.consume(key);
      } catch (err) {
        // A rejection that is not the limiter's answer (its store failed) is an error, not a 429.
        if (err instanceof Error) throw err;
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

export function rateLimit({ key = (ctx: Context) => ctx.ip, ...options }: LimiterOptions & { key?: (ctx: Context) => string }) {
  const limiter = createLimiter(options);
  return async function limitRate(ctx: Context, next: Next) {
    await limiter.consume(key(ctx));
    return next();
  };
}
