import { useState, type FormEvent } from 'react';
import { Alert, Button, CircularProgress, Stack, TextField } from '@mui/material';
import { useAuth } from '../Auth';

/** Spec §5 "Sign-in: username and password required" (the same texts as the contracts' loginSchema). */
const REQUIRED = { username: 'Username is required', password: 'Password is required' } as const;
type Field = keyof typeof REQUIRED;

/**
 * The sign-in form (spec §2 /auth, §5): username prefilled with admin, password empty, both
 * required; 'Sign In', and 'Signing in...' while pending. Lives in ui-kit so each remote's
 * standalone dev page signs in the same way the shell does.
 *
 * Plain state instead of formik + yup on purpose: this is the only form on the page loaded before
 * sign-in, which has a size budget (formik + yup + lodash are ~22 KB gzipped); every form behind
 * sign-in uses formik with the contracts' schemas.
 */
export function SignInForm({ onSignedIn }: { onSignedIn?: () => void }) {
  const { login } = useAuth();
  const [values, setValues] = useState({ username: 'admin', password: '' });
  const [touched, setTouched] = useState({ username: false, password: false });
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);

  const errors: Partial<Record<Field, string>> = {};
  if (!values.username.trim()) errors.username = REQUIRED.username;
  if (!values.password) errors.password = REQUIRED.password;
  const shown = (field: Field) => (touched[field] ? errors[field] : undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ username: true, password: true });
    if (errors.username || errors.password || pending) return;
    setPending(true);
    setFailed(false);
    try {
      await login(values.username.trim(), values.password);
      onSignedIn?.();
    } catch {
      // The toast tells the details; keep a short note by the form as well.
      setFailed(true);
    } finally {
      setPending(false);
    }
  };

  const field = (name: Field) => ({
    id: name,
    name,
    value: values[name],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
    onBlur: () => setTouched((t) => ({ ...t, [name]: true })),
    error: Boolean(shown(name)),
    helperText: shown(name),
    required: true,
  });

  return (
    <Stack component="form" noValidate spacing={2.5} onSubmit={submit} aria-label="Sign in">
      {failed && !pending && <Alert severity="error">Login failed</Alert>}
      <TextField label="Username" autoComplete="username" {...field('username')} />
      <TextField label="Password" type="password" autoComplete="current-password" {...field('password')} />
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={pending}
        startIcon={pending ? <CircularProgress size={18} color="inherit" /> : undefined}
      >
        {pending ? 'Signing in...' : 'Sign In'}
      </Button>
    </Stack>
  );
}
