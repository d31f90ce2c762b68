import { setTimeout as sleep } from 'node:timers/promises';
import type { Connection } from 'mongoose';
import { TooManyRequestsError, UnauthorizedError, createLimiter } from '@act/service-kit';
import { userModel, type UserDoc } from '../users/model';
import { burnPasswordCheck, verifyPassword } from '../users/password';
import { usernameKey } from '../users/username';

export const TOO_MANY_ATTEMPTS = 'Too many failed login attempts. Please wait a minute and try again.';
export const INVALID_CREDENTIALS = 'Invalid username or password';

export interface LoginThrottle {
  /** Failed attempts allowed per (username, address) and per address, in `windowSec`, before 429 (default 5). */
  maxFailures: number;
  windowSec: number;
  /** Failures of one username from anywhere, in `slowWindowSec`, after which every attempt for it waits first. */
  slowAfter: number;
  slowWindowSec: number;
  /** The longest such wait. */
  maxDelayMs: number;
}

/**
 * Credentials check with throttling that an attacker cannot turn against the account's owner:
 * - 429 after `maxFailures` failures of one username from one address, and of one address across usernames
 *   (guessing from one place stops there, and only there);
 * - failures of one username from everywhere (many addresses) do not lock it: past `slowAfter` each attempt waits
 *   250 ms, doubling up to `maxDelayMs`, before the password is checked, and the right password still gets in.
 * Keys are the username's NFKC lower-case form, the one login finds the account by.
 */
export function createAuthService(conn: Connection, throttle: LoginThrottle) {
  const User = userModel(conn);
  // Counted in MongoDB: every instance of svc-auth shares one budget per pair, address and username.
  const byPair = createLimiter({ points: throttle.maxFailures, durationSec: throttle.windowSec, store: { conn, name: 'login_pair' } });
  const byAddress = createLimiter({ points: throttle.maxFailures, durationSec: throttle.windowSec, store: { conn, name: 'login_address' } });
  const byUsername = createLimiter({ points: 1_000_000, durationSec: throttle.slowWindowSec, store: { conn, name: 'login_username' } });

  /** The wait before checking a password for `key`: 0 until `slowAfter` failures, then doubling. */
  async function backoffMs(key: string): Promise<number> {
    const failures = await byUsername.consumed(key);
    if (failures < throttle.slowAfter) return 0;
    return Math.min(throttle.maxDelayMs, 250 * 2 ** Math.min(16, failures - throttle.slowAfter));
  }

  async function findUser(username: string, key: string): Promise<UserDoc | null> {
    return (
      (await User.findOne({ username }).lean<UserDoc>()) ?? (await User.findOne({ username_key: key }).lean<UserDoc>())
    );
  }

  return {
    backoffMs,

    async login(username: string, password: string, address: string): Promise<UserDoc> {
      const key = usernameKey(username);
      const pair = `${key}\u0000${address}`;
      if ((await byPair.isBlocked(pair)) || (await byAddress.isBlocked(address)))
        throw new TooManyRequestsError(TOO_MANY_ATTEMPTS);
      const wait = await backoffMs(key);
      if (wait > 0) await sleep(wait);
      const user = await findUser(username, key);
      const ok = user ? await verifyPassword(password, user.password_hash) : await burnPasswordCheck(password);
      if (!user || !ok) {
        // consume() throws once over the limit; that case is answered by isBlocked on the next attempt.
        await Promise.all([
          byPair.consume(pair).catch(() => undefined),
          byAddress.consume(address).catch(() => undefined),
          byUsername.consume(key).catch(() => undefined),
        ]);
        throw new UnauthorizedError(INVALID_CREDENTIALS);
      }
      await Promise.all([byPair.reset(pair), byUsername.reset(key)]);
      return user;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
