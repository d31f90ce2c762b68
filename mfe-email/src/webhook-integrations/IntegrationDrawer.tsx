import { useId } from 'react';
import { Formik, type FormikHelpers } from 'formik';
import { Box, FormControlLabel, InputAdornment, MenuItem, Stack, Switch, TextField, Typography } from '@mui/material';
import { FormDialogFrame, FormDialogSurface, formikField } from '@act/ui-kit/src/FormDialog';
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

/** The side sheet of section 2: New Integration / Edit Integration (ui-kit's form dialog as a sheet). */
export function IntegrationDrawer({
  open,
  editing,
  templates,
  templatesError,
  onClose,
  onSubmit,
}: IntegrationDrawerProps) {
  const titleId = useId();
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
    <FormDialogSurface variant="sheet" open={open} onClose={onClose} titleId={titleId}>
      <Formik<IntegrationFormValues>
        // A new key per opening starts the form from the integration being edited (or blank).
        key={`${open}-${editing?.id ?? 'new'}`}
        initialValues={formValuesOf(editing)}
        validationSchema={integrationFormSchema}
        onSubmit={submit}
      >
        {(form) => (
          <FormDialogFrame
            titleId={titleId}
            title={editing ? 'Edit Integration' : 'New Integration'}
            subtitle={
              editing
                ? 'Change how this funnel’s contacts are reminded.'
                : 'Connect a funnel and choose how its contacts are reminded.'
            }
            closeButton
            dividers
            onSubmit={form.handleSubmit}
            onCancel={onClose}
            busy={form.isSubmitting}
            submitLabel={editing ? 'Update' : 'Create'}
          >
            <Stack spacing={2.5} sx={{ py: 1 }}>
              <TextField {...formikField(form, 'name')} label="Name" required autoFocus />
              <TextField
                {...formikField(
                  form,
                  'funnel_id',
                  isDefault
                    ? 'The default integration’s funnel ID cannot be changed.'
                    : 'Exactly as your funnel builder sends it.',
                )}
                label="Funnel ID"
                required
                disabled={isDefault}
                slotProps={{ htmlInput: { sx: { fontFamily: 'monospace' } } }}
              />
              <TextField
                {...formikField(
                  form,
                  'reminder_delay',
                  `Between ${REMINDER_DELAY_MIN} and ${REMINDER_DELAY_MAX} minutes.`,
                )}
                label="Reminder Delay (minutes)"
                type="number"
                required
                slotProps={{
                  htmlInput: { min: REMINDER_DELAY_MIN, max: REMINDER_DELAY_MAX },
                  input: { endAdornment: <InputAdornment position="end">minutes</InputAdornment> },
                }}
              />
              <TextField
                select
                name="resend_template_id"
                label="Resend Email Template"
                value={form.values.resend_template_id}
                onChange={(e) =>
                  form.setFieldValue('resend_template_id', e.target.value === '' ? '' : Number(e.target.value))
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
                {...formikField(
                  form,
                  'checkout_fallback_url',
                  'Used for {{recoveryUrl}} when the funnel sends no checkout link. Without it such an email is skipped, never sent with an empty link.',
                )}
                label="Fallback checkout link"
                placeholder="https://shop.example.com/cart"
              />
              <FormControlLabel
                control={<Switch name="active" checked={form.values.active} onChange={form.handleChange} />}
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
          </FormDialogFrame>
        )}
      </Formik>
    </FormDialogSurface>
  );
}
