import type { Connection } from 'mongoose';
import { BadRequestError, NotFoundError } from '@act/service-kit';
import type { ProfileUpdateRequest } from '@act/contracts/src/auth-api';
import { userModel, type UserDoc } from '../users/model';
import { hashPassword, verifyPassword } from '../users/password';
import type { SessionRevoker } from '../users/service';

/** A signed-in user's own account: profile fields and password. */
export function createProfileService(conn: Connection, sessions: SessionRevoker) {
  const User = userModel(conn);

  async function find(id: number): Promise<UserDoc> {
    const user = await User.findOne({ id }).lean<UserDoc>();
    if (!user) throw new NotFoundError('User not found');
    return user;
  }

  return {
    get: find,

    async update(userId: number, input: ProfileUpdateRequest): Promise<UserDoc> {
      await find(userId);
      const set: Partial<UserDoc> = {};
      if (input.email !== undefined) set.email = input.email;
      if (input.full_name !== undefined) set.full_name = input.full_name;
      // An empty patch still answers the current user, so the form's Save is never an error.
      if (Object.keys(set).length === 0) return find(userId);
      return (
        (await User.findOneAndUpdate({ id: userId }, { $set: set }, { new: true }).lean<UserDoc>()) ?? find(userId)
      );
    },

    /** Other sessions of the user end; the one making the change (`keepSession`) stays signed in. */
    async changePassword(
      userId: number,
      currentPassword: string,
      newPassword: string,
      keepSession?: string,
    ): Promise<void> {
      const user = await find(userId);
      if (!(await verifyPassword(currentPassword, user.password_hash)))
        throw new BadRequestError('Current password is incorrect');
      await User.updateOne({ id: userId }, { $set: { password_hash: await hashPassword(newPassword) } });
      await sessions.destroyForUser(userId, keepSession);
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
