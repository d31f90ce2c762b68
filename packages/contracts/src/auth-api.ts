/** Request and response shapes of svc-auth's calls (spec section 7), shared by the shell, the gateway and svc-auth. */

/** Name of the session cookie set by svc-auth (koa-session also sets `act.sid.sig`, its signature). */
export const SESSION_COOKIE = 'act.sid';

export type Role = 'user' | 'admin';
export const ROLES: readonly Role[] = ['user', 'admin'];

/** A user as every svc-auth call returns it; passwords never leave the service. */
export interface UserDto {
  id: number;
  username: string;
  email: string | null;
  full_name: string | null;
  role: Role;
  /** Id of the admin who created the account; null for the bootstrap admin. */
  created_by: number | null;
  /** ISO 8601 */
  created_at: string;
  /** ISO 8601 */
  updated_at: string;
}

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
