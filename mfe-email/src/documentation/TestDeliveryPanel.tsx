import { useState } from 'react';
import { Alert, Box, Button, CircularProgress, MenuItem, Stack, TextField, Typography } from '@mui/material';
import SendIcon from '@mui/icons-material/SendOutlined';
import { apiRequest, errorMessage } from '@act/ui-kit';
import { CopyableUrl, SigningStatus } from '@act/ui-kit/src/WebhookSigning';
import type { WebhookIntegration } from '@act/contracts/src/email-api';
import {
  WEBHOOK_SOURCE_LABELS,
  type TestDeliveryResponse,
  type WebhookSource,
} from '@act/contracts/src/webhook-signing';
import { INTEGRATIONS, useApi, useRefetch } from '../shared';

/**
 * "Send test delivery" for one sender: the server signs a realistic sample with the chosen integration's secret
 * (the secret never reaches this page), posts it to the integration's public URL and this panel shows the answer.
 */
export function TestDeliveryPanel({
  source,
  initialIntegrationId,
}: {
  source: WebhookSource;
  initialIntegrationId?: number;
}) {
  const { data: integrations } = useApi<WebhookIntegration[]>(INTEGRATIONS);
  const refetch = useRefetch();
  const [chosen, setChosen] = useState<number | ''>(initialIntegrationId ?? '');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<TestDeliveryResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const integration = integrations?.find((i) => i.id === chosen) ?? null;

  async function send() {
    if (!integration) return;
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(
        await apiRequest<TestDeliveryResponse>('POST', `${INTEGRATIONS}/${integration.id}/test-delivery`, { source }),
      );
      await refetch('webhookEvents', 'contacts');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  const ok = result !== null && result.status >= 200 && result.status < 300;
  return (
    <Box component="section" aria-label={`Send a test ${WEBHOOK_SOURCE_LABELS[source]} delivery`}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Send test delivery
      </Typography>
      <Typography color="textSecondary" sx={{ mb: 2 }}>
        Posts a realistic {WEBHOOK_SOURCE_LABELS[source]} delivery for a test contact on example.com to the
        integration&apos;s own URL, signed with its secret when it has one, exactly as the sender would.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          select
          size="small"
          label="Integration"
          value={chosen}
          onChange={(e) => setChosen(e.target.value === '' ? '' : Number(e.target.value))}
          sx={{ minWidth: 260 }}
        >
          {(integrations ?? []).map((i) => (
            <MenuItem key={i.id} value={i.id}>
              {i.name}
            </MenuItem>
          ))}
        </TextField>
        <Button
          variant="contained"
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <SendIcon />}
          disabled={!integration || busy}
          onClick={() => void send()}
        >
          Send test delivery
        </Button>
      </Stack>
      {integration && (
        <Stack spacing={1} sx={{ mt: 2 }}>
          <CopyableUrl url={integration.webhook_url} />
          <Box>
            <SigningStatus signing={integration.signing} />
          </Box>
        </Stack>
      )}
      {error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}
      {result && (
        <Alert severity={ok ? 'success' : 'error'} sx={{ mt: 2 }} data-testid="test-delivery-result">
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {result.signed ? 'Signed' : 'Unsigned'} delivery answered {result.status}
          </Typography>
          <Box component="pre" sx={{ m: 0, mt: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 12 }}>
            {JSON.stringify(result.body, null, 2)}
          </Box>
        </Alert>
      )}
    </Box>
  );
}
