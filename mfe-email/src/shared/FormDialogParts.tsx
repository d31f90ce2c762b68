import type { ChangeEvent, ReactNode } from 'react';
import {
  Button,
  CircularProgress,
  DialogActions,
  FormControlLabel,
  Switch,
  type SxProps,
  type Theme,
} from '@mui/material';

/** Cancel, then the form's submit button with a spinner while `busy`; both disabled while busy. */
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
    <DialogActions sx={sx}>
      <Button color="inherit" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button
        type="submit"
        variant="contained"
        disabled={submitDisabled || busy}
        startIcon={busy ? <CircularProgress size={16} color="inherit" /> : icon}
      >
        {children}
      </Button>
    </DialogActions>
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
