import { useState } from 'react';
import useSWR from 'swr';
import { Alert, Box, Button, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import WebhookIcon from '@mui/icons-material/WebhookOutlined';
import { apiRequest, ConfirmDialog, ErrorCard, errorMessage, PageHeader, serverMessage, useAuth } from '@act/ui-kit';
import { RemoveTestDeliveriesButton } from '@act/ui-kit/src/TestDeliveries';
import { RequireSignedSwitch, useSigningActions } from '@act/ui-kit/src/WebhookSigning';
import type { SmsCampaign, SmsIntegration } from '@act/contracts/src/sms-api';
import type { TestDeliveryResponse, WebhookSigningSettings } from '@act/contracts/src/webhook-signing';
import { SMS_KEYS } from '../shared/keys';
import { EmptyState } from '../shared/ui';
import { useNotify } from '../shared/notify';
import { useRefetch } from '../shared/refetch';
import { IntegrationCard } from './IntegrationCard';
import { integrationFigures, useRevenueSummary } from '@act/ui-kit/src/Revenue/RevenueFigure';
import { IntegrationDialog } from './IntegrationDialog';

const GRID = {
  display: 'grid',
  gap: 2.5,
  gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' },
} as const;

function CardSkeleton() {
  return (
    <Card data-testid="integration-skeleton">
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', mb: 2 }}>
          <Skeleton width="50%" height={32} />
          <Skeleton variant="rounded" width={64} height={24} />
        </Stack>
        <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 2 }}>
          {[0, 1, 2, 3].map((n) => (
            <Box key={n}>
              <Skeleton width="40%" />
              <Skeleton width="70%" />
            </Box>
          ))}
        </Box>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 2 }}>
          <Skeleton variant="rounded" width={72} height={30} />
          <Skeleton variant="rounded" width={80} height={30} />
        </Stack>
      </CardContent>
    </Card>
  );
}

/** /sms-webhooks: SMS webhook integrations tie a funnel to an SMS campaign (spec section 2). */
export default function SmsWebhooksPage() {
  const notify = useNotify();
  const refetch = useRefetch();
  const integrations = useSWR<SmsIntegration[]>(SMS_KEYS.integrations);
  const campaigns = useSWR<SmsCampaign[]>(SMS_KEYS.campaigns);
  const revenue = useRevenueSummary('/api/sms/revenue');
  const [dialog, setDialog] = useState<{ open: boolean; integration: SmsIntegration | null; key: number }>({
    open: false,
    integration: null,
    key: 0,
  });
  const [toDelete, setToDelete] = useState<SmsIntegration | null>(null);
  const [deleting, setDeleting] = useState(false);
  const { isAdmin } = useAuth();
  const requireSigned = useSWR<WebhookSigningSettings>(SMS_KEYS.webhookSigning);
  const signingActions = useSigningActions({
    patchUrl: (id) => `${SMS_KEYS.integrations}/${id}`,
    onChanged: () => refetch(SMS_KEYS.integrations),
  });

  const setRequireSigned = async (on: boolean) => {
    try {
      await apiRequest('PUT', SMS_KEYS.webhookSigning, { require_signed: on });
      notify.success(on ? 'Signed deliveries required' : 'Unsigned deliveries accepted');
      await refetch(SMS_KEYS.webhookSigning);
    } catch (err) {
      notify.error(serverMessage(err, 'Failed to update webhook signing'));
    }
  };

  // The server signs a sample with the integration's secret and posts it to the integration's public URL.
  const testDelivery = async (i: SmsIntegration) => {
    try {
      const r = await apiRequest<TestDeliveryResponse>('POST', `${SMS_KEYS.integrations}/${i.id}/test-delivery`, {});
      const answer = typeof r.body === 'object' && r.body && 'message' in r.body ? String(r.body.message) : '';
      if (r.status >= 200 && r.status < 300)
        notify.success(
          `Test delivery answered ${r.status}${r.signed ? ' (signed)' : ' (unsigned)'}${answer ? `: ${answer}` : ''}`,
        );
      else notify.error(`Test delivery answered ${r.status}${answer ? `: ${answer}` : ''}`);
      await refetch(SMS_KEYS.contacts, SMS_KEYS.events);
    } catch (err) {
      notify.error(serverMessage(err, 'Failed to send the test delivery'));
    }
  };

  // A new key per opening gives the form fresh values (Formik keeps its state while the dialog is mounted).
  const openDialog = (integration: SmsIntegration | null) =>
    setDialog((d) => ({ open: true, integration, key: d.key + 1 }));
  const openNew = () => openDialog(null);

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await apiRequest('DELETE', `${SMS_KEYS.integrations}/${toDelete.id}`);
      notify.success('SMS webhook integration deleted successfully');
      await refetch(SMS_KEYS.integrations, SMS_KEYS.campaigns);
      setToDelete(null);
    } catch (err) {
      notify.error(serverMessage(err, 'Failed to delete SMS webhook integration'));
    } finally {
      setDeleting(false);
    }
  };

  const webhookUrl = `${window.location.origin}/api/sms/webhook`;
  const list = integrations.data;

  let body;
  if (integrations.error && !list) {
    body = (
      <ErrorCard
        title="Could not load SMS integrations"
        message={errorMessage(integrations.error)}
        onRetry={() => integrations.mutate()}
      />
    );
  } else if (!list) {
    body = (
      <Box sx={GRID} aria-busy="true">
        {[0, 1, 2].map((n) => (
          <CardSkeleton key={n} />
        ))}
      </Box>
    );
  } else if (list.length === 0) {
    body = (
      <EmptyState
        icon={<WebhookIcon />}
        title="No SMS Integrations"
        description="Add an integration to send SMS reminders to the contacts a funnel posts to the SMS webhook."
        action={
          <Button variant="contained" startIcon={<AddIcon />} onClick={openNew}>
            Add Integration
          </Button>
        }
      />
    );
  } else {
    body = (
      <Box sx={GRID}>
        {list.map((i) => (
          <IntegrationCard
            key={i.id}
            integration={i}
            onEdit={() => openDialog(i)}
            onDelete={() => setToDelete(i)}
            isAdmin={isAdmin}
            onSetSecret={() => signingActions.openSet(i)}
            onRemoveSecret={() => signingActions.openRemove(i)}
            onTestDelivery={() => void testDelivery(i)}
            revenue={revenue.data && integrationFigures(revenue.data, i.id, 'sms', i.sms_campaign_id)}
          />
        ))}
      </Box>
    );
  }

  return (
    <Box>
      <PageHeader
        title="SMS Webhook Integrations"
        subtitle="Connect funnels to SMS campaigns and choose when the first reminder goes out."
        actions={
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
            <RequireSignedSwitch
              checked={requireSigned.data?.require_signed}
              isAdmin={isAdmin}
              onChange={(on) => void setRequireSigned(on)}
            />
            <RemoveTestDeliveriesButton side="sms" onDone={() => void refetch(SMS_KEYS.contacts, SMS_KEYS.logs)} />
            <Button variant="contained" startIcon={<AddIcon />} onClick={openNew}>
              Add Integration
            </Button>
          </Box>
        }
      />
      <Alert severity="info" variant="outlined" sx={{ mb: 3, bgcolor: 'background.paper' }}>
        <Typography variant="body2">
          Funnels post contact and purchase events to{' '}
          <Box
            component="code"
            // A long URL wraps instead of running out of the box at phone width.
            sx={{
              fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
              fontWeight: 600,
              overflowWrap: 'anywhere',
            }}
          >
            {webhookUrl}
          </Box>
          ; the funnel ID picks the integration. Each integration also has its own URL (below): a delivery there belongs
          to it whatever funnel it names.
        </Typography>
      </Alert>
      {body}
      <IntegrationDialog
        key={dialog.key}
        open={dialog.open}
        integration={dialog.integration}
        campaigns={campaigns.data ?? []}
        onClose={() => setDialog((d) => ({ ...d, open: false }))}
      />
      {signingActions.dialogs}
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete SMS Integration"
        description="Are you sure you want to delete this SMS webhook integration?"
        confirmLabel="Delete"
        destructive
        loading={deleting}
        onConfirm={confirmDelete}
        onClose={() => setToDelete(null)}
      />
    </Box>
  );
}
