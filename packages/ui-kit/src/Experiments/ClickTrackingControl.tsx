import { useState } from 'react';
import useSWR from 'swr';
import { FormControlLabel, MenuItem, Stack, Switch, TextField, Typography } from '@mui/material';
import { EMAIL_CLICK_SOURCES, EMAIL_CLICK_SOURCE_LABELS, type EmailClickSource, type EmailClickTracking, type SmsClickTracking } from '@act/contracts/src/click-tracking';
import { apiRequest, serverMessage } from '../request';

export interface ClickTrackingControlProps {
  channel: 'email' | 'sms';
  /** After a change: the results read their clicks from the other source. */
  onChanged?: () => void;
}

/**
 * The channel's click counting (every campaign of the side): email "Count clicks with" Resend's events or our
 * redirect link; SMS "Track clicks" through our link (off: texts carry the recovery link as given, no clicks).
 */
export function ClickTrackingControl({ channel, onChanged }: ClickTrackingControlProps) {
  const path = `/api/${channel}/click-tracking`;
  const setting = useSWR<EmailClickTracking | SmsClickTracking>(path);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function save(body: EmailClickTracking | SmsClickTracking) {
    setBusy(true);
    setError(null);
    try {
      // Shown at once; put back if the server refuses.
      await setting.mutate(apiRequest<EmailClickTracking | SmsClickTracking>('PUT', path, body), { optimisticData: body, rollbackOnError: true, revalidate: false });
      onChanged?.();
    } catch (err) {
      setError(serverMessage(err, 'The click setting could not be saved'));
    } finally {
      setBusy(false);
    }
  }
  const data = setting.data;
  return (
    <Stack spacing={0.5} sx={{ mt: 1.5 }} data-testid="click-tracking">
      {channel === 'email' ? (
        <TextField
          select
          size="small"
          label="Count clicks with"
          value={data && 'count_clicks_with' in data ? data.count_clicks_with : ''}
          disabled={!data || busy}
          onChange={(e) => void save({ count_clicks_with: e.target.value as EmailClickSource })}
          helperText="Every email campaign; our link replaces the recovery link in emails sent from now on"
          sx={{ maxWidth: 420 }}
        >
          {EMAIL_CLICK_SOURCES.map((s) => (
            <MenuItem key={s} value={s}>
              {EMAIL_CLICK_SOURCE_LABELS[s]}
            </MenuItem>
          ))}
        </TextField>
      ) : (
        <>
          <FormControlLabel
            control={
              <Switch
                checked={!!data && 'track_clicks' in data && data.track_clicks}
                disabled={!data || busy}
                onChange={(e) => void save({ track_clicks: e.target.checked })}
              />
            }
            label="Track clicks"
          />
          <Typography variant="caption" color="textSecondary">
            Every SMS campaign: texts sent from now on carry a short link of ours in place of the recovery link
          </Typography>
        </>
      )}
      {error && (
        <Typography variant="body2" color="error" role="alert">
          {error}
        </Typography>
      )}
    </Stack>
  );
}
