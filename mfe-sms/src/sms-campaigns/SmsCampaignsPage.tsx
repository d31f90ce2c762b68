import { useMemo, useState } from 'react';
import useSWR from 'swr';
import { Box, Button, Card, CardContent, Skeleton, Stack } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import CampaignIcon from '@mui/icons-material/CampaignOutlined';
import { apiRequest, ConfirmDialog, ErrorCard, errorMessage, PageHeader } from '@act/ui-kit';
import { ProviderBanner } from '@act/ui-kit/src/ProviderBanner';
import type { SmsCampaign, SmsIntegration, SmsTemplate } from '@act/contracts/src/sms-api';
import { SMS_KEYS } from '../shared/keys';
import { EmptyState } from '../shared/ui';
import { useNotify } from '../shared/notify';
import { useRefetch } from '../shared/refetch';
import { CampaignCard } from './CampaignCard';
import { campaignFigures, useRevenueSummary } from '@act/ui-kit/src/Revenue/RevenueFigure';
import { CampaignDialog } from './CampaignDialog';
import { nextSequenceOrder, TemplateDialog } from './TemplateDialog';
import { TestSmsDialog } from './TestSmsDialog';

type Pending = { kind: 'campaign'; campaign: SmsCampaign } | { kind: 'template'; template: SmsTemplate };

/** /sms-campaigns: campaigns with their ordered SMS templates (spec section 2). */
export default function SmsCampaignsPage() {
  const notify = useNotify();
  const refetch = useRefetch();
  const campaigns = useSWR<SmsCampaign[]>(SMS_KEYS.campaigns);
  const templates = useSWR<SmsTemplate[]>(SMS_KEYS.templates);
  const revenue = useRevenueSummary('/api/sms/revenue');
  const integrations = useSWR<SmsIntegration[]>(SMS_KEYS.integrations);

  // Each dialog gets a new key per opening so its form starts from the values it is opened with.
  const [campaignDialog, setCampaignDialog] = useState<{ open: boolean; campaign: SmsCampaign | null; key: number }>({
    open: false,
    campaign: null,
    key: 0,
  });
  const [templateDialog, setTemplateDialog] = useState<{
    open: boolean;
    campaign: SmsCampaign | null;
    template: SmsTemplate | null;
    key: number;
  }>({
    open: false,
    campaign: null,
    template: null,
    key: 0,
  });
  const [testDialog, setTestDialog] = useState<{ open: boolean; template: SmsTemplate | null; key: number }>({
    open: false,
    template: null,
    key: 0,
  });
  const [pendingDelete, setPendingDelete] = useState<Pending | null>(null);
  const [deleting, setDeleting] = useState(false);

  const byCampaign = useMemo(() => {
    const map = new Map<number, SmsTemplate[]>();
    for (const t of templates.data ?? []) map.set(t.campaign_id, [...(map.get(t.campaign_id) ?? []), t]);
    return map;
  }, [templates.data]);

  const openCampaign = (campaign: SmsCampaign | null) =>
    setCampaignDialog((d) => ({ open: true, campaign, key: d.key + 1 }));
  const openTemplate = (campaign: SmsCampaign, template: SmsTemplate | null) =>
    setTemplateDialog((d) => ({ open: true, campaign, template, key: d.key + 1 }));
  const openTest = (template: SmsTemplate) => setTestDialog((d) => ({ open: true, template, key: d.key + 1 }));

  const confirmDelete = async () => {
    if (!pendingDelete) return;
    setDeleting(true);
    try {
      if (pendingDelete.kind === 'campaign') {
        try {
          await apiRequest('DELETE', `${SMS_KEYS.campaigns}/${pendingDelete.campaign.id}`);
        } catch (err) {
          notify.error(`Failed to delete campaign: ${errorMessage(err)}`);
          return;
        }
        notify.success('Campaign and associated templates deleted successfully');
        await refetch(SMS_KEYS.campaigns, SMS_KEYS.templates, SMS_KEYS.integrations);
      } else {
        try {
          await apiRequest('DELETE', `${SMS_KEYS.templates}/${pendingDelete.template.id}`);
        } catch (err) {
          notify.error(`Failed to delete template: ${errorMessage(err)}`);
          return;
        }
        notify.success('Template deleted successfully');
        setTemplateDialog((d) => ({ ...d, open: false }));
        await refetch(SMS_KEYS.templates, SMS_KEYS.campaigns);
      }
      setPendingDelete(null);
    } finally {
      setDeleting(false);
    }
  };

  const list = campaigns.data;
  const loadError = campaigns.error ?? templates.error;
  let body;
  if (loadError && (!list || !templates.data)) {
    body = (
      <ErrorCard
        title="Could not load SMS campaigns"
        message={errorMessage(loadError)}
        onRetry={() => {
          void campaigns.mutate();
          void templates.mutate();
        }}
      />
    );
  } else if (!list || !templates.data) {
    body = (
      <Stack spacing={2.5} aria-busy="true">
        {[0, 1].map((n) => (
          <Card key={n}>
            <CardContent>
              <Skeleton width="30%" height={32} />
              <Skeleton width="20%" />
              <Skeleton variant="rounded" height={56} sx={{ mt: 2 }} />
              <Skeleton variant="rounded" height={56} sx={{ mt: 1 }} />
            </CardContent>
          </Card>
        ))}
      </Stack>
    );
  } else if (list.length === 0) {
    body = (
      <EmptyState
        icon={<CampaignIcon />}
        title="No SMS campaigns yet"
        description="A campaign is an ordered series of text messages. Create one, then add its templates."
        action={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => openCampaign(null)}>
            New Campaign
          </Button>
        }
      />
    );
  } else {
    body = (
      <Box
        sx={{
          display: 'grid',
          gap: 2.5,
          gridTemplateColumns: { xs: '1fr', xl: 'repeat(2, minmax(0, 1fr))' },
          alignItems: 'start',
        }}
      >
        {list.map((c) => (
          <CampaignCard
            key={c.id}
            campaign={c}
            templates={byCampaign.get(c.id) ?? []}
            onEdit={() => openCampaign(c)}
            onDelete={() => setPendingDelete({ kind: 'campaign', campaign: c })}
            onAddTemplate={() => openTemplate(c, null)}
            onEditTemplate={(t) => openTemplate(c, t)}
            onTestTemplate={openTest}
            revenue={revenue.data && campaignFigures(revenue.data, c.id, 'sms')}
          />
        ))}
      </Box>
    );
  }

  const tdCampaign = templateDialog.campaign;
  return (
    <Box>
      <PageHeader
        title="SMS Campaigns"
        subtitle="Ordered text messages sent to contacts who left without buying."
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => openCampaign(null)}>
            New Campaign
          </Button>
        }
      />
      <ProviderBanner provider="twilio" />
      {body}
      <CampaignDialog
        key={`c${campaignDialog.key}`}
        open={campaignDialog.open}
        campaign={campaignDialog.campaign}
        integrations={integrations.data ?? []}
        onClose={() => setCampaignDialog((d) => ({ ...d, open: false }))}
      />
      {tdCampaign && (
        <TemplateDialog
          key={`t${templateDialog.key}`}
          open={templateDialog.open}
          campaignId={tdCampaign.id}
          campaignName={tdCampaign.name}
          template={templateDialog.template}
          defaultOrder={nextSequenceOrder(byCampaign.get(tdCampaign.id) ?? [])}
          onClose={() => setTemplateDialog((d) => ({ ...d, open: false }))}
          onDelete={(template) => setPendingDelete({ kind: 'template', template })}
        />
      )}
      <TestSmsDialog
        key={`s${testDialog.key}`}
        open={testDialog.open}
        template={testDialog.template}
        onClose={() => setTestDialog((d) => ({ ...d, open: false }))}
      />
      <ConfirmDialog
        open={pendingDelete !== null}
        title="Are you sure?"
        description={
          pendingDelete?.kind === 'campaign'
            ? `This deletes the campaign "${pendingDelete.campaign.name}" and all of its templates.`
            : pendingDelete?.kind === 'template'
              ? `This deletes the template "${pendingDelete.template.name}".`
              : undefined
        }
        confirmLabel="Delete"
        destructive
        loading={deleting}
        onConfirm={confirmDelete}
        onClose={() => setPendingDelete(null)}
      />
    </Box>
  );
}
