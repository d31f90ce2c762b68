import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Box, Button, Card, CardContent, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import DoneIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import InfoIcon from '@mui/icons-material/InfoOutlined';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import MailIcon from '@mui/icons-material/UnsubscribeOutlined';
import { ApiError, apiRequest } from '@act/ui-kit';
import { ALREADY_UNSUBSCRIBED, UNSUBSCRIBE, unsubscribeStatusKey, type UnsubscribeStatus } from './api';

export const NO_EMAIL = 'No email address provided. Please check the link and try again.';
export const CHECK_FAILED = 'Failed to check subscription status. Please try again later.';
export const UNSUBSCRIBE_FAILED = 'Failed to unsubscribe. Please try again later.';
/** The link's address was refused as not an email address: trying again cannot help. */
export const INVALID_EMAIL = 'This link does not hold a valid email address. Please check the link and try again.';

type State =
  | { kind: 'loading' }
  | { kind: 'subscribed' }
  | { kind: 'already' }
  | { kind: 'success' }
  | { kind: 'error'; message: string; retry?: 'check' | 'form' };

/**
 * /unsubscribe: public, no sidebar, no sign-in (spec sms-and-unsubscribe §2, §4, §5, §8). The address
 * comes from the link's ?email= and cannot be edited here. Kept light: it is part of the shell's bundle.
 */
export default function UnsubscribePage() {
  const [params] = useSearchParams();
  const email = (params.get('email') ?? '').trim();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [reason, setReason] = useState('');
  const [submitting, setSubmitting] = useState(false);

  const check = useCallback(async () => {
    if (!email) {
      setState({ kind: 'error', message: NO_EMAIL });
      return;
    }
    setState({ kind: 'loading' });
    try {
      const res = await apiRequest<UnsubscribeStatus>('GET', unsubscribeStatusKey(email));
      // §4: 'already-unsubscribed' is the already state; any other successful answer means subscribed.
      setState({ kind: res?.status === ALREADY_UNSUBSCRIBED ? 'already' : 'subscribed' });
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setState({ kind: 'error', message: INVALID_EMAIL });
      else setState({ kind: 'error', message: CHECK_FAILED, retry: 'check' });
    }
  }, [email]);

  useEffect(() => {
    void check();
  }, [check]);

  async function unsubscribe() {
    setSubmitting(true);
    try {
      const res = await apiRequest<UnsubscribeStatus>('POST', UNSUBSCRIBE, { email, reason: reason.trim() });
      // Unsubscribed meanwhile (another tab, the email's one-click button): say so rather than claim this did it.
      setState({ kind: res?.status === ALREADY_UNSUBSCRIBED ? 'already' : 'success' });
    } catch {
      setState({ kind: 'error', message: UNSUBSCRIBE_FAILED, retry: 'form' });
    } finally {
      setSubmitting(false);
    }
  }

  let body: ReactNode;
  switch (state.kind) {
    case 'loading':
      body = (
        <Stack spacing={2} sx={{ alignItems: 'center', py: 4 }}>
          <CircularProgress aria-label="Checking subscription" />
          <Typography color="textSecondary">Checking your subscription…</Typography>
        </Stack>
      );
      break;
    case 'subscribed':
      body = (
        <Box
          component="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void unsubscribe();
          }}
        >
          <Heading icon={<MailIcon />} tone="primary" title="Unsubscribe from emails">
            Confirm below and we will stop sending cart reminder emails to this address.
          </Heading>
          <Stack spacing={2.5} sx={{ mt: 3 }}>
            <TextField
              label="Email address"
              type="email"
              value={email}
              slotProps={{ htmlInput: { readOnly: true, 'aria-readonly': true } }}
              helperText="The address this link was sent to"
              fullWidth
            />
            <TextField
              label="Reason (optional)"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              multiline
              minRows={3}
              placeholder="Tell us why you are leaving, if you like"
              fullWidth
              disabled={submitting}
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
            <Button
              type="submit"
              variant="contained"
              color="error"
              size="large"
              disabled={submitting}
              startIcon={submitting ? <CircularProgress size={16} color="inherit" /> : undefined}
            >
              {submitting ? 'Unsubscribing...' : 'Unsubscribe'}
            </Button>
          </Stack>
        </Box>
      );
      break;
    case 'already':
      body = (
        <Heading icon={<InfoIcon />} tone="info" title="Already unsubscribed">
          <strong>{email}</strong> is already unsubscribed. You will not receive any more emails from us.
        </Heading>
      );
      break;
    case 'success':
      body = (
        <Heading icon={<DoneIcon />} tone="success" title="You have been unsubscribed">
          We will no longer send emails to <strong>{email}</strong>.
        </Heading>
      );
      break;
    case 'error':
      body = (
        <>
          <Heading
            icon={<ErrorIcon />}
            tone="error"
            title={state.message === NO_EMAIL ? 'Invalid unsubscribe link' : 'Something went wrong'}
          >
            <span role="alert">{state.message}</span>
          </Heading>
          {state.retry && (
            <Box sx={{ textAlign: 'center', mt: 3 }}>
              <Button
                variant="outlined"
                onClick={() => (state.retry === 'check' ? void check() : setState({ kind: 'subscribed' }))}
              >
                Try again
              </Button>
            </Box>
          )}
        </>
      );
      break;
  }

  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'background.default' }}>
      <Card sx={{ maxWidth: 480, width: '100%' }}>
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>{body}</CardContent>
      </Card>
    </Box>
  );
}

function Heading({
  icon,
  tone,
  title,
  children,
}: {
  icon: ReactNode;
  tone: 'primary' | 'info' | 'success' | 'error';
  title: string;
  children: ReactNode;
}) {
  return (
    <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
      <Box sx={{ color: `${tone}.main`, '& svg': { fontSize: 48 } }} aria-hidden>
        {icon}
      </Box>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
        {title}
      </Typography>
      <Typography color="textSecondary" component="div">
        {children}
      </Typography>
    </Stack>
  );
}
