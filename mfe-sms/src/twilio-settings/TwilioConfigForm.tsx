import { useState } from 'react';
import { useFormik } from 'formik';
import * as yup from 'yup';
import useSWR, { useSWRConfig } from 'swr';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Collapse,
  FormControlLabel,
  MenuItem,
  Paper,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import SettingsIcon from '@mui/icons-material/SettingsOutlined';
import TrackIcon from '@mui/icons-material/TrackChangesOutlined';
import BedtimeIcon from '@mui/icons-material/BedtimeOutlined';
import HourglassIcon from '@mui/icons-material/HourglassEmptyOutlined';
import SaveIcon from '@mui/icons-material/SaveOutlined';
import LinkIcon from '@mui/icons-material/CableOutlined';
import { apiRequest, errorMessage, useAuth } from '@act/ui-kit';
import {
  BLACKOUT_DEFAULTS,
  SMS_TIMEZONES,
  smsMessages,
  twilioConfigSchema,
  type MessagingServicesResponse,
  type TwilioConfig,
  type TwilioConfigResponse,
  type TwilioTestResponse,
} from '@act/contracts/src/sms-api';
import { SMS_KEYS } from '../shared/keys';
import { hourLabel } from '../shared/format';
import { useNotify } from '../shared/notify';
import { Section } from './sections';

const HOURS = Array.from({ length: 24 }, (_, h) => h);

/** The contract's URL rule (valid http(s) URL or empty), reused as is. */
const isValidWebhookUrl = (value: string) =>
  (twilioConfigSchema.fields.webhook_url as yup.StringSchema).isValidSync(value);

/** The webhook URL is checked only while delivery tracking is on: the field is hidden otherwise (section 5). */
export const configFormSchema = twilioConfigSchema.shape({
  webhook_url: yup.string().test('url', smsMessages.urlInvalid, function check(value) {
    if (!this.parent.delivery_webhooks_enabled || !value) return true;
    return isValidWebhookUrl(value);
  }),
});

function formValues(cfg: TwilioConfigResponse): TwilioConfig {
  return {
    messaging_service_sid: cfg.messaging_service_sid ?? '',
    phone_number: cfg.phone_number ?? '',
    webhook_url: cfg.webhook_url ?? '',
    delivery_webhooks_enabled: cfg.delivery_webhooks_enabled ?? true,
    blackout_enabled: cfg.blackout_enabled ?? BLACKOUT_DEFAULTS.blackout_enabled,
    blackout_start_hour: cfg.blackout_start_hour ?? BLACKOUT_DEFAULTS.blackout_start_hour,
    blackout_end_hour: cfg.blackout_end_hour ?? BLACKOUT_DEFAULTS.blackout_end_hour,
    blackout_timezone: cfg.blackout_timezone ?? BLACKOUT_DEFAULTS.blackout_timezone,
    frequency_cap_hours: cfg.frequency_cap_hours ?? null,
  };
}

export function TwilioConfigForm({ config }: { config: TwilioConfigResponse }) {
  // Provider settings are an admin's (the server refuses others): a plain user sees them, read-only.
  const { isAdmin } = useAuth();
  const notify = useNotify();
  const { mutate } = useSWRConfig();
  const services = useSWR<MessagingServicesResponse>(SMS_KEYS.messagingServices);
  const form = useFormik<TwilioConfig>({
    initialValues: formValues(config),
    validationSchema: configFormSchema,
    onSubmit: async (v) => {
      const url = v.webhook_url.trim();
      const body: TwilioConfig = {
        ...v,
        messaging_service_sid: v.messaging_service_sid.trim(),
        phone_number: v.phone_number.trim(),
        // A URL typed and then hidden by switching tracking off is dropped rather than refused.
        webhook_url: v.delivery_webhooks_enabled || isValidWebhookUrl(url) ? url : '',
      };
      try {
        const saved = await apiRequest<TwilioConfigResponse>('POST', SMS_KEYS.twilioConfig, body);
        notify.success('Twilio configuration saved successfully');
        await mutate(SMS_KEYS.twilioConfig, saved, { revalidate: false });
        form.resetForm({ values: formValues(saved) });
      } catch (err) {
        notify.error(`Failed to save configuration: ${errorMessage(err)}`);
      }
    },
  });

  const [testing, setTesting] = useState(false);
  const testConnection = async () => {
    setTesting(true);
    try {
      const res = await apiRequest<TwilioTestResponse>('POST', '/api/twilio/test-connection');
      notify.success(
        'Twilio connection test successful',
        res.message && res.message !== 'Twilio connection test successful' ? res.message : undefined,
      );
    } catch (err) {
      notify.error(`Connection test failed: ${errorMessage(err)}`);
    } finally {
      setTesting(false);
    }
  };

  const options = services.data?.services ?? [];
  const sid = form.values.messaging_service_sid;
  // A saved service the account no longer lists (or while the list cannot load) stays selectable.
  const sidMissing = sid !== '' && !options.some((o) => o.sid === sid);
  const servicesHelp = services.error
    ? `Could not load messaging services: ${errorMessage(services.error)}`
    : (services.data?.message ?? 'Messages are sent through this service; without one, from the phone number below.');

  const urlError = form.touched.webhook_url || form.submitCount > 0 ? form.errors.webhook_url : undefined;
  const busy = form.isSubmitting;

  return (
    <form onSubmit={form.handleSubmit} noValidate aria-label="Twilio configuration">
      <Stack spacing={3}>
        {!isAdmin && (
          <Alert severity="info" variant="outlined" sx={{ bgcolor: 'background.paper' }}>
            Only an admin can change the Twilio settings.
          </Alert>
        )}
        <Box
          component="fieldset"
          disabled={!isAdmin}
          sx={{ border: 0, p: 0, m: 0, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 3 }}
        >
          <Section
            title="Basic Configuration"
            description="Where messages are sent from. Account credentials are server secrets."
            icon={<SettingsIcon fontSize="small" />}
          >
            <Stack spacing={2.5}>
              <TextField
                select
                label="Messaging Service"
                name="messaging_service_sid"
                value={sid}
                onChange={form.handleChange}
                helperText={servicesHelp}
                error={!!services.error}
                slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
              >
                <MenuItem value="">
                  <em>None (send from the phone number)</em>
                </MenuItem>
                {options.map((o) => (
                  <MenuItem key={o.sid} value={o.sid}>
                    {`${o.friendlyName} (${o.sid})`}
                  </MenuItem>
                ))}
                {sidMissing && <MenuItem value={sid}>{sid}</MenuItem>}
              </TextField>
              <TextField
                label="Phone Number"
                name="phone_number"
                placeholder="+15551234567"
                value={form.values.phone_number}
                onChange={form.handleChange}
                onBlur={form.handleBlur}
                error={!!form.errors.phone_number}
                helperText={
                  form.errors.phone_number ??
                  'Your Twilio number in E.164 format, used when no messaging service is chosen.'
                }
              />
            </Stack>
          </Section>

          <Section
            title="Delivery Tracking"
            description="Let Twilio report whether each message was delivered."
            icon={<TrackIcon fontSize="small" />}
          >
            <FormControlLabel
              control={
                <Switch
                  name="delivery_webhooks_enabled"
                  checked={form.values.delivery_webhooks_enabled}
                  onChange={form.handleChange}
                />
              }
              label="Enable delivery status webhooks"
            />
            <Collapse in={form.values.delivery_webhooks_enabled} unmountOnExit>
              <TextField
                sx={{ mt: 2 }}
                label="Webhook URL"
                name="webhook_url"
                placeholder={`${window.location.origin}/api/twilio/webhooks`}
                value={form.values.webhook_url}
                onChange={form.handleChange}
                onBlur={form.handleBlur}
                error={!!urlError}
                helperText={urlError ?? 'Leave empty to use this site’s delivery status URL.'}
              />
            </Collapse>
          </Section>

          <Section
            title="Blackout Times"
            description="No SMS is sent inside this window, read on each shopper's clock (from the phone number; else the timezone below); messages due then are queued and sent when it ends."
            icon={<BedtimeIcon fontSize="small" />}
          >
            <FormControlLabel
              control={
                <Switch name="blackout_enabled" checked={form.values.blackout_enabled} onChange={form.handleChange} />
              }
              label="Enable blackout window"
            />
            <Box
              sx={{
                display: 'grid',
                gap: 2,
                mt: 2,
                gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 1fr))' },
                opacity: form.values.blackout_enabled ? 1 : 0.6,
              }}
            >
              {(
                [
                  ['Start Hour', 'blackout_start_hour'],
                  ['End Hour', 'blackout_end_hour'],
                ] as const
              ).map(([label, name]) => (
                <TextField
                  key={name}
                  select
                  label={label}
                  name={name}
                  value={form.values[name]}
                  onChange={(e) => void form.setFieldValue(name, Number(e.target.value))}
                  error={!!form.errors[name]}
                  helperText={form.errors[name]}
                >
                  {HOURS.map((h) => (
                    <MenuItem key={h} value={h}>
                      {hourLabel(h)}
                    </MenuItem>
                  ))}
                </TextField>
              ))}
              <TextField
                select
                label="Timezone"
                name="blackout_timezone"
                value={form.values.blackout_timezone}
                onChange={form.handleChange}
              >
                {SMS_TIMEZONES.map((tz) => (
                  <MenuItem key={tz} value={tz}>
                    {tz}
                  </MenuItem>
                ))}
              </TextField>
            </Box>
          </Section>

          <Section
            title="Frequency Cap"
            description="At most one message per person in this many hours, email and SMS together, across campaigns. A message due sooner waits and is sent when the time is up. The same setting as on Email Settings."
            icon={<HourglassIcon fontSize="small" />}
          >
            <TextField
              label="Hours between messages"
              name="frequency_cap_hours"
              type="number"
              slotProps={{ htmlInput: { min: 1, max: 168, step: 1 } }}
              value={form.values.frequency_cap_hours ?? ''}
              onChange={(e) => void form.setFieldValue('frequency_cap_hours', e.target.value === '' ? null : Number(e.target.value))}
              error={!!form.errors.frequency_cap_hours}
              helperText={form.errors.frequency_cap_hours ?? 'Empty: off.'}
              sx={{ maxWidth: 280 }}
            />
          </Section>
        </Box>

        {!config.configured && (
          <Alert severity="warning" variant="outlined" sx={{ bgcolor: 'background.paper' }}>
            Twilio credentials are not set on the server (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN): settings can be saved,
            but no SMS is sent.
          </Alert>
        )}

        {/* At the end of the form, not sticky: a bar pinned to the screen's bottom covered the Blackout fields
            under it (on a phone for good). */}
        <Paper variant="outlined" data-testid="twilio-actions" sx={{ p: 2 }}>
          <Stack
            direction={{ xs: 'column-reverse', sm: 'row' }}
            spacing={1.5}
            sx={{ justifyContent: 'flex-end', alignItems: { xs: 'stretch', sm: 'center' } }}
          >
            <Button
              variant="outlined"
              onClick={testConnection}
              disabled={testing}
              startIcon={testing ? <CircularProgress size={16} /> : <LinkIcon />}
            >
              Test Connection
            </Button>
            <Button
              type="submit"
              variant="contained"
              disabled={busy || !isAdmin}
              startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <SaveIcon />}
            >
              Save Configuration
            </Button>
          </Stack>
        </Paper>
      </Stack>
    </form>
  );
}
