import { Button, Stack, TextField } from '@mui/material';
import { useFormik } from 'formik';
import { profileSchema, type ProfileInput } from '@act/contracts/src/auth';
import { apiRequest, serverMessage, useAuth, useToast, type CurrentUser } from '@act/ui-kit';
import { fieldProps, optional } from '../forms/fieldProps';

/** Profile tab: read-only username, full_name and email; PATCH /api/profile { full_name, email }. */
export function ProfileForm({ user }: { user: CurrentUser }) {
  const { toast } = useToast();
  const { refresh } = useAuth();
  const form = useFormik({
    initialValues: { full_name: user.full_name ?? '', email: user.email ?? '' },
    enableReinitialize: true,
    validationSchema: profileSchema,
    onSubmit: async (values) => {
      const body: ProfileInput = { full_name: optional(values.full_name), email: optional(values.email) };
      try {
        await apiRequest('PATCH', '/api/profile', body);
        await refresh();
        toast({ title: 'Profile Updated', description: 'Your profile has been updated successfully.' });
      } catch (error) {
        toast({
          title: 'Update Failed',
          description: serverMessage(error, 'Failed to update profile'),
          variant: 'destructive',
        });
      }
    },
  });

  return (
    <Stack component="form" noValidate onSubmit={form.handleSubmit} spacing={2.5} aria-label="Profile">
      <TextField
        id="username"
        label="Username"
        value={user.username}
        helperText="Your username cannot be changed"
        slotProps={{ input: { readOnly: true }, htmlInput: { 'aria-readonly': true } }}
        sx={{ '& .MuiInputBase-root': { bgcolor: 'action.hover' } }}
      />
      <TextField label="Full Name" autoComplete="name" {...fieldProps(form, 'full_name')} />
      <TextField label="Email" type="email" autoComplete="email" {...fieldProps(form, 'email')} />
      <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end' }}>
        <Button type="button" color="inherit" onClick={() => form.resetForm()} disabled={form.isSubmitting}>
          Reset
        </Button>
        <Button type="submit" variant="contained" disabled={form.isSubmitting}>
          Save Changes
        </Button>
      </Stack>
    </Stack>
  );
}
