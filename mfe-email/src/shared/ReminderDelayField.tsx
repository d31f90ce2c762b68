import { InputAdornment, TextField } from '@mui/material';
import { REMINDER_DELAY_MAX, REMINDER_DELAY_MIN } from '@act/contracts/src/email-api';

/**
 * The reminder delay entry of the dashboard dialog and the settings page. The browser's own range check is
 * off (the form is noValidate): an out-of-range value must reach the 'Invalid value' toast of section 5.
 */
export function ReminderDelayField({
  value,
  onChange,
  autoFocus,
  disabled,
}: {
  value: string;
  onChange: (value: string) => void;
  autoFocus?: boolean;
  disabled?: boolean;
}) {
  return (
    <TextField
      label="Reminder Delay (minutes)"
      type="number"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      autoFocus={autoFocus}
      disabled={disabled}
      helperText={`How long after a contact is created to send the reminder (${REMINDER_DELAY_MIN}–${REMINDER_DELAY_MAX} minutes).`}
      slotProps={{
        htmlInput: { min: REMINDER_DELAY_MIN, max: REMINDER_DELAY_MAX, step: 1, inputMode: 'numeric' },
        input: { endAdornment: <InputAdornment position="end">minutes</InputAdornment> },
      }}
    />
  );
}
