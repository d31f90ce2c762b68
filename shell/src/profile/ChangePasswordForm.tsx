import { Button, Stack } from '@mui/material';
import { useFormik } from 'formik';
import { changePasswordSchema, type ChangePasswordInput } from '@act/contracts/src/auth';
import { apiRequest, serverMessage, useToast } from '@act/ui-kit';
import { PasswordField } from '../forms/PasswordField';

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
      <PasswordField form={form} name="currentPassword" label="Current Password" autoComplete="current-password" />
      <PasswordField form={form} name="newPassword" label="New Password" />
      <PasswordField form={form} name="confirmPassword" label="Confirm New Password" />
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" disabled={form.isSubmitting}>
          Change Password
        </Button>
      </Stack>
    </Stack>
  );
}
