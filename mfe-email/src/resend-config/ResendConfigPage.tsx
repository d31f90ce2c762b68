import { useState } from 'react';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Divider,
  Grid,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import TestIcon from '@mui/icons-material/NetworkCheckOutlined';
import KeyIcon from '@mui/icons-material/VpnKeyOutlined';
import { ApiError, PageHeader, apiRequest, errorMessage, useToast } from '@act/ui-kit';
import { SectionHeader, useApi } from '../shared';
import { configRows, readTestResult, RESEND_CONFIG, RESEND_TEST_CONNECTION, type ResendConfigStatus } from './config';
import { StoredCredentialsCard } from './StoredCredentialsCard';

type TestState =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'success'; message: string }
  | { state: 'error'; message: string };

/** /resend-config (spec §2): where the provider settings come from, their status, and Test Connection. */
export default function ResendConfigPage() {
  const { toast } = useToast();
  const config = useApi<ResendConfigStatus>(RESEND_CONFIG);
  const [test, setTest] = useState<TestState>({ state: 'idle' });

  // Spec §7: a 404 is tolerated (nothing stored); any other failure is an error.
  const notFound = config.error instanceof ApiError && config.error.status === 404;
  const statusFailed = config.error && !notFound;
  const status = config.data && typeof config.data === 'object' ? configRows(config.data) : null;

  async function testConnection() {
    setTest({ state: 'loading' });
    try {
      const res = await apiRequest<unknown>('POST', RESEND_TEST_CONNECTION);
      const result = readTestResult(res);
      if (!result) {
        setTest({ state: 'error', message: 'Invalid response from server' });
        toast({ title: 'Connection test failed', description: 'Invalid response from server', variant: 'destructive' });
      } else if (result.success) {
        setTest({ state: 'success', message: result.message });
        toast({ title: 'Connection successful', description: result.message });
      } else {
        setTest({ state: 'error', message: result.message });
        toast({ title: 'Connection failed', description: result.message, variant: 'destructive' });
      }
    } catch (err) {
      const message = errorMessage(err);
      setTest({ state: 'error', message });
      // A refusal the server explains is a failed connection; anything unreadable is a failed test.
      if (err instanceof ApiError && err.serverMessage) {
        toast({ title: 'Connection failed', description: message, variant: 'destructive' });
      } else {
        toast({ title: 'Connection test failed', description: message, variant: 'destructive' });
      }
    }
  }

  return (
    <>
      <PageHeader
        title="Resend Configuration"
        subtitle="The email provider that sends test emails and, when switched on, live reminders"
      />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 7 }}>
          <Card>
            <SectionHeader title="Configuration status" subheader="What the email service is using right now" />
            <Divider />
            <CardContent sx={{ p: 3 }}>
              {statusFailed ? (
                <Alert severity="error">
                  <AlertTitle>Failed to check Resend configuration status</AlertTitle>
                  {errorMessage(config.error)}
                </Alert>
              ) : config.isLoading ? (
                <Stack spacing={1.5}>
                  <Skeleton width="60%" />
                  <Skeleton width="40%" />
                  <Skeleton width="50%" />
                </Stack>
              ) : (
                <Stack spacing={2}>
                  {config.data?.oneClickWarning && (
                    <Alert severity="warning" data-testid="one-click-warning">
                      {config.data.oneClickWarning}
                    </Alert>
                  )}
                  <StatusRows status={status} />
                </Stack>
              )}
            </CardContent>
          </Card>

          <StoredCredentialsCard status={config.data} onSaved={() => void config.mutate()} />

          <Card sx={{ mt: 3 }}>
            <SectionHeader title="Test Connection" subheader="Asks Resend whether the API key is accepted" />
            <Divider />
            <CardContent sx={{ p: 3 }}>
              <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
                <Button
                  variant="contained"
                  onClick={testConnection}
                  disabled={test.state === 'loading'}
                  startIcon={test.state === 'loading' ? <CircularProgress size={16} color="inherit" /> : <TestIcon />}
                >
                  {test.state === 'loading' ? 'Testing...' : 'Test Connection'}
                </Button>
                {test.state === 'success' && (
                  <Alert severity="success" sx={{ width: '100%' }} data-testid="connection-result">
                    <AlertTitle>Connection successful</AlertTitle>
                    {test.message}
                  </Alert>
                )}
                {test.state === 'error' && (
                  <Alert severity="error" sx={{ width: '100%' }} data-testid="connection-result">
                    <AlertTitle>Connection failed</AlertTitle>
                    {test.message}
                  </Alert>
                )}
              </Stack>
            </CardContent>
          </Card>
        </Grid>

        <Grid size={{ xs: 12, lg: 5 }}>
          <Card>
            <SectionHeader title="Where the settings come from" />
            <Divider />
            <CardContent sx={{ p: 3 }}>
              <Stack spacing={2}>
                <Stack direction="row" spacing={1.5}>
                  <KeyIcon color="action" />
                  <Typography variant="body2">
                    The Resend API key and the from-address come from the email service&apos;s environment settings
                    (<code>RESEND_API_KEY</code>, <code>RESEND_FROM</code>) or from the values an admin stores here.
                    Environment settings take precedence over stored values.
                  </Typography>
                </Stack>
                <Typography variant="body2" color="textSecondary">
                  Stored values are sealed by the email service and write-only: only when each was set and its last four
                  characters are shown. Keys are never shown here or sent to the browser.
                </Typography>
                <Typography variant="body2" color="textSecondary">
                  Without a key and a from-address nothing is sent, and test emails fail with a configuration error.
                  Campaign emails go out only when live sending is switched on (<code>EMAIL_LIVE_SENDING</code>);
                  otherwise reminders are logged as <code>would_send</code>.
                </Typography>
              </Stack>
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </>
  );
}

function StatusRows({ status }: { status: ReturnType<typeof configRows> | null }) {
  if (!status) {
    return (
      <Typography color="textSecondary" data-testid="config-status">
        No configuration status is available. The email service uses its environment settings, if any.
      </Typography>
    );
  }
  const rows: [string, React.ReactNode][] = [
    [
      'Status',
      <Chip
        key="s"
        size="small"
        label={status.configured ? 'Configured' : 'Not configured'}
        color={status.configured ? 'success' : 'warning'}
        sx={{ fontWeight: 600 }}
      />,
    ],
    ['API key', status.apiKey],
    ['From address', status.from],
    [
      'Live sending',
      status.liveSending ? 'On: campaign emails go out through Resend' : 'Off: reminders are logged as would_send',
    ],
    [
      'Delivery events',
      status.deliveryEvents
        ? 'Signed events accepted at /api/resend/webhooks (delivered, bounced, complained...)'
        : 'Not set up: add a webhook in Resend pointing at /api/resend/webhooks and set its secret (RESEND_WEBHOOK_SECRET)',
    ],
  ];
  return (
    <Stack spacing={2.5} data-testid="config-status">
      <Box
        component="dl"
        sx={{ m: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 3, rowGap: 1.5 }}
      >
        {rows.map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" color="textSecondary">
              {label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      {status.message && (
        <Alert severity={status.configured ? 'info' : 'warning'} variant="outlined">
          {status.message}
        </Alert>
      )}
    </Stack>
  );
}
