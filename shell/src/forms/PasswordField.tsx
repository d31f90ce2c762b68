import { TextField, type TextFieldProps } from '@mui/material';
import type { FormikProps } from 'formik';
import { fieldProps } from './fieldProps';

/** A password TextField bound to a formik field; autoComplete "new-password" unless told otherwise. */
export function PasswordField<V extends object>({
  form,
  name,
  autoComplete = 'new-password',
  ...rest
}: { form: FormikProps<V>; name: keyof V & string; label: string; autoComplete?: string } & Omit<
  TextFieldProps,
  'name' | 'type' | 'autoComplete'
>) {
  return <TextField type="password" autoComplete={autoComplete} {...rest} {...fieldProps(form, name)} />;
}
