import { MenuItem, Stack, TextField } from '@mui/material';
import { FormDialog } from '@act/ui-kit/src/FormDialog';
import { useFormik } from 'formik';
import {
  createUserSchema,
  updateUserSchema,
  type CreateUserInput,
  type UserRole,
  type UpdateUserInput,
  type User,
} from '@act/contracts/src/auth';
import { PasswordField } from '../forms/PasswordField';
import { fieldProps, optional } from '../forms/fieldProps';

interface Values {
  username: string;
  password: string;
  full_name: string;
  email: string;
  role: UserRole | '';
}

export type UserFormResult = { mode: 'create'; body: CreateUserInput } | { mode: 'edit'; body: UpdateUserInput };

/**
 * 'Create New User' (username, password, full name, email, role) and 'Edit User' (full name,
 * email, role; the username is shown read-only). An admin editing themselves cannot change role.
 */
export function UserFormDialog({
  open,
  user,
  isSelf,
  onClose,
  onSubmit,
}: {
  open: boolean;
  /** null: create mode. */
  user: User | null;
  isSelf: boolean;
  onClose: () => void;
  onSubmit: (result: UserFormResult) => Promise<boolean>;
}) {
  const editing = Boolean(user);
  const form = useFormik<Values>({
    initialValues: {
      username: user?.username ?? '',
      password: '',
      full_name: user?.full_name ?? '',
      email: user?.email ?? '',
      role: user?.role ?? 'user',
    },
    enableReinitialize: true,
    validationSchema: editing ? updateUserSchema : createUserSchema,
    onSubmit: async (values, helpers) => {
      const common = {
        full_name: optional(values.full_name),
        email: optional(values.email),
        role: values.role as UserRole,
      };
      const ok = await onSubmit(
        editing
          ? { mode: 'edit', body: common }
          : { mode: 'create', body: { ...common, username: values.username.trim(), password: values.password } },
      );
      if (ok) helpers.resetForm();
    },
  });

  const close = () => {
    if (form.isSubmitting) return;
    form.resetForm();
    onClose();
  };

  return (
    <FormDialog
      open={open}
      title={editing ? 'Edit User' : 'Create New User'}
      onSubmit={form.handleSubmit}
      onCancel={close}
      busy={form.isSubmitting}
      submitLabel={editing ? 'Save Changes' : 'Create User'}
    >
      <Stack spacing={2.5} sx={{ pt: 1 }}>
        {editing ? (
          <TextField label="Username" value={user?.username ?? ''} slotProps={{ input: { readOnly: true } }} />
        ) : (
          <>
            <TextField label="Username" autoComplete="off" required {...fieldProps(form, 'username')} />
            <PasswordField form={form} name="password" label="Password" required />
          </>
        )}
        <TextField label="Full Name" {...fieldProps(form, 'full_name')} />
        <TextField label="Email" type="email" {...fieldProps(form, 'email')} />
        <TextField
          select
          label="Role"
          required
          {...fieldProps(form, 'role')}
          disabled={isSelf}
          helperText={fieldProps(form, 'role').helperText ?? (isSelf ? 'You cannot change your own role' : undefined)}
        >
          <MenuItem value="user">User</MenuItem>
          <MenuItem value="admin">Administrator</MenuItem>
        </TextField>
      </Stack>
    </FormDialog>
  );
}
