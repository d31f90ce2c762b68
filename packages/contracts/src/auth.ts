/**
 * Users, sign-in, profile and user management: the shapes of spec/email-and-shell.md sections 3
 * and 7, and the rules of section 5 as yup schemas with the spec's exact messages. The forms of
 * the shell and the handlers of svc-auth both use these, so a rule is written once.
 * Self-contained on purpose (only yup): both the browser bundle and the service import it.
 */
import * as yup from 'yup';

// Names here are chosen not to collide with ./auth-api.ts (svc-auth's DTOs), so a barrel may
// export both files.
export type UserRole = 'user' | 'admin';
export const USER_ROLES: readonly UserRole[] = ['user', 'admin'];

/** Minimum lengths of section 9. */
export const MIN_USERNAME_LENGTH = 3;
export const MIN_PASSWORD_LENGTH = 6;

/** A user as the API returns it (never the password). */
export interface User {
  id: number;
  username: string;
  email: string | null;
  full_name: string | null;
  role: UserRole;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** GET /api/user answers the user with `authenticated: true`, or `{ authenticated: false }` when signed out. */
export type CurrentUser = User & { authenticated?: true };

export const messages = {
  usernameRequired: 'Username is required',
  usernameMin: 'Username must be at least 3 characters',
  passwordRequired: 'Password is required',
  passwordMin: 'Password must be at least 6 characters',
  invalidEmail: 'Please enter a valid email address',
  roleRequired: 'Role is required',
  currentPasswordRequired: 'Current password is required',
  newPasswordRequired: 'New password is required',
  confirmNewPasswordRequired: 'Please confirm your new password',
  confirmPasswordRequired: 'Please confirm the password',
  passwordsDoNotMatch: 'Passwords do not match',
} as const;

// "email, if given, must look like an email": '', null and a missing field all mean "not given"
// (yup's email() skips empty strings). No transforms, so the same schema works in formik and under
// the services' strict validation; callers trim before sending.
// The server's upper bounds (svc-auth users/schema.ts), checked in the forms too so the message shows inline
// instead of after a round trip.
const optionalEmail = yup.string().nullable().email(messages.invalidEmail).max(254, 'Email must be at most 254 characters');

const optionalText = yup.string().nullable().max(200, 'Full name must be at most 200 characters');
const usernameMax = (s: yup.StringSchema) => s.max(64, 'Username must be at most 64 characters');
const passwordMax = (s: yup.StringSchema) => s.max(200, 'Password must be at most 200 characters');

const role = yup.mixed<UserRole>().oneOf(USER_ROLES, messages.roleRequired).required(messages.roleRequired);

export const loginSchema = yup.object({
  username: yup.string().required(messages.usernameRequired),
  password: yup.string().required(messages.passwordRequired),
});

export const profileSchema = yup.object({
  full_name: optionalText,
  email: optionalEmail,
});

export const changePasswordSchema = yup.object({
  currentPassword: yup.string().required(messages.currentPasswordRequired),
  newPassword: yup.string().required(messages.newPasswordRequired).min(MIN_PASSWORD_LENGTH, messages.passwordMin),
  confirmPassword: yup
    .string()
    .required(messages.confirmNewPasswordRequired)
    .oneOf([yup.ref('newPassword')], messages.passwordsDoNotMatch),
});

export const createUserSchema = yup.object({
  username: usernameMax(yup.string().required(messages.usernameRequired).min(MIN_USERNAME_LENGTH, messages.usernameMin)),
  password: passwordMax(yup.string().required(messages.passwordRequired).min(MIN_PASSWORD_LENGTH, messages.passwordMin)),
  email: optionalEmail,
  full_name: optionalText,
  role,
});

export const updateUserSchema = yup.object({
  email: optionalEmail,
  full_name: optionalText,
  role,
});

/** The browser form asks for a confirmation; the API body carries only `password`. */
export const resetPasswordFormSchema = yup.object({
  password: yup.string().required(messages.passwordRequired).min(MIN_PASSWORD_LENGTH, messages.passwordMin),
  confirmPassword: yup
    .string()
    .required(messages.confirmPasswordRequired)
    .oneOf([yup.ref('password')], messages.passwordsDoNotMatch),
});

export const resetPasswordSchema = yup.object({
  password: yup.string().required(messages.passwordRequired).min(MIN_PASSWORD_LENGTH, messages.passwordMin),
});

/** What each form sends (PATCH /api/profile, POST /api/profile/change-password, /api/users...). */
export type ProfileInput = yup.InferType<typeof profileSchema>;
export type ChangePasswordInput = yup.InferType<typeof changePasswordSchema>;
export type CreateUserInput = yup.InferType<typeof createUserSchema>;
export type UpdateUserInput = yup.InferType<typeof updateUserSchema>;
export type ResetPasswordInput = yup.InferType<typeof resetPasswordSchema>;
