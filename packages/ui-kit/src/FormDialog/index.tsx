import { useId, type ChangeEvent, type FocusEvent, type FormEvent, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Drawer,
  IconButton,
  Typography,
  type DialogProps,
  type SxProps,
  type Theme,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';

/** A centred dialog, or a side sheet from the right edge (full width on a phone) for a longer form beside the page. */
export type FormDialogVariant = 'dialog' | 'sheet';

export interface FormDialogFrameProps {
  title: ReactNode;
  /** A quiet line under the title (what the form belongs to). */
  subtitle?: ReactNode;
  /** The form's fields. */
  children: ReactNode;
  /** formik's `handleSubmit`, or a handler of the form's submit (Enter in a field, or the submit button). */
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** Cancel's action. */
  onCancel: () => void;
  /** The submit button's label. */
  submitLabel: ReactNode;
  /** The submit button's icon while not busy. */
  submitIcon?: ReactNode;
  /** Disables the submit button on top of `busy`. */
  submitDisabled?: boolean;
  /** Submitting: both buttons are disabled and the submit button spins. */
  busy?: boolean;
  /** A message under the fields (a refused submit), shown as an error alert. */
  error?: ReactNode;
  /** The error alert's `data-testid`. */
  errorTestId?: string;
  /** At the start of the buttons' row, apart from Cancel and submit (an edit form's Delete). */
  secondaryAction?: ReactNode;
  /** Lines between title, fields and buttons (a long form that scrolls). */
  dividers?: boolean;
  /** The title's id, for the dialog's `aria-labelledby`. */
  titleId?: string;
  /** A close button at the title's end (a side sheet's), doing what Cancel does. */
  closeButton?: boolean;
}

/**
 * The inside of a form dialog: a form (Enter submits) holding the title, the fields, an inline error, and Cancel
 * then the submit button with its busy state. `FormDialog` puts it in a Dialog; a dialog that mounts its form only
 * while open (a fresh formik per opening) renders the frame inside its own Dialog.
 */
export function FormDialogFrame({
  title,
  subtitle,
  children,
  onSubmit,
  onCancel,
  submitLabel,
  submitIcon,
  submitDisabled = false,
  busy = false,
  error,
  errorTestId,
  secondaryAction,
  dividers = false,
  titleId,
  closeButton = false,
}: FormDialogFrameProps) {
  return (
    // `display: contents`: title, fields and buttons are the dialog paper's own rows, so the fields scroll between a
    // fixed title and fixed buttons.
    <Box
      component="form"
      noValidate
      onSubmit={(event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        onSubmit(event);
      }}
      sx={{ display: 'contents' }}
    >
      <DialogTitle id={titleId} sx={{ ...(subtitle ? { pb: 0.5 } : {}), ...(closeButton ? { pr: 7 } : {}) }}>
        {title}
      </DialogTitle>
      {closeButton && (
        <IconButton
          aria-label="Close"
          onClick={onCancel}
          disabled={busy}
          sx={{ position: 'absolute', right: 12, top: 12 }}
        >
          <CloseIcon />
        </IconButton>
      )}
      {subtitle && (
        <Typography variant="body2" color="textSecondary" sx={{ px: 3, pb: 1 }}>
          {subtitle}
        </Typography>
      )}
      <DialogContent dividers={dividers}>
        {children}
        {error && (
          <Alert severity="error" data-testid={errorTestId} sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <FormDialogActions
        busy={busy}
        onCancel={onCancel}
        submitLabel={submitLabel}
        submitIcon={submitIcon}
        submitDisabled={submitDisabled}
        secondaryAction={secondaryAction}
        sx={dividers ? { px: 3, py: 2 } : { px: 3, pb: 2 }}
      />
    </Box>
  );
}

/** A form dialog's buttons: an optional secondary action apart, Cancel, then submit (spinning while busy). */
export function FormDialogActions({
  busy = false,
  onCancel,
  submitLabel,
  submitIcon,
  submitDisabled = false,
  secondaryAction,
  sx,
}: Pick<
  FormDialogFrameProps,
  'busy' | 'onCancel' | 'submitLabel' | 'submitIcon' | 'submitDisabled' | 'secondaryAction'
> & { sx?: SxProps<Theme> }) {
  return (
    <DialogActions sx={sx}>
      {secondaryAction && <Box sx={{ mr: 'auto' }}>{secondaryAction}</Box>}
      <Button color="inherit" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button
        type="submit"
        variant="contained"
        disabled={submitDisabled || busy}
        startIcon={busy ? <CircularProgress size={16} color="inherit" /> : submitIcon}
      >
        {submitLabel}
      </Button>
    </DialogActions>
  );
}

export interface FormDialogSurfaceProps {
  open: boolean;
  /** 'sheet': a side sheet (a Drawer from the right, 460 px, the whole width on a phone). */
  variant?: FormDialogVariant;
  /** A dialog's width (a sheet's is fixed). */
  maxWidth?: DialogProps['maxWidth'];
  /** Escape and a click outside call it; without it only the form's own buttons close the surface. */
  onClose?: () => void;
  /** The id of the title inside, which names the surface. */
  titleId: string;
  children: ReactNode;
}

/**
 * What a form dialog sits in: a Dialog, or for the 'sheet' variant a Drawer whose sheet is the dialog (named by the
 * title, focus trap). FormDialog uses it; a form that mounts afresh per opening renders `FormDialogFrame` inside it.
 */
export function FormDialogSurface({
  open,
  variant = 'dialog',
  maxWidth = 'sm',
  onClose,
  titleId,
  children,
}: FormDialogSurfaceProps) {
  if (variant === 'sheet') {
    return (
      <Drawer
        anchor="right"
        open={open}
        onClose={onClose}
        slotProps={{
          // A temporary Drawer's sheet is already role="dialog" and aria-modal; the title names it.
          paper: {
            'aria-labelledby': titleId,
            sx: { width: { xs: '100%', sm: 460 } },
          },
        }}
      >
        {children}
      </Drawer>
    );
  }
  return (
    <Dialog open={open} onClose={onClose} maxWidth={maxWidth} fullWidth aria-labelledby={titleId}>
      {children}
    </Dialog>
  );
}

export interface FormDialogProps extends Omit<FormDialogFrameProps, 'titleId' | 'closeButton'> {
  open: boolean;
  variant?: FormDialogVariant;
  maxWidth?: DialogProps['maxWidth'];
  /** Escape and a click outside close it as Cancel does (never while busy); false: only Cancel closes it. */
  dismissible?: boolean;
}

/**
 * A create / edit / send dialog (the shared form-dialog block): the Dialog, named by its title, around
 * `FormDialogFrame`. Imported by path (`@act/ui-kit/src/FormDialog`) like the other form blocks, so nothing of
 * the forms reaches the sign-in page through the shared ui-kit index.
 */
export function FormDialog({ open, variant = 'dialog', maxWidth, dismissible = true, ...frame }: FormDialogProps) {
  const titleId = useId();
  const sheet = variant === 'sheet';
  return (
    <FormDialogSurface
      open={open}
      variant={variant}
      maxWidth={maxWidth}
      onClose={dismissible && !frame.busy ? frame.onCancel : undefined}
      titleId={titleId}
    >
      <FormDialogFrame dividers={sheet} {...frame} titleId={titleId} closeButton={sheet} />
    </FormDialogSurface>
  );
}

/** The part of a formik form that `formikField` reads (formik's own type is not imported here). */
interface FormikLike<V> {
  values: V;
  errors: Partial<Record<keyof V, unknown>>;
  touched: Partial<Record<keyof V, unknown>>;
  submitCount: number;
  handleChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  handleBlur: (event: FocusEvent) => void;
}

/**
 * A TextField's props bound to a formik field: its value and handlers, and the yup message once the field was
 * left or the form submitted, else `hint` (the field's help line).
 */
export function formikField<V extends object>(form: FormikLike<V>, name: keyof V & string, hint?: ReactNode) {
  const message = formikError(form, name);
  return {
    name,
    value: form.values[name] as string,
    onChange: form.handleChange,
    onBlur: form.handleBlur,
    error: Boolean(message),
    helperText: message ?? hint,
  };
}

/** The yup message of a formik field once it was left or the form submitted (a field that is not a TextField). */
export function formikError<V extends object>(
  form: Pick<FormikLike<V>, 'errors' | 'touched' | 'submitCount'>,
  name: keyof V & string,
): string | undefined {
  const message = form.touched[name] || form.submitCount > 0 ? form.errors[name] : undefined;
  return message ? String(message) : undefined;
}
