import { object, string } from 'yup';
import { trimmed } from '../users/schema';

// Sign-in only requires both fields (spec 5); length rules apply when passwords are set, not when typed.
export const loginSchema = object({
  username: string().transform(trimmed).required('Username is required').max(200, 'Invalid username or password'),
  password: string().required('Password is required').max(200, 'Invalid username or password'),
});
