import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Divider,
  Grid,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import SaveIcon from '@mui/icons-material/SaveOutlined';
import { PageHeader, errorMessage } from '@act/ui-kit';
import {
  ClearTestDataButton,
  NoTestDataNote,
  ReminderDelayField,
  minutes,
  useReminderDelay,
  useSaveReminderDelay,
  useTestDataCounts,
  SectionHeader,
} from '../shared';
import { TimingSettingsCard } from './TimingSettingsCard';

/** The delay form; starts from the stored value once it has loaded. */
function ReminderDelayForm({ current }: { current: number }) {
  const [entry, setEntry] = useState(String(current));
  const { save, saving } = useSaveReminderDelay();

  async function submit(e: FormEvent) {
    e.preventDefault();
    await save(entry);
  }

  return (
    <Box component="form" onSubmit={submit} noValidate>
      <Stack spacing={2.5} sx={{ maxWidth: 420 }}>
        <ReminderDelayField value={entry} onChange={setEntry} disabled={saving} />
        <Box>
          <Button
            type="submit"
            variant="contained"
            disabled={saving}
            startIcon={saving ? <CircularProgress size={16} color="inherit" /> : <SaveIcon />}
          >
            Save Configuration
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}

/** Settings (section 2): Abandoned Cart Configuration and Admin Tools. */
export default function SettingsPage() {
  const delay = useReminderDelay();
  const { empty } = useTestDataCounts();

  return (
    <>
      <PageHeader title="Settings" subtitle="Reminder timing and test data" />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 7 }}>
          <Card sx={{ height: '100%' }}>
            <SectionHeader
              title="Abandoned Cart Configuration"
              subheader="How long to wait before a contact who has not purchased gets a reminder"
            />
            <Divider />
            <CardContent sx={{ p: 3 }}>
              {delay.error ? (
                <Alert severity="error">Could not load the reminder delay: {errorMessage(delay.error)}</Alert>
              ) : delay.isLoading ? (
                <Skeleton variant="rounded" height={120} sx={{ maxWidth: 420 }} />
              ) : (
                <>
                  <Typography variant="body2" color="textSecondary" sx={{ mb: 2.5 }}>
                    Currently {minutes(delay.value)}. New contacts of the default integration are reminded after this
                    delay; integrations with their own delay keep it.
                  </Typography>
                  <ReminderDelayForm key={delay.value} current={delay.value} />
                </>
              )}
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, lg: 5 }}>
          <Card sx={{ height: '100%' }}>
            <SectionHeader title="Admin Tools" subheader="Testing helpers" />
            <Divider />
            <CardContent sx={{ p: 3 }}>
              <Stack spacing={2}>
                <Typography variant="body2" color="textSecondary">
                  Remove all contacts, email logs and webhook events, for example after a test run.
                </Typography>
                <Box>
                  <ClearTestDataButton />
                </Box>
                <NoTestDataNote show={empty} />
              </Stack>
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12 }}>
          <TimingSettingsCard />
        </Grid>
      </Grid>
    </>
  );
}
