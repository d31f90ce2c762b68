import { useFormik } from 'formik';
import { PICKUP_WINDOW_DAYS } from '@act/contracts/src/sms-pickup';
import { FormControlLabel, InputAdornment, MenuItem, Stack, Switch, TextField, Typography } from '@mui/material';
import { apiRequest, serverMessage } from '@act/ui-kit';
import { FormDialog, formikField } from '@act/ui-kit/src/FormDialog';
import {
  DEFAULT_REMINDER_DELAY,
  smsIntegrationSchema,
  type SmsCampaign,
  type SmsIntegration,
} from '@act/contracts/src/sms-api';
import { SMS_KEYS } from '../shared/keys';
import { parseReminderDelay } from '../shared/format';
import { useNotify } from '../shared/notify';
import { useRefetch } from '../shared/refetch';

interface FormValues {
  name: string;
  funnel_id: string;
  /** '' is 'No Campaign'. */
  sms_campaign_id: string;
  reminder_delay: string;
  active: boolean;
  /** '' is none. */
  checkout_fallback_url: string;
  /** A new integration only: create the email side's integration for the same funnel too. */
  with_email: boolean;
}

/** The email side's integrations (its own service): one funnel id has one record per side. */
const EMAIL_INTEGRATIONS = '/api/webhook-integrations';

function initialValues(integration: SmsIntegration | null): FormValues {
  return {
    name: integration?.name ?? '',
    funnel_id: integration?.funnel_id ?? '',
    sms_campaign_id: integration?.sms_campaign_id ? String(integration.sms_campaign_id) : '',
    reminder_delay: String(integration?.reminder_delay ?? DEFAULT_REMINDER_DELAY),
    active: integration?.active ?? true,
    checkout_fallback_url: integration?.checkout_fallback_url ?? '',
    with_email: false,
  };
}

export interface IntegrationDialogProps {
  open: boolean;
  /** null: a new integration. */
  integration: SmsIntegration | null;
  campaigns: SmsCampaign[];
  onClose: () => void;
}

export function IntegrationDialog({ open, integration, campaigns, onClose }: IntegrationDialogProps) {
  const notify = useNotify();
  const refetch = useRefetch();
  const editing = integration !== null;

  const form = useFormik<FormValues>({
    initialValues: initialValues(integration),
    validationSchema: smsIntegrationSchema,
    onSubmit: async (values) => {
      const body = {
        name: values.name.trim(),
        funnel_id: values.funnel_id.trim(),
        // 'No Campaign' clears the link (section 5).
        sms_campaign_id: values.sms_campaign_id ? Number(values.sms_campaign_id) : null,
        reminder_delay: parseReminderDelay(values.reminder_delay),
        active: values.active,
        // Sent when set, and on edit (an emptied field clears it); a new integration without one sends the spec's body.
        ...(values.checkout_fallback_url.trim() || editing
          ? { checkout_fallback_url: values.checkout_fallback_url.trim() || null }
          : {}),
      };
      try {
        if (editing) await apiRequest('PATCH', `${SMS_KEYS.integrations}/${integration.id}`, body);
        else await apiRequest('POST', SMS_KEYS.integrations, body);
        notify.success(
          editing ? 'SMS webhook integration updated successfully' : 'SMS webhook integration created successfully',
        );
        // The email side's record after the SMS one: a refusal there (the funnel id taken) leaves the SMS one created
        // and says so; the dialog closes, since sending it again would be refused by the SMS side.
        if (!editing && values.with_email) {
          try {
            await apiRequest('POST', EMAIL_INTEGRATIONS, { name: body.name, funnel_id: body.funnel_id, reminder_delay: body.reminder_delay });
            notify.success(`Email integration ${body.name} created: choose its email campaign on Webhook Integrations`);
          } catch (err) {
            notify.error(`The SMS integration ${body.name} was created; the email integration was not: ${serverMessage(err, 'failed')}`);
          }
        }
        // Campaign cards show the integration's name, contacts are matched to integrations by funnel.
        await refetch(SMS_KEYS.integrations, SMS_KEYS.campaigns);
        onClose();
      } catch (err) {
        notify.error(serverMessage(err, 'Failed to save SMS webhook integration'));
      }
    },
  });

  const busy = form.isSubmitting;

  return (
    <FormDialog
      open={open}
      title={editing ? 'Edit SMS Integration' : 'Add SMS Integration'}
      onSubmit={form.handleSubmit}
      onCancel={onClose}
      busy={busy}
      submitLabel={editing ? 'Update' : 'Create'}
    >
      <Stack spacing={2.5} sx={{ pt: 1 }}>
        <TextField
          label="Name"
          required
          autoFocus
          {...formikField(form, 'name', 'Shown on the cards and in statistics.')}
        />
        <TextField
          label="Funnel ID"
          required
          {...formikField(
            form,
            'funnel_id',
            editing
              ? 'The funnel whose webhooks start this SMS sequence.'
              : `The funnel whose webhooks start this SMS sequence. Its contacts with a phone from the last ${PICKUP_WINDOW_DAYS} days, received before this integration existed, are picked up when you create it.`,
          )}
          slotProps={{ htmlInput: { style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' } } }}
        />
        <TextField
          select
          label="Campaign"
          name="sms_campaign_id"
          value={form.values.sms_campaign_id}
          onChange={form.handleChange}
          helperText="The SMS campaign whose templates are sent to this funnel's contacts."
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">
            <em>No Campaign</em>
          </MenuItem>
          {campaigns.map((c) => (
            <MenuItem key={c.id} value={String(c.id)}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Reminder Delay"
          type="number"
          {...formikField(
            form,
            'reminder_delay',
            'How long after the contact arrives the first SMS is due (default 30).',
          )}
          slotProps={{
            htmlInput: { min: 1, step: 1 },
            input: { endAdornment: <InputAdornment position="end">minutes</InputAdornment> },
          }}
        />
        <TextField
          label="Fallback checkout link"
          {...formikField(
            form,
            'checkout_fallback_url',
            'Used for {{checkoutUrl}} when the funnel sends none. Without it such a message is skipped, never sent with an empty link.',
          )}
          placeholder="https://shop.example.com/cart"
        />
        <FormControlLabel
          control={<Switch name="active" checked={form.values.active} onChange={form.handleChange} />}
          label="Active"
        />
        {!editing && (
          <FormControlLabel
            control={<Switch name="with_email" checked={form.values.with_email} onChange={form.handleChange} />}
            label={
              <>
                Email reminders too
                <Typography variant="caption" color="textSecondary" sx={{ display: 'block' }}>
                  Also creates the email integration of this funnel (same name and delay); its email campaign is chosen
                  on Webhook Integrations, where one form creates email, SMS or both.
                </Typography>
              </>
            }
          />
        )}
      </Stack>
    </FormDialog>
  );
}
