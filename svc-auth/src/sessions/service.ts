import type { Context } from 'koa';
import type { Connection } from 'mongoose';
import { SESSION_COOKIE, type SessionIdentityDto } from '@act/contracts/src/auth-api';
import { userModel, type UserDoc } from '../users/model';
import type { SessionStore } from './store';

/** Who a session belongs to. A session whose user was deleted resolves to nobody. */
export function createSessionsService(conn: Connection, store: SessionStore) {
  const User = userModel(conn);

  async function userById(id: unknown): Promise<UserDoc | null> {
    if (typeof id !== 'number') return null;
    return User.findOne({ id }).lean<UserDoc>();
  }

  return {
    /** The signed-in user of this request's session (koa-session), clearing a session whose user is gone. */
    async currentUser(ctx: Context): Promise<UserDoc | null> {
      const userId = ctx.session?.userId;
      if (userId === undefined) return null;
      const user = await userById(userId);
      if (!user) ctx.session = null;
      return user;
    },

    /**
     * For the gateway: reads the signed cookie directly (no koa-session, so no rolling write per lookup)
     * and returns the identity it forwards to every service.
     */
    async identityFromCookie(ctx: Context): Promise<SessionIdentityDto> {
      const key = ctx.cookies.get(SESSION_COOKIE, { signed: true });
      if (!key) return { user: null };
      const data = await store.get(key);
      if (!data || (typeof data._expire === 'number' && data._expire < Date.now())) return { user: null };
      const user = await userById(data.userId);
      return { user: user ? { id: user.id, username: user.username, role: user.role } : null };
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
