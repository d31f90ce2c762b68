import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  isDuplicateKeyError,
  nextId,
  type Logger,
} from '@act/service-kit';
import type { CreateUserRequest, Role, UpdateUserRequest, UserDto } from '@act/contracts/src/auth-api';
import { toUserDto, userModel, type UserDoc } from './model';
import { hashPassword } from './password';
import { usernameKey, usernameSkeleton } from './username';

export const USERNAME_TAKEN = 'Username already exists';
export const USERNAME_LOOKALIKE = 'Username looks like an existing one: choose a clearly different name';

export interface SessionRevoker {
  /** Ends every session of a user (optionally sparing one), so a deleted or reset account stops working at once. */
  destroyForUser(userId: number, exceptKey?: string): Promise<void>;
}

/** User management for admins (spec /users), free of Koa. */
export function createUsersService(conn: Connection, sessions: SessionRevoker) {
  const User = userModel(conn);

  async function find(id: number): Promise<UserDoc> {
    const user = await User.findOne({ id }).lean<UserDoc>();
    if (!user) throw new NotFoundError('User not found');
    return user;
  }

  return {
    async list(): Promise<UserDto[]> {
      const users = await User.find().sort({ id: 1 }).lean<UserDoc[]>();
      return users.map(toUserDto);
    },

    async get(id: number): Promise<UserDto> {
      return toUserDto(await find(id));
    },

    async create(input: CreateUserRequest, createdBy: number | null): Promise<UserDto> {
      const key = usernameKey(input.username);
      const skeleton = usernameSkeleton(input.username);
      // Checked first for the clear message; the unique indexes still decide when two creations race.
      if (await User.exists({ $or: [{ username: input.username }, { username_key: key }] }))
        throw new ConflictError(USERNAME_TAKEN);
      if (await User.exists({ username_skeleton: skeleton })) throw new ConflictError(USERNAME_LOOKALIKE);
      try {
        const doc = await User.create({
          id: await nextId(conn, 'users'),
          username: input.username,
          username_key: key,
          username_skeleton: skeleton,
          password_hash: await hashPassword(input.password),
          email: input.email ?? null,
          full_name: input.full_name ?? null,
          role: input.role,
          created_by: createdBy,
        });
        return toUserDto(doc.toObject());
      } catch (err) {
        if (isDuplicateKeyError(err)) throw new ConflictError(USERNAME_TAKEN);
        throw err;
      }
    },

    /**
     * Accounts made before usernames were compared by key get their key, and every account whose stored skeleton
     * differs from today's (a newer Unicode confusables release, a changed comparison) gets it recomputed, so new
     * names are compared with the existing ones the same way. Two old accounts that now collide keep working (the
     * first keeps the value, the other is logged): nothing is renamed behind an admin's back.
     */
    async backfillUsernameKeys(logger: Logger): Promise<void> {
      const all = await User.find({}, { id: 1, username: 1, username_key: 1, username_skeleton: 1 }).sort({ id: 1 }).lean<UserDoc[]>();
      for (const u of all) {
        const set: Partial<UserDoc> = {};
        if (u.username_key === undefined) set.username_key = usernameKey(u.username);
        const skeleton = usernameSkeleton(u.username);
        if (u.username_skeleton !== skeleton) set.username_skeleton = skeleton;
        if (Object.keys(set).length === 0) continue;
        try {
          await User.updateOne({ id: u.id }, { $set: set });
        } catch (err) {
          if (!isDuplicateKeyError(err)) throw err;
          logger.warn({ id: u.id, username: u.username }, 'username collides with another account once case and look-alikes are ignored');
        }
      }
    },

    async update(id: number, input: UpdateUserRequest, actorId: number): Promise<UserDto> {
      const current = await find(id);
      // Spec 4/6: an admin cannot change their own role (also keeps at least one admin in place).
      if (id === actorId && input.role !== current.role) throw new BadRequestError('You cannot change your own role');
      const set: Partial<UserDoc> = { role: input.role as Role };
      if (input.email !== undefined) set.email = input.email;
      if (input.full_name !== undefined) set.full_name = input.full_name;
      const updated = await User.findOneAndUpdate({ id }, { $set: set }, { new: true }).lean<UserDoc>();
      if (!updated) throw new NotFoundError('User not found');
      return toUserDto(updated);
    },

    async resetPassword(id: number, password: string): Promise<void> {
      await find(id);
      await User.updateOne({ id }, { $set: { password_hash: await hashPassword(password) } });
      // Whoever knew the old password is signed out everywhere.
      await sessions.destroyForUser(id);
    },

    async remove(id: number, actorId: number): Promise<void> {
      if (id === actorId) throw new BadRequestError('You cannot delete your own account');
      const { deletedCount } = await User.deleteOne({ id });
      if (!deletedCount) throw new NotFoundError('User not found');
      await sessions.destroyForUser(id);
    },

    /**
     * First start: creates `admin` with ADMIN_PASSWORD, or a random password logged once. Skipped whenever an
     * `admin` account or any admin exists, so a deleted or renamed bootstrap account never comes back by itself.
     */
    async ensureBootstrapAdmin(password: string | undefined, logger: Logger): Promise<void> {
      if (await User.exists({ $or: [{ username: 'admin' }, { role: 'admin' }] })) return;
      const generated = !password;
      const pw = password || randomBytes(12).toString('base64url');
      try {
        await User.create({
          id: await nextId(conn, 'users'),
          username: 'admin',
          username_key: usernameKey('admin'),
          username_skeleton: usernameSkeleton('admin'),
          password_hash: await hashPassword(pw),
          role: 'admin',
          created_by: null,
        });
      } catch (err) {
        if (isDuplicateKeyError(err)) return; // another instance created it first
        throw err;
      }
      if (generated) {
        const line = `*** INITIAL ADMIN PASSWORD (shown once): admin / ${pw} ***`;
        // Printed even when the log level hides warnings: it is the only way to learn the password.
        if (logger.isLevelEnabled('warn')) logger.warn({ username: 'admin', adminPassword: pw }, line);
        else process.stdout.write(`${line}\n`);
      } else {
        logger.info('created the admin account with ADMIN_PASSWORD');
      }
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
