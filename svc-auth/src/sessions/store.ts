import type { Connection } from 'mongoose';
import { sessionModel, type SessionDoc } from './model';

export interface SessionData {
  userId?: number;
  _expire?: number;
  [key: string]: unknown;
}

/** koa-session external store over the `sessions` collection (get/set/destroy, all async as koa-session requires). */
export function createSessionStore(conn: Connection) {
  const Session = sessionModel(conn);
  return {
    async get(key: string): Promise<SessionData | null> {
      if (typeof key !== 'string') return null;
      const doc = await Session.findOne({ _id: key, expiresAt: { $gt: new Date() } }).lean<SessionDoc>();
      return (doc?.data as SessionData | undefined) ?? null;
    },
    async set(key: string, sess: SessionData, maxAge: number): Promise<void> {
      const userId = typeof sess.userId === 'number' ? sess.userId : null;
      await Session.updateOne(
        { _id: key },
        { $set: { data: sess, userId, expiresAt: new Date(Date.now() + maxAge) } },
        { upsert: true },
      );
    },
    async destroy(key: string): Promise<void> {
      await Session.deleteOne({ _id: key });
    },
    async destroyForUser(userId: number, exceptKey?: string): Promise<void> {
      await Session.deleteMany(exceptKey ? { userId, _id: { $ne: exceptKey } } : { userId });
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
