import { Formik, Form, type FormikHelpers } from 'formik';
import {
  Box,
  Button,
  CircularProgress,
  Divider,
  Drawer,
  FormControlLabel,
  IconButton,
  InputAdornment,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import type { EmailTemplateSummary, WebhookIntegration } from '@act/contracts/src/email-api';
import { REMINDER_DELAY_MAX, REMINDER_DELAY_MIN } from '@act/contracts/src/email-api';
import {
  formValuesOf,
  integrationFormSchema,
  isDefaultIntegration,
  templateChoices,
  type IntegrationFormValues,
} from './integrationForm';

export interface IntegrationDrawerProps {
  open: boolean;
  /** null: a new integration. */
  editing: WebhookIntegration | null;
  templates: EmailTemplateSummary[] | undefined;
  templatesError?: boolean;
  onClose: () => void;
  /** Resolves true when saved (the sheet then closes). */
  onSubmit: (values: IntegrationFormValues) => Promise<boolean>;
}

/** The side sheet of section 2: New Integration / Edit Integration. */
export function IntegrationDrawer({
  open,
  editing,
  templates,
  templatesError,
  onClose,
  onSubmit,
}: IntegrationDrawerProps) {
  const isDefault = isDefaultIntegration(editing);
  const choices = templateChoices(templates);
  // A stored choice that is no longer offered stays visible instead of leaving the select blank.
  const current = editing?.resend_template_id ?? null;
  const orphan = current !== null && !choices.some((t) => t.id === current) ? current : null;

  async function submit(values: IntegrationFormValues, helpers: FormikHelpers<IntegrationFormValues>) {
    const saved = await onSubmit(values);
    helpers.setSubmitting(false);
    if (saved) onClose();
  }

  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: 460 } } } }}
    >
      <Formik<IntegrationFormValues>
        // A new key per opening starts the form from the integration being edited (or blank).
        key={`${open}-${editing?.id ?? 'new'}`}
        initialValues={formValuesOf(editing)}
        validationSchema={integrationFormSchema}
        onSubmit={submit}
      >
        {({ values, errors, touched, handleChange, handleBlur, setFieldValue, isSubmitting }) => (
          <Box
            component={Form}
            noValidate
            aria-labelledby="integration-drawer-title"
            sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}
          >
            <Stack direction="row" sx={{ px: 3, py: 2.5, alignItems: 'center', justifyContent: 'space-between' }}>
              <Box>
                <Typography id="integration-drawer-title" variant="h6" component="h2" sx={{ fontWeight: 700 }}>
                  {editing ? 'Edit Integration' : 'New Integration'}
                </Typography>
                <Typography variant="body2" color="textSecondary">
                  {editing
                    ? 'Change how this funnel’s contacts are reminded.'
                    : 'Connect a funnel and choose how its contacts are reminded.'}
                </Typography>
              </Box>
              <IconButton aria-label="Close" onClick={onClose} disabled={isSubmitting}>
                <CloseIcon />
              </IconButton>
            </Stack>
            <Divider />
            <Stack spacing={2.5} sx={{ px: 3, py: 3, flex: 1, overflowY: 'auto' }}>
              <TextField
                name="name"
                label="Name"
                required
                value={values.name}
                onChange={handleChange}
                onBlur={handleBlur}
                error={touched.name && Boolean(errors.name)}
                helperText={touched.name && errors.name}
                autoFocus
              />
              <TextField
                name="funnel_id"
                label="Funnel ID"
                required
                value={values.funnel_id}
                onChange={handleChange}
                onBlur={handleBlur}
                disabled={isDefault}
                error={touched.funnel_id && Boolean(errors.funnel_id)}
                helperText={
                  (touched.funnel_id && errors.funnel_id) ||
                  (isDefault
                    ? 'The default integration’s funnel ID cannot be changed.'
                    : 'Exactly as your funnel builder sends it.')
                }
                slotProps={{ htmlInput: { sx: { fontFamily: 'monospace' } } }}
              />
              <TextField
                name="reminder_delay"
                label="Reminder Delay (minutes)"
                type="number"
                required
                value={values.reminder_delay}
                onChange={handleChange}
                onBlur={handleBlur}
                error={touched.reminder_delay && Boolean(errors.reminder_delay)}
                helperText={
                  (touched.reminder_delay && errors.reminder_delay) ||
                  `Between ${REMINDER_DELAY_MIN} and ${REMINDER_DELAY_MAX} minutes.`
                }
                slotProps={{
                  htmlInput: { min: REMINDER_DELAY_MIN, max: REMINDER_DELAY_MAX },
                  input: { endAdornment: <InputAdornment position="end">minutes</InputAdornment> },
                }}
              />
              <TextField
                select
                name="resend_template_id"
                label="Resend Email Template"
                value={values.resend_template_id}
                onChange={(e) =>
                  setFieldValue('resend_template_id', e.target.value === '' ? '' : Number(e.target.value))
                }
                helperText={templatesError ? 'Templates could not be loaded.' : 'The email sent as the reminder.'}
                slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
              >
                <MenuItem value="">
                  <em>None</em>
                </MenuItem>
                {choices.map((t) => (
                  <MenuItem key={t.id} value={t.id}>
                    {t.name}
                    {!t.active && (
                      <Typography component="span" variant="caption" color="textSecondary" sx={{ ml: 1 }}>
                        (inactive)
                      </Typography>
                    )}
                  </MenuItem>
                ))}
                {orphan !== null && (
                  <MenuItem value={orphan}>
                    {templates?.find((t) => t.id === orphan)?.name ?? `Template ID: ${orphan}`}
                    <Typography component="span" variant="caption" color="textSecondary" sx={{ ml: 1 }}>
                      (not offered: inactive or another type)
                    </Typography>
                  </MenuItem>
                )}
              </TextField>
              <TextField
                name="checkout_fallback_url"
                label="Fallback checkout link"
                value={values.checkout_fallback_url}
                onChange={handleChange}
                onBlur={handleBlur}
                error={touched.checkout_fallback_url && Boolean(errors.checkout_fallback_url)}
                helperText={
                  (touched.checkout_fallback_url && errors.checkout_fallback_url) ||
                  'Used for {{recoveryUrl}} when the funnel sends no checkout link. Without it such an email is skipped, never sent with an empty link.'
                }
                placeholder="https://shop.example.com/cart"
              />
              <FormControlLabel
                control={<Switch name="active" checked={values.active} onChange={handleChange} />}
                label={
                  <Box>
                    <Typography>Active</Typography>
                    <Typography variant="caption" color="textSecondary">
                      Inactive integrations are skipped; their funnel falls back to the default integration.
                    </Typography>
                  </Box>
                }
                sx={{ alignItems: 'flex-start', ml: 0, gap: 1, '& .MuiSwitch-root': { mt: -0.5 } }}
              />
            </Stack>
            <Divider />
            <Stack direction="row" spacing={1.5} sx={{ px: 3, py: 2, justifyContent: 'flex-end' }}>
              <Button color="inherit" onClick={onClose} disabled={isSubmitting}>
                Cancel
              </Button>
              <Button
                type="submit"
                variant="contained"
                disabled={isSubmitting}
                startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
              >
                {editing ? 'Update' : 'Create'}
              </Button>
            </Stack>
          </Box>
        )}
      </Formik>
    </Drawer>
  );
}
