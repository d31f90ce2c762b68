import { object, string } from 'yup';
import { ROLES } from '@act/contracts/src/auth-api';

// Messages are the spec's (section 5) so the server and the forms say the same thing.
// yup's own `.trim()` calls `value.trim()` on whatever arrived, so `{ "username": {} }` would be a 500; this only
// trims strings and leaves other types to fail the type check with a 400.
export const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

export const MIN_USERNAME = 3;
export const MIN_PASSWORD = 6;

/** Optional email: blank or null is stored as null; anything else must look like an email. */
export const emailField = () =>
  string()
    .nullable()
    .transform((v: unknown) => (trimmed(v) === '' ? null : trimmed(v)))
    .email('Please enter a valid email address')
    .max(254, 'Email must be at most 254 characters');

/** Optional full name: blank or null is stored as null. */
export const fullNameField = () =>
  string()
    .nullable()
    .transform((v: unknown) => (trimmed(v) === '' ? null : trimmed(v)))
    .max(200, 'Full name must be at most 200 characters');

/** New passwords (create, reset, change). The upper bound only keeps hashing cheap. */
export const newPasswordField = (requiredMessage = 'Password is required') =>
  string()
    .required(requiredMessage)
    .min(MIN_PASSWORD, `Password must be at least ${MIN_PASSWORD} characters`)
    .max(200, 'Password must be at most 200 characters');

const roleField = () =>
  string()
    .required('Role is required')
    .oneOf([...ROLES], 'Role must be user or admin');

export const createUserSchema = object({
  username: string()
    .transform(trimmed)
    .required('Username is required')
    .min(MIN_USERNAME, `Username must be at least ${MIN_USERNAME} characters`)
    .max(64, 'Username must be at most 64 characters'),
  password: newPasswordField(),
  email: emailField(),
  full_name: fullNameField(),
  role: roleField(),
});

/** Edit User sends email, full_name and role; a missing email/full_name leaves it unchanged. */
export const updateUserSchema = object({
  email: emailField(),
  full_name: fullNameField(),
  role: roleField(),
});

export const resetPasswordSchema = object({
  password: newPasswordField(),
  // The dialog's confirmation normally stays in the browser; when sent, it must match.
  confirmPassword: string().optional(),
  // Object-level tests run before field tests in yup: only compare once the password itself is acceptable.
}).test('passwords-match', 'Passwords do not match', (v) => {
  const fieldOk = typeof v.password === 'string' && v.password.length >= MIN_PASSWORD;
  return !fieldOk || v.confirmPassword === undefined || v.confirmPassword === v.password;
});
