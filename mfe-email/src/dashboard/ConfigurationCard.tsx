import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Divider,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import TuneIcon from '@mui/icons-material/TuneOutlined';
import { errorMessage } from '@act/ui-kit';
import { minutes, ReminderDelayField, useReminderDelay, useSaveReminderDelay, SectionHeader } from '../shared';

/** The edit dialog of the Configuration card: validation and toasts are the settings page's (useSaveReminderDelay). */
export function ReminderDelayDialog({
  open,
  current,
  onClose,
}: {
  open: boolean;
  current: number;
  onClose: () => void;
}) {
  const [entry, setEntry] = useState(String(current));
  const { save, saving } = useSaveReminderDelay();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (await save(entry)) onClose();
  }

  return (
    <Dialog
      open={open}
      onClose={saving ? undefined : onClose}
      maxWidth="xs"
      fullWidth
      aria-labelledby="reminder-delay-title"
      slotProps={{ transition: { onEnter: () => setEntry(String(current)) } }}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id="reminder-delay-title">Change Configuration</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2.5 }}>
            Set how long to wait after a contact is created before the abandoned cart reminder is sent.
          </DialogContentText>
          <ReminderDelayField value={entry} onChange={setEntry} autoFocus disabled={saving} />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button color="inherit" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={saving}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** Section 2: the current reminder delay (30 when the server gives none) and 'Change Configuration'. */
export function ConfigurationCard() {
  const { value, isLoading, error } = useReminderDelay();
  const [open, setOpen] = useState(false);
  return (
    <Card>
      <SectionHeader title="Configuration" subheader="When reminders go out" />
      <Divider />
      <CardContent sx={{ p: 3 }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Box
            aria-hidden
            sx={{
              width: 44,
              height: 44,
              borderRadius: 2,
              display: 'grid',
              placeItems: 'center',
              bgcolor: 'primary.light',
              color: 'primary.main',
              flexShrink: 0,
            }}
          >
            <TuneIcon />
          </Box>
          <Box>
            <Typography variant="body2" color="textSecondary">
              Reminder Delay
            </Typography>
            <Typography variant="h6" sx={{ fontWeight: 700 }} data-testid="reminder-delay-value">
              {isLoading ? <Skeleton width={96} /> : minutes(value)}
            </Typography>
          </Box>
        </Stack>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            Could not load the reminder delay: {errorMessage(error)}
          </Alert>
        )}
        <Typography variant="body2" color="textSecondary" sx={{ mt: 2 }}>
          Contacts who have not purchased this long after they were created get an abandoned cart email.
        </Typography>
        <Button variant="outlined" sx={{ mt: 2.5 }} onClick={() => setOpen(true)} disabled={isLoading} fullWidth>
          Change Configuration
        </Button>
      </CardContent>
      <ReminderDelayDialog open={open} current={value} onClose={() => setOpen(false)} />
    </Card>
  );
}
