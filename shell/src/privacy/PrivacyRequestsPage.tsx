import { useState, type FormEvent } from 'react';
import useSWR from 'swr';
import { Box, Button, Card, Chip, Stack, TextField, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import {
  PRIVACY_SERVICES,
  privacyRequestSchema,
  type PrivacyRequestView,
  type PrivacyServiceResult,
} from '@act/contracts/src/privacy';
import {
  apiRequest,
  DataTable,
  ErrorCard,
  Loading,
  PageHeader,
  serverMessage,
  useToast,
  type DataColumn,
} from '@act/ui-kit';
import { ValidationError } from 'yup';
import { formatDateTime } from '../forms/fieldProps';

export const PRIVACY_KEY = '/api/privacy-requests';

/** /privacy-requests (admin only, issue 18): what both services hold about one person, as one document. */
export default function PrivacyRequestsPage() {
  const { toast } = useToast();
  // Polled while a request waits for a service (one that is down answers when it is back).
  const { data, error, isLoading, mutate } = useSWR<PrivacyRequestView[]>(PRIVACY_KEY, {
    refreshInterval: (latest) => (latest?.some((r) => r.status === 'pending') ? 1_000 : 0),
  });
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = { kind: 'export', ...(email.trim() ? { email } : {}), ...(phone.trim() ? { phone } : {}) };
    try {
      await privacyRequestSchema.validate(body);
    } catch (err) {
      setFieldError(err instanceof ValidationError ? err.message : 'Check the fields');
      return;
    }
    setFieldError(null);
    setSending(true);
    try {
      await apiRequest('POST', PRIVACY_KEY, body);
      toast({
        title: 'Export Requested',
        description: 'Each service answers in a few seconds; a service that is down answers when it is back.',
      });
      setEmail('');
      setPhone('');
      await mutate();
    } catch (err) {
      toast({
        title: 'Request Failed',
        description: serverMessage(err, 'Failed to create the request'),
        variant: 'destructive',
      });
    } finally {
      setSending(false);
    }
  };

  return (
    <Box>
      <PageHeader
        title="Privacy Requests"
        subtitle="Export everything the email and SMS sides hold about one person."
      />
      <Card component="form" onSubmit={submit} noValidate sx={{ p: 2, mb: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'flex-start' } }}>
          <TextField
            label="Email address"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            size="small"
            sx={{ minWidth: 260 }}
          />
          <TextField
            label="Phone number"
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
            size="small"
            sx={{ minWidth: 200 }}
          />
          <Button type="submit" variant="contained" disabled={sending} sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
            Export data
          </Button>
        </Stack>
        {fieldError && (
          <Typography role="alert" color="error" variant="body2" sx={{ mt: 1 }}>
            {fieldError}
          </Typography>
        )}
      </Card>
      {error ? (
        <ErrorCard
          title="Failed to load privacy requests"
          message={serverMessage(error, 'Failed to load privacy requests')}
        />
      ) : isLoading && !data ? (
        <Loading />
      ) : (
        <DataTable
          ariaLabel="Privacy requests"
          columns={PRIVACY_COLUMNS}
          rows={data}
          rowKey={(r) => r.id}
          empty="No privacy requests yet."
        />
      )}
    </Box>
  );
}

const PRIVACY_COLUMNS: DataColumn<PrivacyRequestView>[] = [
  { key: 'at', label: 'Requested', render: (r) => formatDateTime(r.created_at), cellSx: { whiteSpace: 'nowrap' } },
  { key: 'person', label: 'Person', render: (r) => [r.email, r.phone].filter(Boolean).join(' · ') },
  { key: 'by', label: 'By', render: (r) => r.requested_by },
  ...PRIVACY_SERVICES.map((s) => ({
    key: s,
    label: s,
    render: (r: PrivacyRequestView) => <ServiceResult result={r.services[s]} />,
  })),
  {
    key: 'result',
    label: 'Result',
    render: (r) =>
      r.status === 'done' ? (
        <Button size="small" startIcon={<DownloadIcon />} href={`${PRIVACY_KEY}/${r.id}/export.json`} download>
          Download JSON
        </Button>
      ) : (
        <Typography variant="body2" color="textSecondary">
          Waiting for every service…
        </Typography>
      ),
  },
];

function ServiceResult({ result }: { result: PrivacyServiceResult }) {
  if (result.status === 'pending') return <Chip size="small" label="Pending" />;
  if (result.status === 'failed') return <Chip size="small" color="error" label={result.error ?? 'Failed'} />;
  const counts = Object.entries(result.counts).filter(([, n]) => n > 0);
  return (
    <Box>
      <Chip size="small" color="success" label="Done" sx={{ mb: 0.5 }} />
      <Typography variant="body2" color="textSecondary">
        {counts.length ? counts.map(([k, n]) => `${n} ${k.replaceAll('_', ' ')}`).join(', ') : 'Nothing held'}
        {result.truncated.length ? ` (cut at the export limit: ${result.truncated.join(', ')})` : ''}
      </Typography>
    </Box>
  );
}
