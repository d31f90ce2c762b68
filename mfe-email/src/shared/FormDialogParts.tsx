import type { ChangeEvent, ReactNode } from 'react';
import { FormControlLabel, Switch, type SxProps, type Theme } from '@mui/material';
import { FormDialogActions as UiFormDialogActions } from '@act/ui-kit/src/FormDialog';

/** Cancel, then the form's submit button with a spinner while `busy` (ui-kit's, for the dialogs not on FormDialog). */
export function FormDialogActions({
  busy,
  onCancel,
  children,
  submitDisabled = false,
  icon,
  sx = { px: 3, py: 2 },
}: {
  busy: boolean;
  onCancel: () => void;
  /** The submit button's label. */
  children: ReactNode;
  /** Disables the submit button on top of `busy`. */
  submitDisabled?: boolean;
  /** The submit button's icon while not busy. */
  icon?: ReactNode;
  sx?: SxProps<Theme>;
}) {
  return (
    <UiFormDialogActions
      busy={busy}
      onCancel={onCancel}
      submitLabel={children}
      submitDisabled={submitDisabled}
      submitIcon={icon}
      sx={sx}
    />
  );
}

/** The 'Active' switch of a create/edit form (a formik boolean field named `active`). */
export function ActiveSwitch({
  checked,
  onChange,
  disabled,
}: {
  checked: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  disabled?: boolean;
}) {
  return (
    <FormControlLabel
      control={<Switch name="active" checked={checked} onChange={onChange} disabled={disabled} />}
      label="Active"
    />
  );
}
