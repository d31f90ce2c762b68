import { useId } from 'react';
import { Formik, type FormikHelpers } from 'formik';
import {
  Box,
  FormControl,
  FormControlLabel,
  FormLabel,
  InputAdornment,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { FormDialogFrame, FormDialogSurface, formikField } from '@act/ui-kit/src/FormDialog';
import type { EmailCampaign, EmailTemplateSummary, WebhookIntegration } from '@act/contracts/src/email-api';
import type { SmsCampaign } from '@act/contracts/src/sms-api';
import { REMINDER_DELAY_MAX, REMINDER_DELAY_MIN } from '@act/contracts/src/email-api';
import { PICKUP_WINDOW_DAYS } from '@act/contracts/src/sms-pickup';
import {
  CHANNEL_CHOICES,
  campaignChoices,
  formValuesOf,
  includesEmail,
  includesSms,
  integrationFormSchema,
  isDefaultIntegration,
  templateChoices,
  type Channels,
  type IntegrationFormValues,
} from './integrationForm';

export interface IntegrationDrawerProps {
  open: boolean;
  /** null: a new integration. */
  editing: WebhookIntegration | null;
  templates: EmailTemplateSummary[] | undefined;
  templatesError?: boolean;
  campaigns: EmailCampaign[] | undefined;
  campaignsError?: boolean;
  /** The SMS side's campaigns, for a new integration created on both sides (undefined while they load). */
  smsCampaigns: SmsCampaign[] | undefined;
  smsCampaignsError?: boolean;
  /** The chosen sides changed (the page loads the SMS campaigns only once SMS is chosen). */
  onChannelsChange?: (channels: Channels) => void;
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
  campaigns,
  campaignsError,
  smsCampaigns,
  smsCampaignsError,
  onChannelsChange,
  onClose,
  onSubmit,
}: IntegrationDrawerProps) {
  const titleId = useId();
  const isDefault = isDefaultIntegration(editing);
  const choices = templateChoices(templates);
  // A stored choice that is no longer offered stays visible instead of leaving the select blank.
  const current = editing?.resend_template_id ?? null;
  const orphan = current !== null && !choices.some((t) => t.id === current) ? current : null;
  const campaignOptions = campaignChoices(campaigns);
  const currentCampaign = editing?.campaign_id ?? null;
  const orphanCampaign =
    currentCampaign !== null && !campaignOptions.some((c) => c.id === currentCampaign) ? currentCampaign : null;
  const numberOrEmpty = (value: string): number | '' => (value === '' ? '' : Number(value));

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
              {!editing && (
                <FormControl>
                  <FormLabel id={`${titleId}-channels`}>Reminders by</FormLabel>
                  <RadioGroup
                    row
                    aria-labelledby={`${titleId}-channels`}
                    name="channels"
                    value={form.values.channels}
                    onChange={(e) => {
                      const channels = e.target.value as Channels;
                      void form.setFieldValue('channels', channels);
                      onChannelsChange?.(channels);
                    }}
                  >
                    {CHANNEL_CHOICES.map((c) => (
                      <FormControlLabel
                        key={c.value}
                        value={c.value}
                        control={<Radio size="small" />}
                        label={c.label}
                      />
                    ))}
                  </RadioGroup>
                  <Typography variant="caption" color="textSecondary">
                    {form.values.channels === 'both'
                      ? 'Creates an email integration and an SMS integration for this funnel ID: two records, each edited on its own page.'
                      : form.values.channels === 'sms'
                        ? 'Creates the SMS integration for this funnel ID; it is then edited on SMS Webhooks.'
                        : 'Creates the email integration for this funnel ID.'}
                    {includesSms(form.values.channels) &&
                      ` Its contacts with a phone from the last ${PICKUP_WINDOW_DAYS} days, received before the SMS integration existed, are picked up when it is created.`}
                  </Typography>
                </FormControl>
              )}
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
              {includesEmail(form.values.channels) && (
                <TextField
                  select
                  name="campaign_id"
                  label="Email campaign"
                  value={form.values.campaign_id}
                  onChange={(e) => form.setFieldValue('campaign_id', numberOrEmpty(e.target.value))}
                  helperText={
                    campaignsError
                      ? 'Campaigns could not be loaded.'
                      : 'Its active templates, in order, are the reminders sent. None: the one template below is sent.'
                  }
                  slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
                >
                  <MenuItem value="">
                    <em>None</em>
                  </MenuItem>
                  {campaignOptions.map((c) => (
                    <MenuItem key={c.id} value={c.id}>
                      {c.name}
                    </MenuItem>
                  ))}
                  {orphanCampaign !== null && (
                    <MenuItem value={orphanCampaign}>
                      {campaigns?.find((c) => c.id === orphanCampaign)?.name ?? `Campaign ID: ${orphanCampaign}`}
                      <Typography component="span" variant="caption" color="textSecondary" sx={{ ml: 1 }}>
                        (inactive or deleted)
                      </Typography>
                    </MenuItem>
                  )}
                </TextField>
              )}
              {includesEmail(form.values.channels) && (
                <TextField
                  select
                  name="resend_template_id"
                  label="Resend Email Template"
                  value={form.values.resend_template_id}
                  onChange={(e) => form.setFieldValue('resend_template_id', numberOrEmpty(e.target.value))}
                  helperText={
                    templatesError
                      ? 'Templates could not be loaded.'
                      : form.values.campaign_id === ''
                        ? 'The email sent as the reminder.'
                        : 'Not used while a campaign is chosen: the campaign’s templates are sent.'
                  }
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
              )}
              {includesSms(form.values.channels) && (
                <TextField
                  select
                  name="sms_campaign_id"
                  label="SMS campaign"
                  value={form.values.sms_campaign_id}
                  onChange={(e) => form.setFieldValue('sms_campaign_id', numberOrEmpty(e.target.value))}
                  helperText={
                    smsCampaignsError
                      ? 'SMS campaigns could not be loaded.'
                      : 'The texts sent to contacts of this funnel who gave a phone number.'
                  }
                  slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
                >
                  <MenuItem value="">
                    <em>No Campaign</em>
                  </MenuItem>
                  {(smsCampaigns ?? []).map((c) => (
                    <MenuItem key={c.id} value={c.id}>
                      {c.name}
                      {!c.active && (
                        <Typography component="span" variant="caption" color="textSecondary" sx={{ ml: 1 }}>
                          (inactive)
                        </Typography>
                      )}
                    </MenuItem>
                  ))}
                </TextField>
              )}
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
