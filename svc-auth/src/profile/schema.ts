import { object, string } from 'yup';
import { MIN_PASSWORD, emailField, fullNameField, newPasswordField } from '../users/schema';

/** The username is read-only (spec /profile): only these two fields can change; others are stripped. */
export const profileSchema = object({
  full_name: fullNameField(),
  email: emailField(),
});

export const changePasswordSchema = object({
  currentPassword: string().required('Current password is required'),
  newPassword: newPasswordField('New password is required'),
  confirmPassword: string().required('Please confirm your new password'),
})
  // yup runs object-level tests before the field tests: stand aside until both passwords are acceptable on
  // their own, so 'New password is required' or the length rule is reported before a mismatch.
  .test('passwords-match', 'Passwords do not match', (v) => {
    const fieldsOk = typeof v.newPassword === 'string' && v.newPassword.length >= MIN_PASSWORD && !!v.confirmPassword;
    return !fieldsOk || v.confirmPassword === v.newPassword;
  });
