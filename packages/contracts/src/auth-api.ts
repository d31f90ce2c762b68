/**
 * Server-side view of svc-auth's calls (spec section 7) for svc-auth and the gateway. Request types here are what
 * the server accepts (email/full_name may be omitted: unchanged, or null on create).
 */
import { USER_ROLES, type User, type UserRole } from './auth';

/** Name of the session cookie set by svc-auth (koa-session also sets `act.sid.sig`, its signature). */
export const SESSION_COOKIE = 'act.sid';

// The user shape and roles are defined once, in ./auth (shared with the shell's forms).

export type Role = UserRole;
export const ROLES = USER_ROLES;

/** A user as every svc-auth call returns it; passwords never leave the service. */
export type UserDto = User;

/** GET /api/user, POST /api/login and PATCH /api/profile. */
export type CurrentUserDto = UserDto & { authenticated: true };
/** GET /api/user when signed out (status 200). */
export interface SignedOutDto {
  authenticated: false;
}

export interface LoginRequest {
  username: string;
  password: string;
}
export interface ProfileUpdateRequest {
  full_name?: string | null;
  email?: string | null;
}
export interface ChangePasswordRequest {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}
export interface CreateUserRequest {
  username: string;
  password: string;
  email?: string | null;
  full_name?: string | null;
  role: Role;
}
export interface UpdateUserRequest {
  email?: string | null;
  full_name?: string | null;
  role: Role;
}
export interface ResetPasswordRequest {
  password: string;
}
/** POST /api/logout, POST /api/profile/change-password, POST /api/users/{id}/reset-password, DELETE /api/users/{id}. */
export interface MessageDto {
  message: string;
}

/** GET /internal/session (gateway only): who the session cookie belongs to. */
export interface SessionIdentityDto {
  user: { id: number; username: string; role: Role } | null;
}
