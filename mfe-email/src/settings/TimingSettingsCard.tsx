import { useState, type FormEvent } from 'react';
import { useSWRConfig } from 'swr';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Divider,
  FormControlLabel,
  MenuItem,
  Skeleton,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import SaveIcon from '@mui/icons-material/SaveOutlined';
import { apiRequest, errorMessage, useAuth, useToast } from '@act/ui-kit';
import { emailTimingSettingsSchema, type EmailTimingSettings } from '@act/contracts/src/timing';
import { SectionHeader, useApi } from '../shared';

export const TIMING_SETTINGS = '/api/settings/timing';
const HOURS = Array.from({ length: 24 }, (_, h) => h);
const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;

function TimingForm({ current }: { current: EmailTimingSettings }) {
  const { isAdmin } = useAuth();
  const { toast } = useToast();
  const { mutate } = useSWRConfig();
  const [values, setValues] = useState(current);
  const [cap, setCap] = useState(current.frequency_cap_hours === null ? '' : String(current.frequency_cap_hours));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    let body: EmailTimingSettings;
    try {
      body = emailTimingSettingsSchema.validateSync({ ...values, frequency_cap_hours: cap.trim() }) as EmailTimingSettings;
      setError(null);
    } catch (err) {
      setError((err as Error).message);
      return;
    }
    setSaving(true);
    try {
      const saved = await apiRequest<EmailTimingSettings>('PUT', TIMING_SETTINGS, body);
      toast({ title: 'Configuration updated', description: 'Quiet hours and frequency cap saved.' });
      await mutate(TIMING_SETTINGS, saved, { revalidate: false });
    } catch (err) {
      toast({ title: 'Failed to update configuration', description: errorMessage(err), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Box component="form" onSubmit={submit} noValidate aria-label="Quiet hours and frequency cap">
      <Stack spacing={2.5}>
        {!isAdmin && <Alert severity="info">Only an admin can change these settings.</Alert>}
        <FormControlLabel
          control={
            <Switch
              checked={values.quiet_hours_enabled}
              disabled={!isAdmin || saving}
              onChange={(e) => setValues({ ...values, quiet_hours_enabled: e.target.checked })}
            />
          }
          label="Enable email quiet hours"
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {(
            [
              ['Quiet from', 'quiet_start_hour'],
              ['Quiet until', 'quiet_end_hour'],
            ] as const
          ).map(([label, name]) => (
            <TextField
              key={name}
              select
              label={label}
              value={values[name]}
              // Set while the switch is on: a dimmed field would read poorly (and fail contrast) for nothing.
              disabled={!isAdmin || saving || !values.quiet_hours_enabled}
              onChange={(e) => setValues({ ...values, [name]: Number(e.target.value) })}
              sx={{ minWidth: 160 }}
            >
              {HOURS.map((h) => (
                <MenuItem key={h} value={h}>
                  {hourLabel(h)}
                </MenuItem>
              ))}
            </TextField>
          ))}
        </Stack>
        <TextField
          label="Frequency cap (hours between messages)"
          type="number"
          value={cap}
          disabled={!isAdmin || saving}
          onChange={(e) => setCap(e.target.value)}
          slotProps={{ htmlInput: { min: 1, max: 168, step: 1 } }}
          error={!!error}
          helperText={error ?? 'At most one message per person in this many hours, email and SMS together. Empty: off.'}
          sx={{ maxWidth: 420 }}
        />
        <Box>
          <Button
            type="submit"
            variant="contained"
            disabled={saving || !isAdmin}
            startIcon={saving ? <CircularProgress size={16} color="inherit" /> : <SaveIcon />}
          >
            Save Timing
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}

/**
 * Email's quiet hours, read on each shopper's clock (the phone number's zone, else New York), and the account's
 * frequency cap, the same value as on SMS Settings (docs/delivery.md, "Timing rules").
 */
export function TimingSettingsCard() {
  const { data, error, isLoading } = useApi<EmailTimingSettings>(TIMING_SETTINGS);
  return (
    <Card>
      <SectionHeader
        title="Quiet Hours and Frequency Cap"
        subheader="When reminder emails wait, on each shopper's own clock, and how often one person may be messaged"
      />
      <Divider />
      <CardContent sx={{ p: 3 }}>
        {error ? (
          <Alert severity="error">Could not load the timing settings: {errorMessage(error)}</Alert>
        ) : isLoading || !data ? (
          <Skeleton variant="rounded" height={160} sx={{ maxWidth: 420 }} />
        ) : (
          <>
            <Typography variant="body2" color="textSecondary" sx={{ mb: 2.5 }}>
              A reminder due in the quiet hours, or sooner than the cap allows after the shopper's last email or text,
              waits and is sent when the time is up: never dropped.
            </Typography>
            <TimingForm key={JSON.stringify(data)} current={data} />
          </>
        )}
      </CardContent>
    </Card>
  );
}
