import { Schema, type Connection, type Model } from 'mongoose';

export interface SessionDoc {
  /** The session id carried (signed) in the `act.sid` cookie. */
  _id: string;
  /** What koa-session keeps: `{ userId, _expire, _maxAge }`. */
  data: Record<string, unknown>;
  /** Copied out of `data` so every session of a user can be ended in one query (delete, password reset). */
  userId: number | null;
  /** MongoDB removes the document after this instant (TTL index); reads also check it, as TTL runs only once a minute. */
  expiresAt: Date;
}

const sessionSchema = new Schema<SessionDoc>(
  {
    _id: { type: String, required: true },
    data: { type: Schema.Types.Mixed, required: true },
    userId: { type: Number, default: null, index: true },
    expiresAt: { type: Date, required: true, expires: 0 },
  },
  { versionKey: false, minimize: false },
);

export type SessionModel = Model<SessionDoc>;

export function sessionModel(conn: Connection): SessionModel {
  return (conn.models.Session as SessionModel) ?? conn.model<SessionDoc>('Session', sessionSchema, 'sessions');
}
