import { Button, Stack, TextField } from '@mui/material';
import { useFormik } from 'formik';
import { changePasswordSchema, type ChangePasswordInput } from '@act/contracts/src/auth';
import { apiRequest, serverMessage, useToast } from '@act/ui-kit';
import { fieldProps } from '../forms/fieldProps';

const empty: ChangePasswordInput = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** Change Password tab: POST /api/profile/change-password { currentPassword, newPassword, confirmPassword }. */
export function ChangePasswordForm() {
  const { toast } = useToast();
  const form = useFormik({
    initialValues: empty,
    validationSchema: changePasswordSchema,
    onSubmit: async (values, helpers) => {
      try {
        const result = await apiRequest<{ message?: string }>('POST', '/api/profile/change-password', values);
        toast({
          title: 'Password Changed',
          description: result?.message ?? 'Your password has been changed successfully.',
        });
        helpers.resetForm();
      } catch (error) {
        toast({
          title: 'Password Change Failed',
          description: serverMessage(error, 'Failed to change password'),
          variant: 'destructive',
        });
      }
    },
  });

  return (
    <Stack component="form" noValidate onSubmit={form.handleSubmit} spacing={2.5} aria-label="Change password">
      <TextField
        label="Current Password"
        type="password"
        autoComplete="current-password"
        {...fieldProps(form, 'currentPassword')}
      />
      <TextField
        label="New Password"
        type="password"
        autoComplete="new-password"
        {...fieldProps(form, 'newPassword')}
      />
      <TextField
        label="Confirm New Password"
        type="password"
        autoComplete="new-password"
        {...fieldProps(form, 'confirmPassword')}
      />
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" disabled={form.isSubmitting}>
          Change Password
        </Button>
      </Stack>
    </Stack>
  );
}
