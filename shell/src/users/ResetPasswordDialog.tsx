import { DialogContentText, Stack } from '@mui/material';
import { FormDialog } from '@act/ui-kit/src/FormDialog';
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
    <FormDialog
      open={Boolean(user)}
      maxWidth="xs"
      title="Reset Password"
      onSubmit={form.handleSubmit}
      onCancel={close}
      busy={form.isSubmitting}
      submitLabel="Reset Password"
    >
      <DialogContentText sx={{ mb: 2 }}>Set a new password for {user?.username}.</DialogContentText>
      <Stack spacing={2.5}>
        <PasswordField form={form} name="password" label="New Password" />
        <PasswordField form={form} name="confirmPassword" label="Confirm Password" />
      </Stack>
    </FormDialog>
  );
}
