import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { Box, Button, Card, Grid, Skeleton, Stack } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import HubIcon from '@mui/icons-material/HubOutlined';
import {
  ApiError,
  ConfirmDialog,
  EmptyState,
  PageHeader,
  apiRequest,
  errorMessage,
  useAuth,
  useToast,
} from '@act/ui-kit';
import { RemoveTestDeliveriesButton } from '@act/ui-kit/src/TestDeliveries';
import { RequireSignedSwitch, useSigningActions } from '@act/ui-kit/src/WebhookSigning';
import type {
  EmailCampaign,
  EmailTemplateSummary,
  MessageResponse,
  WebhookIntegration,
} from '@act/contracts/src/email-api';
import type { SmsCampaign, SmsIntegration } from '@act/contracts/src/sms-api';
import type { WebhookSigningSettings } from '@act/contracts/src/webhook-signing';
import { INTEGRATIONS, LoadError, TEMPLATES, WEBHOOK_SIGNING, useApi, useRefetch } from '../shared';
import { IntegrationCard } from './IntegrationCard';
import { integrationFigures, useRevenueSummary } from '@act/ui-kit/src/Revenue/RevenueFigure';
import { IntegrationDrawer } from './IntegrationDrawer';
import { CAMPAIGNS } from '../email-campaigns/api';
import {
  campaignLabel,
  includesEmail,
  includesSms,
  requestOf,
  smsRequestOf,
  templateLabel,
  type Channels,
  type IntegrationFormValues,
} from './integrationForm';

/** The SMS side's lists this form reads and adds to (its own API, through the gateway). */
const SMS_INTEGRATIONS = '/api/sms-webhook-integrations';
const SMS_CAMPAIGNS = '/api/sms-campaigns';

type Confirm = { kind: 'delete' | 'clear'; integration: WebhookIntegration } | null;

/** Section 8: a refused delete that mentions contacts gets its own explanation. */
export function mentionsContacts(err: unknown): boolean {
  const text = `${errorMessage(err, '')} ${err instanceof ApiError ? err.message : ''}`.toLowerCase();
  return text.includes('associated contacts') || text.includes('contacts');
}

/** Webhook Integrations (section 2): a card per integration and the side sheet to create or edit one. */
export default function WebhookIntegrationsPage() {
  const { toast } = useToast();
  const refetch = useRefetch();
  const { data, error, mutate } = useApi<WebhookIntegration[]>(INTEGRATIONS);
  const templates = useApi<EmailTemplateSummary[]>(TEMPLATES);
  const campaigns = useApi<EmailCampaign[]>(CAMPAIGNS);
  const { mutate: mutateAny } = useSWRConfig();
  // The SMS campaigns are asked for only once a new integration includes SMS.
  const [withSms, setWithSms] = useState(false);
  const smsCampaigns = useApi<SmsCampaign[]>(withSms ? SMS_CAMPAIGNS : null);
  const revenue = useRevenueSummary('/api/revenue');
  const { isAdmin } = useAuth();
  const requireSigned = useApi<WebhookSigningSettings>(WEBHOOK_SIGNING);
  const signingActions = useSigningActions({
    patchUrl: (id) => `${INTEGRATIONS}/${id}`,
    onChanged: () => refetch('integrations'),
  });

  async function setRequireSigned(on: boolean) {
    try {
      await apiRequest<WebhookSigningSettings>('PUT', WEBHOOK_SIGNING, { require_signed: on });
      toast({
        title: on ? 'Signed deliveries required' : 'Unsigned deliveries accepted',
        description: on
          ? 'Deliveries without a valid signature are refused.'
          : 'Integrations without a secret accept unsigned deliveries.',
      });
      await requireSigned.mutate();
    } catch (err) {
      toast({ title: 'Error updating signing', description: errorMessage(err), variant: 'destructive' });
    }
  }

  const [drawerOpen, setDrawerOpen] = useState(false);
  const [editing, setEditing] = useState<WebhookIntegration | null>(null);
  // The dialog's subject outlives its closing, so the text does not empty while it fades out.
  const [confirm, setConfirmState] = useState<Confirm>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const setConfirm = (next: Confirm) => {
    if (next) setConfirmState(next);
    setConfirmOpen(next !== null);
  };
  const [confirmBusy, setConfirmBusy] = useState(false);
  const [busyId, setBusyId] = useState<number | null>(null);

  function openDrawer(integration: WebhookIntegration | null) {
    setEditing(integration);
    setWithSms(false);
    setDrawerOpen(true);
  }

  async function save(values: IntegrationFormValues): Promise<boolean> {
    const body = requestOf(values, editing);
    try {
      if (editing) {
        await apiRequest<WebhookIntegration>('PATCH', `${INTEGRATIONS}/${editing.id}`, body);
        toast({ title: 'Integration updated', description: body.name });
        // The default integration's delay is the global reminder delay.
        await refetch('integrations', 'reminderDelay');
      } else {
        return await create(values);
      }
      return true;
    } catch (err) {
      toast({
        title: editing ? 'Error updating integration' : 'Error creating integration',
        description: errorMessage(err),
        variant: 'destructive',
      });
      return false;
    }
  }

  /**
   * A new integration on the sides chosen: each side's own POST, email first. Both sides refuse a funnel id they
   * already have, so a second side that fails leaves the first created and says so; the form closes, since sending
   * it again would be refused by the side that succeeded.
   */
  async function create(values: IntegrationFormValues): Promise<boolean> {
    const channels: Channels = values.channels;
    const name = values.name.trim();
    if (includesEmail(channels)) {
      await apiRequest<WebhookIntegration>('POST', INTEGRATIONS, requestOf(values, null));
      await refetch('integrations');
    }
    if (includesSms(channels)) {
      try {
        await apiRequest<SmsIntegration>('POST', SMS_INTEGRATIONS, smsRequestOf(values));
        // The SMS page loads its list anew when next shown.
        await mutateAny(SMS_INTEGRATIONS, undefined, { revalidate: false });
      } catch (err) {
        if (!includesEmail(channels)) throw err;
        toast({
          title: 'Error creating integration',
          description: `The email integration ${name} was created; the SMS integration was not: ${errorMessage(err)}`,
          variant: 'destructive',
        });
        return true;
      }
    }
    const sides = channels === 'both' ? ' (email and SMS)' : channels === 'sms' ? ' (SMS)' : '';
    toast({ title: 'Integration created', description: `${name}${sides}` });
    return true;
  }

  async function toggle(integration: WebhookIntegration) {
    const active = !integration.active;
    setBusyId(integration.id);
    try {
      // Section 4: the pause/activate button sends only the active flag.
      await apiRequest<WebhookIntegration>('PATCH', `${INTEGRATIONS}/${integration.id}`, { active });
      toast(
        active
          ? { title: 'Integration activated', description: 'The integration is now active.' }
          : { title: 'Integration paused', description: 'The integration is now paused.' },
      );
      await refetch('integrations');
    } catch (err) {
      toast({ title: 'Error updating status', description: errorMessage(err), variant: 'destructive' });
    } finally {
      setBusyId(null);
    }
  }

  async function remove(integration: WebhookIntegration) {
    try {
      await apiRequest<MessageResponse>('DELETE', `${INTEGRATIONS}/${integration.id}`);
      toast({ title: 'Integration deleted', description: integration.name });
      await refetch('integrations');
    } catch (err) {
      if (mentionsContacts(err)) {
        toast({
          title: 'Cannot delete integration',
          description: 'This integration has contacts associated with it. Please clear the contacts first.',
          variant: 'destructive',
        });
      } else {
        toast({ title: 'Error deleting integration', description: errorMessage(err), variant: 'destructive' });
      }
    }
  }

  async function clearContacts(integration: WebhookIntegration) {
    try {
      const res = await apiRequest<Partial<MessageResponse>>(
        'POST',
        `${INTEGRATIONS}/${integration.id}/clear-contacts`,
      );
      toast({ title: 'Contacts cleared', description: res?.message || integration.name });
      await refetch('contacts');
    } catch (err) {
      toast({ title: 'Error clearing contacts', description: errorMessage(err), variant: 'destructive' });
    }
  }

  async function confirmed() {
    if (!confirm) return;
    setConfirmBusy(true);
    if (confirm.kind === 'delete') await remove(confirm.integration);
    else await clearContacts(confirm.integration);
    setConfirmBusy(false);
    setConfirm(null);
  }

  const addButton = (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
      <RequireSignedSwitch checked={requireSigned.data?.require_signed} isAdmin={isAdmin} onChange={setRequireSigned} />
      <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDrawer(null)}>
        Add New Integration
      </Button>
    </Box>
  );

  if (error) return <LoadError what="webhook integrations" error={error} onRetry={() => void mutate()} />;

  return (
    <>
      <PageHeader
        title="Webhook Integrations"
        subtitle="One integration per funnel: its reminder delay and email template"
        actions={
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
            <RemoveTestDeliveriesButton side="email" />
            {addButton}
          </Stack>
        }
      />
      {!data ? (
        <Grid container spacing={3}>
          {[0, 1, 2].map((i) => (
            <Grid key={i} size={{ xs: 12, md: 6, xl: 4 }}>
              <Skeleton variant="rounded" height={300} />
            </Grid>
          ))}
        </Grid>
      ) : data.length === 0 ? (
        <Card>
          <EmptyState icon={<HubIcon />}>
            No webhook integrations found. Click &quot;Add New Integration&quot; to create one.
          </EmptyState>
        </Card>
      ) : (
        <Grid container spacing={3}>
          {data.map((integration) => (
            <Grid key={integration.id} size={{ xs: 12, md: 6, xl: 4 }}>
              <IntegrationCard
                integration={integration}
                templateLabel={templateLabel(integration.resend_template_id, templates.data)}
                campaignLabel={campaignLabel(integration.campaign_id, campaigns.data)}
                busy={busyId === integration.id}
                onEdit={() => openDrawer(integration)}
                onToggle={() => toggle(integration)}
                onDelete={() => setConfirm({ kind: 'delete', integration })}
                onClearContacts={() => setConfirm({ kind: 'clear', integration })}
                isAdmin={isAdmin}
                onSetSecret={() => signingActions.openSet(integration)}
                onRemoveSecret={() => signingActions.openRemove(integration)}
                revenue={
                  revenue.data && integrationFigures(revenue.data, integration.id, 'email', integration.campaign_id)
                }
              />
            </Grid>
          ))}
        </Grid>
      )}

      <IntegrationDrawer
        open={drawerOpen}
        editing={editing}
        templates={templates.data}
        templatesError={Boolean(templates.error)}
        campaigns={campaigns.data}
        campaignsError={Boolean(campaigns.error)}
        smsCampaigns={smsCampaigns.data}
        smsCampaignsError={Boolean(smsCampaigns.error)}
        onChannelsChange={(channels) => setWithSms(includesSms(channels))}
        onClose={() => setDrawerOpen(false)}
        onSubmit={save}
      />

      {signingActions.dialogs}
      <ConfirmDialog
        open={confirmOpen && confirm?.kind === 'delete'}
        title="Delete Integration"
        description={
          <>
            Are you sure you want to delete{' '}
            <Box component="strong" sx={{ color: 'text.primary' }}>
              {confirm?.integration.name}
            </Box>
            ?
          </>
        }
        confirmLabel="Delete"
        destructive
        loading={confirmBusy}
        onClose={() => setConfirm(null)}
        onConfirm={confirmed}
      />
      <ConfirmDialog
        open={confirmOpen && confirm?.kind === 'clear'}
        title="Clear Associated Contacts"
        description={
          <>
            This will permanently delete all contacts associated with{' '}
            <Box component="strong" sx={{ color: 'text.primary' }}>
              {confirm?.integration.name}
            </Box>
            . This action cannot be undone.
          </>
        }
        confirmLabel="Clear Contacts"
        destructive
        loading={confirmBusy}
        onClose={() => setConfirm(null)}
        onConfirm={confirmed}
      />
    </>
  );
}
