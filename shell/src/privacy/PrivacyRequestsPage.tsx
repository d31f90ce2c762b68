import { useState, type FormEvent } from 'react';
import useSWR from 'swr';
import { Box, Button, Card, Chip, Stack, TextField, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import {
  PRIVACY_SERVICES,
  privacyRequestSchema,
  type PrivacyKind,
  type PrivacyRequestView,
  type PrivacyServiceResult,
} from '@act/contracts/src/privacy';
import {
  apiRequest,
  ConfirmDialog,
  DataTable,
  DateTime,
  ErrorCard,
  Loading,
  PageHeader,
  serverMessage,
  useToast,
  type DataColumn,
} from '@act/ui-kit';
import { ValidationError } from 'yup';

export const PRIVACY_KEY = '/api/privacy-requests';

/**
 * /privacy-requests (admin only): what both services hold about one person, as one document, or the
 * erasure of it on both sides (after a confirmation: it cannot be undone).
 */
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
  const [confirming, setConfirming] = useState(false);

  const bodyOf = (kind: PrivacyKind) => ({
    kind,
    ...(email.trim() ? { email } : {}),
    ...(phone.trim() ? { phone } : {}),
  });
  const valid = async (kind: PrivacyKind) => {
    try {
      await privacyRequestSchema.validate(bodyOf(kind));
    } catch (err) {
      setFieldError(err instanceof ValidationError ? err.message : 'Check the fields');
      return false;
    }
    setFieldError(null);
    return true;
  };
  const send = async (kind: PrivacyKind) => {
    setSending(true);
    try {
      await apiRequest('POST', PRIVACY_KEY, bodyOf(kind));
      toast({
        title: kind === 'erase' ? 'Erasure Requested' : 'Export Requested',
        description: 'Each service answers in a few seconds; a service that is down answers when it is back.',
      });
      setEmail('');
      setPhone('');
      setConfirming(false);
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
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await valid('export')) await send('export');
  };
  const askErase = async () => {
    if (await valid('erase')) setConfirming(true);
  };
  const who = [email.trim(), phone.trim()].filter(Boolean).join(' · ');

  return (
    <Box>
      <PageHeader
        title="Privacy Requests"
        subtitle="Export or erase everything the email and SMS sides hold about one person."
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
          <Button
            variant="outlined"
            color="error"
            disabled={sending}
            onClick={askErase}
            sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          >
            Erase data
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
      <ConfirmDialog
        open={confirming}
        title="Erase this person's data?"
        description={
          <>
            <Typography sx={{ mb: 1, overflowWrap: 'anywhere' }}>
              Everything the email and SMS sides hold about <strong>{who}</strong> is anonymised: contacts, logs,
              sequences, webhook deliveries and revenue records keep their counts but no longer name the person. The
              address and number stay on the suppression lists as a salted hash, so nothing is sent to them again.
            </Typography>
            <Typography color="error" sx={{ fontWeight: 600 }}>
              This cannot be undone.
            </Typography>
          </>
        }
        confirmLabel="Erase permanently"
        destructive
        loading={sending}
        onConfirm={() => void send('erase')}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}

const PRIVACY_COLUMNS: DataColumn<PrivacyRequestView>[] = [
  { key: 'at', label: 'Requested', render: (r) => <DateTime value={r.created_at} />, cellSx: { whiteSpace: 'nowrap' } },
  { key: 'kind', label: 'Kind', render: (r) => (r.kind === 'erase' ? 'Erase' : 'Export') },
  {
    key: 'person',
    label: 'Person',
    render: (r) => (r.erased_ref ? `Erased (${r.erased_ref})` : [r.email, r.phone].filter(Boolean).join(' · ')),
    cellSx: { minWidth: 200, overflowWrap: 'anywhere' },
  },
  { key: 'by', label: 'By', render: (r) => r.requested_by },
  ...PRIVACY_SERVICES.map((s) => ({
    key: s,
    label: s,
    render: (r: PrivacyRequestView) => <ServiceResult result={r.services[s]} kind={r.kind} />,
  })),
  {
    key: 'result',
    label: 'Result',
    render: (r) =>
      r.status === 'done' && r.kind === 'erase' ? (
        <Chip size="small" color="success" label="Erased on both sides" />
      ) : r.status === 'done' ? (
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

function ServiceResult({ result, kind }: { result: PrivacyServiceResult; kind: PrivacyKind }) {
  if (result.status === 'pending') return <Chip size="small" label="Pending" />;
  if (result.status === 'failed') return <Chip size="small" color="error" label={result.error ?? 'Failed'} />;
  const counts = Object.entries(result.counts).filter(([, n]) => n > 0);
  return (
    <Box>
      <Chip size="small" color="success" label="Done" sx={{ mb: 0.5 }} />
      <Typography variant="body2" color="textSecondary">
        {kind === 'erase' && counts.length ? 'Erased: ' : ''}
        {counts.length
          ? counts.map(([k, n]) => `${n} ${k.replaceAll('_', ' ')}`).join(', ')
          : kind === 'erase'
            ? 'Nothing left to erase'
            : 'Nothing held'}
        {result.truncated.length ? ` (cut at the export limit: ${result.truncated.join(', ')})` : ''}
      </Typography>
    </Box>
  );
}
