import type { Connection } from 'mongoose';
import { TooManyRequestsError, UnauthorizedError, createLimiter } from '@act/service-kit';
import { userModel, type UserDoc } from '../users/model';
import { burnPasswordCheck, verifyPassword } from '../users/password';

export const TOO_MANY_ATTEMPTS = 'Too many failed login attempts. Please wait a minute and try again.';
export const INVALID_CREDENTIALS = 'Invalid username or password';

export interface LoginThrottle {
  /** Failed attempts allowed per key and window before 429 (default 5). */
  maxFailures: number;
  windowSec: number;
}

/**
 * Credentials check with throttling: after `maxFailures` failures in the window for one username or for one
 * client address, every attempt (even a right one) gets 429 until the window ends, so guessing cannot go on.
 */
export function createAuthService(conn: Connection, { maxFailures, windowSec }: LoginThrottle) {
  const User = userModel(conn);
  const byUsername = createLimiter({ points: maxFailures, durationSec: windowSec });
  const byAddress = createLimiter({ points: maxFailures, durationSec: windowSec });

  return {
    async login(username: string, password: string, address: string): Promise<UserDoc> {
      const userKey = username.toLowerCase();
      if ((await byUsername.isBlocked(userKey)) || (await byAddress.isBlocked(address)))
        throw new TooManyRequestsError(TOO_MANY_ATTEMPTS);
      const user = await User.findOne({ username }).lean<UserDoc>();
      const ok = user ? await verifyPassword(password, user.password_hash) : await burnPasswordCheck(password);
      if (!user || !ok) {
        // consume() throws once over the limit; that case is answered by isBlocked on the next attempt.
        await Promise.all([
          byUsername.consume(userKey).catch(() => undefined),
          byAddress.consume(address).catch(() => undefined),
        ]);
        throw new UnauthorizedError(INVALID_CREDENTIALS);
      }
      await byUsername.reset(userKey);
      return user;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
