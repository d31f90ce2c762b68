import { useState } from 'react';
import useSWR from 'swr';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Grid,
  IconButton,
  Stack,
  TextField,
  Tooltip,
  Typography,
  alpha,
} from '@mui/material';
import AddIcon from '@mui/icons-material/PersonRemoveOutlined';
import RemoveIcon from '@mui/icons-material/DeleteOutlined';
import { ConfirmDialog, DataTable, DateTime, Loading, PageHeader, useToast, type DataColumn } from '@act/ui-kit';
import {
  DEFAULT_REASON,
  DIRECT_UNSUBSCRIBES,
  LIST_REFRESH_MS,
  QUICK_ADD,
  REMOVE,
  changeErrorText,
  loadDirectUnsubscribes,
  loadFailureText,
  looksLikeEmail,
  postJson,
  type UnsubscribeEntry,
} from './api';

/** /unsubscribe-management (admin only; the route's guard sends everyone else to /auth). */
export default function UnsubscribeManagementPage() {
  const { toast } = useToast();
  // §7, §9: this one list is polled every 5 s (the app's other loads never poll).
  const { data, error, isLoading, mutate } = useSWR<UnsubscribeEntry[]>(DIRECT_UNSUBSCRIBES, loadDirectUnsubscribes, {
    refreshInterval: LIST_REFRESH_MS,
  });
  const [email, setEmail] = useState('');
  const [reason, setReason] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<UnsubscribeEntry | null>(null);
  const [removeOpen, setRemoveOpen] = useState(false);
  const [removeBusy, setRemoveBusy] = useState(false);

  async function add() {
    const address = email.trim();
    if (!address) {
      setEmailError('Please enter an email address');
      toast({ title: 'Email required', description: 'Please enter an email address', variant: 'destructive' });
      return;
    }
    if (!looksLikeEmail(address)) {
      setEmailError('Please enter a valid email address');
      return;
    }
    setEmailError(null);
    setAdding(true);
    try {
      await postJson(QUICK_ADD, { email: address, reason: reason.trim() || DEFAULT_REASON });
      toast({ title: 'Email unsubscribed', description: `${address} will receive no more emails.` });
      setEmail('');
      setReason('');
      await mutate();
    } catch (err) {
      toast({
        title: 'Error',
        description: changeErrorText(err, 'Failed to add email to unsubscribe list'),
        variant: 'destructive',
      });
    } finally {
      setAdding(false);
    }
  }

  async function remove() {
    if (!removing) return;
    setRemoveBusy(true);
    try {
      await postJson(REMOVE, { id: removing.id });
      toast({ title: 'Email removed', description: `${removing.email} can receive emails again.` });
      setRemoveOpen(false);
      await mutate();
    } catch (err) {
      toast({
        title: 'Error',
        description: changeErrorText(err, 'Failed to remove email from unsubscribe list'),
        variant: 'destructive',
      });
    } finally {
      setRemoveBusy(false);
    }
  }

  const entries = data ?? [];
  const hasSample = entries.some((e) => e.sample);
  const columns: DataColumn<UnsubscribeEntry>[] = [
    {
      key: 'id',
      label: 'ID',
      render: (entry) =>
        entry.sample ? <Chip size="small" color="warning" label="Sample" sx={{ fontStyle: 'normal' }} /> : entry.id,
    },
    { key: 'email', label: 'Email', cellSx: { fontWeight: 600, overflowWrap: 'break-word' }, render: (e) => e.email },
    {
      key: 'unsubscribed_at',
      label: 'Unsubscribed At',
      cellSx: { whiteSpace: 'nowrap' },
      render: (e) => <DateTime value={e.unsubscribed_at} />,
    },
    { key: 'reason', label: 'Reason', cellSx: { overflowWrap: 'break-word' }, render: (e) => e.reason || '—' },
    {
      key: 'actions',
      label: 'Actions',
      align: 'right',
      render: (entry) => (
        <Tooltip title={entry.sample ? 'A sample row cannot be removed' : 'Remove from list'}>
          <Box component="span">
            <IconButton
              aria-label={`Remove ${entry.email}`}
              color="error"
              size="small"
              disabled={Boolean(entry.sample)}
              onClick={() => {
                setRemoving(entry);
                setRemoveOpen(true);
              }}
            >
              <RemoveIcon fontSize="small" />
            </IconButton>
          </Box>
        </Tooltip>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Unsubscribe Management"
        subtitle="Addresses on this list never receive reminder or campaign emails"
      />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 4 }}>
          <Card>
            <CardContent sx={{ p: 3 }}>
              <Typography variant="h6" component="h2" sx={{ fontWeight: 700, fontSize: '1.05rem', mb: 0.5 }}>
                Add email
              </Typography>
              <Typography variant="body2" color="textSecondary" sx={{ mb: 2.5 }}>
                Stop all emails to an address, for instance after a request by phone.
              </Typography>
              <Stack
                component="form"
                noValidate
                spacing={2}
                onSubmit={(e) => {
                  e.preventDefault();
                  void add();
                }}
              >
                <TextField
                  label="Email address"
                  type="email"
                  value={email}
                  onChange={(e) => {
                    setEmail(e.target.value);
                    if (emailError) setEmailError(null);
                  }}
                  error={Boolean(emailError)}
                  helperText={emailError ?? undefined}
                  disabled={adding}
                  fullWidth
                />
                <TextField
                  label="Reason (optional)"
                  value={reason}
                  onChange={(e) => setReason(e.target.value)}
                  placeholder={DEFAULT_REASON}
                  disabled={adding}
                  fullWidth
                />
                <Button
                  type="submit"
                  variant="contained"
                  disabled={adding}
                  startIcon={adding ? <CircularProgress size={16} color="inherit" /> : <AddIcon />}
                >
                  Unsubscribe email
                </Button>
              </Stack>
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, lg: 8 }}>
          <DataTable
            ariaLabel="Unsubscribed emails"
            size="medium"
            minWidth={600}
            columns={columns}
            rows={entries}
            rowKey={(entry) => String(entry.id)}
            rowProps={(entry) => ({
              hover: true,
              'data-sample': entry.sample ? 'true' : undefined,
              sx: entry.sample
                ? {
                    bgcolor: (t) => alpha(t.palette.warning.main, 0.07),
                    '& td': { color: 'text.secondary', fontStyle: 'italic' },
                  }
                : undefined,
            })}
            // After a failed load the list is unknown, not empty: the alert above says so.
            empty={error ? 'The list could not be loaded.' : 'No unsubscribed emails.'}
            placeholder={isLoading && !data ? <Loading label="Loading unsubscribe list" /> : undefined}
            header={
              <>
                <Stack direction="row" sx={{ px: 3, py: 2.25, alignItems: 'center', justifyContent: 'space-between' }}>
                  <Typography variant="h6" component="h2" sx={{ fontWeight: 700, fontSize: '1.05rem' }}>
                    Unsubscribed emails
                  </Typography>
                  <Typography variant="caption" color="textSecondary">
                    {data ? `${entries.filter((e) => !e.sample).length} on the list · ` : ''}refreshes every 5 seconds
                  </Typography>
                </Stack>
                {error && (
                  <Alert severity="error" sx={{ mx: 3, mb: 2 }}>
                    {loadFailureText(error)}
                  </Alert>
                )}
                {hasSample && (
                  <Alert severity="warning" sx={{ mx: 3, mb: 2 }}>
                    The list could not be read. The row marked Sample below is a placeholder, not a real entry.
                  </Alert>
                )}
              </>
            }
          />
        </Grid>
      </Grid>
      <ConfirmDialog
        open={removeOpen}
        title="Remove from unsubscribe list?"
        description={`${removing?.email ?? ''} will receive reminder and campaign emails again.`}
        confirmLabel="Remove"
        destructive
        loading={removeBusy}
        onClose={() => setRemoveOpen(false)}
        onConfirm={remove}
      />
    </>
  );
}
