import { Schema, type Connection, type Model } from 'mongoose';
import type { Role, UserDto } from '@act/contracts/src/auth-api';

export interface UserDoc {
  /** Numeric id from the `users` counter (the spec's ids are numbers); `_id` never leaves the service. */
  id: number;
  /** As typed, at least 3 characters; cannot be changed after creation. */
  username: string;
  /** NFKC + lower case (users/username.ts): unique; login and its throttle find the account by it. */
  username_key?: string;
  /** The key with look-alike characters folded: unique, so no account can impersonate another's name. */
  username_skeleton?: string;
  /** `scrypt$N$r$p$salt$hash`; never returned by any call. */
  password_hash: string;
  /** Null when not given (the spec's email is nullable). */
  email: string | null;
  full_name: string | null;
  role: Role;
  /** Id of the admin who created this account; null for the bootstrap admin. */
  created_by: number | null;
  created_at: Date;
  updated_at: Date;
}

const userSchema = new Schema<UserDoc>(
  {
    id: { type: Number, required: true, unique: true },
    username: { type: String, required: true, unique: true },
    // Sparse: rows written before these fields existed get them at start (backfillUsernameKeys).
    username_key: { type: String, unique: true, sparse: true },
    username_skeleton: { type: String, unique: true, sparse: true },
    password_hash: { type: String, required: true },
    email: { type: String, default: null },
    full_name: { type: String, default: null },
    role: { type: String, enum: ['user', 'admin'], default: 'user', required: true },
    created_by: { type: Number, default: null },
  },
  { versionKey: false, timestamps: { createdAt: 'created_at', updatedAt: 'updated_at' } },
);

export type UserModel = Model<UserDoc>;

export function userModel(conn: Connection): UserModel {
  return (conn.models.User as UserModel) ?? conn.model<UserDoc>('User', userSchema, 'users');
}

/** The one place a stored user becomes an API user: fixed field list, so the hash can never slip out. */
export function toUserDto(u: UserDoc): UserDto {
  return {
    id: u.id,
    username: u.username,
    email: u.email ?? null,
    full_name: u.full_name ?? null,
    role: u.role,
    created_by: u.created_by ?? null,
    created_at: new Date(u.created_at).toISOString(),
    updated_at: new Date(u.updated_at).toISOString(),
  };
}
