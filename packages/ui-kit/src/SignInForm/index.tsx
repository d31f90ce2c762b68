import { Alert, Button, CircularProgress, Stack, TextField } from '@mui/material';
import { useFormik } from 'formik';
import { loginSchema } from '@act/contracts/src/auth';
import { useAuth } from '../Auth';

/**
 * The sign-in form (spec §2 /auth, §5): username prefilled with admin, password empty, both
 * required; 'Sign In', and 'Signing in...' while pending. Lives in ui-kit so each remote's
 * standalone dev page can sign in the same way the shell does.
 */
export function SignInForm({ onSignedIn }: { onSignedIn?: () => void }) {
  const { login } = useAuth();
  const form = useFormik({
    initialValues: { username: 'admin', password: '' },
    validationSchema: loginSchema,
    onSubmit: async ({ username, password }, helpers) => {
      try {
        await login(username.trim(), password);
        onSignedIn?.();
      } catch (error) {
        // The toast already told the user; keep the message by the form as well.
        helpers.setStatus('Login failed');
      }
    },
  });
  const fieldError = (name: 'username' | 'password') => (form.touched[name] && form.errors[name]) || undefined;

  return (
    <Stack component="form" noValidate spacing={2.5} onSubmit={form.handleSubmit} aria-label="Sign in">
      {form.status && !form.isSubmitting && <Alert severity="error">{form.status}</Alert>}
      <TextField
        id="username"
        name="username"
        label="Username"
        autoComplete="username"
        value={form.values.username}
        onChange={form.handleChange}
        onBlur={form.handleBlur}
        error={Boolean(fieldError('username'))}
        helperText={fieldError('username')}
        required
      />
      <TextField
        id="password"
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        value={form.values.password}
        onChange={form.handleChange}
        onBlur={form.handleBlur}
        error={Boolean(fieldError('password'))}
        helperText={fieldError('password')}
        required
      />
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={form.isSubmitting}
        startIcon={form.isSubmitting ? <CircularProgress size={18} color="inherit" /> : undefined}
      >
        {form.isSubmitting ? 'Signing in...' : 'Sign In'}
      </Button>
    </Stack>
  );
}
