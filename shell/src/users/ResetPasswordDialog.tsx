import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack } from '@mui/material';
import { useFormik } from 'formik';
import { resetPasswordFormSchema, type User } from '@act/contracts/src/auth';
import { PasswordField } from '../forms/PasswordField';

/** 'Reset Password': new password and confirmation; only `password` is sent. */
export function ResetPasswordDialog({
  user,
  onClose,
  onSubmit,
}: {
  user: User | null;
  onClose: () => void;
  onSubmit: (password: string) => Promise<boolean>;
}) {
  const form = useFormik({
    initialValues: { password: '', confirmPassword: '' },
    validationSchema: resetPasswordFormSchema,
    onSubmit: async (values, helpers) => {
      if (await onSubmit(values.password)) helpers.resetForm();
    },
  });
  const close = () => {
    if (form.isSubmitting) return;
    form.resetForm();
    onClose();
  };

  return (
    <Dialog open={Boolean(user)} onClose={close} fullWidth maxWidth="xs" aria-labelledby="reset-password-title">
      <form noValidate onSubmit={form.handleSubmit}>
        <DialogTitle id="reset-password-title">Reset Password</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>Set a new password for {user?.username}.</DialogContentText>
          <Stack spacing={2.5}>
            <PasswordField form={form} name="password" label="New Password" />
            <PasswordField form={form} name="confirmPassword" label="Confirm Password" />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close} color="inherit" disabled={form.isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={form.isSubmitting}>
            Reset Password
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
