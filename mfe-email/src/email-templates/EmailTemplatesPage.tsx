import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { Box, Button, Chip, Skeleton } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import BackIcon from '@mui/icons-material/ArrowBack';
import SendIcon from '@mui/icons-material/SendOutlined';
import MailIcon from '@mui/icons-material/MailOutlined';
import {
  ConfirmDialog,
  DataTable,
  ErrorCard,
  PageHeader,
  apiRequest,
  serverMessage,
  useToast,
  type DataColumn,
} from '@act/ui-kit';
import { useApi, useDeleteConfirm } from '../shared';
import { campaignFigures, RevenueFigure, useRevenueSummary } from '@act/ui-kit/src/Revenue/RevenueFigure';
import { ExperimentPanel } from '@act/ui-kit/src/Experiments';
import { IncentivesPanel } from '@act/ui-kit/src/Incentives';
import { TEMPLATES } from '../shared/keys';
import {
  campaignKey,
  campaignTemplatesKey,
  isTemplateKey,
  useReload,
  type EmailCampaign,
  type EmailTemplate,
} from '../email-campaigns/api';
import { statusCreatedActionsColumns } from '../email-campaigns/columns';
import { DEFAULT_TEMPLATE_TYPE } from '@act/contracts/src/email-api';
import { TemplateDialog } from './TemplateDialog';
import { TestEmailDialog } from './TestEmailDialog';
import {
  changedFields,
  delayLabel,
  inSequence,
  parseCampaignId,
  requestFieldsOf,
  type TemplateFormValues,
} from './rules';

/** /email-templates/{campaignId}: a campaign's email sequence (spec §2). */
export default function EmailTemplatesPage() {
  const { campaignId } = useParams();
  const id = parseCampaignId(campaignId);
  const { toast } = useToast();
  const reload = useReload();

  // Spec §2: an id of 0 or less (or not a number) disables the loads.
  const campaignPath = id !== null ? campaignKey(id) : null;
  const templatesPath = id !== null ? campaignTemplatesKey(id) : null;
  const campaign = useApi<EmailCampaign>(campaignPath);
  const templates = useApi<EmailTemplate[]>(templatesPath);
  const revenue = useRevenueSummary('/api/revenue', id !== null);

  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<EmailTemplate | null>(null);
  const [testing, setTesting] = useState<EmailTemplate | null>(null);

  function openDialog(template: EmailTemplate | null) {
    setEditing(template);
    setDialogOpen(true);
  }

  const list = Array.isArray(templates.data) ? inSequence(templates.data) : undefined;
  const refresh = () => reload(isTemplateKey, templatesPath ? [templatesPath] : []);

  async function save(values: TemplateFormValues): Promise<boolean> {
    const fields = requestFieldsOf(values);
    try {
      if (editing) {
        const changes = changedFields(fields, editing);
        if (Object.keys(changes).length > 0) await apiRequest('PATCH', `${TEMPLATES}/${editing.id}`, changes);
        toast({ title: 'Template updated', description: fields.name });
      } else {
        await apiRequest('POST', TEMPLATES, {
          ...fields,
          campaign_id: id,
          // Spec §7: a template made from a campaign takes the campaign's type.
          type: campaign.data?.type || DEFAULT_TEMPLATE_TYPE,
        });
        toast({ title: 'Template created', description: fields.name });
      }
      await refresh();
      return true;
    } catch (err) {
      toast({
        title: 'Error',
        description: serverMessage(err, editing ? 'Failed to update template' : 'Failed to create template'),
        variant: 'destructive',
      });
      return false;
    }
  }

  const deletion = useDeleteConfirm<EmailTemplate>(async (deleting, close) => {
    try {
      await apiRequest('DELETE', `${TEMPLATES}/${deleting.id}`);
      toast({ title: 'Template deleted', description: deleting.name });
      close();
      await refresh();
    } catch (err) {
      toast({ title: 'Error', description: serverMessage(err, 'Failed to delete template'), variant: 'destructive' });
    }
  });

  const back = (
    <Button component={RouterLink} to="/email-campaigns" startIcon={<BackIcon />} color="inherit" sx={{ mb: 2 }}>
      Back to Campaigns
    </Button>
  );

  if (id === null || campaign.error || templates.error) {
    return (
      <>
        {back}
        <ErrorCard
          title="Error loading campaign or templates"
          message="The campaign might not exist or there was an error fetching data."
          onRetry={
            id === null
              ? undefined
              : () => {
                  void campaign.mutate();
                  void templates.mutate();
                }
          }
        />
      </>
    );
  }

  const c = campaign.data;
  const columns: DataColumn<EmailTemplate>[] = [
    {
      key: 'order',
      label: 'Order',
      headSx: { width: 72 },
      render: (t) => (
        <Chip label={t.template_order} size="small" variant="outlined" sx={{ fontWeight: 700, minWidth: 32 }} />
      ),
    },
    { key: 'name', label: 'Name', cellSx: { fontWeight: 600 }, render: (t) => t.name },
    {
      key: 'subject',
      label: 'Subject',
      cellSx: { maxWidth: 320, overflowWrap: 'break-word' },
      render: (t) => t.subject,
    },
    { key: 'delay', label: 'Delay', cellSx: { whiteSpace: 'nowrap' }, render: (t) => delayLabel(t.delay_hours) },
    ...statusCreatedActionsColumns<EmailTemplate>(
      (t) => ({
        title: 'Send test email',
        label: `Send test email: ${t.name}`,
        icon: <SendIcon fontSize="small" />,
        onClick: () => setTesting(t),
      }),
      openDialog,
      deletion.ask,
    ),
  ];
  return (
    <>
      {back}
      {c ? (
        <PageHeader
          title={`Email Templates - ${c.name}`}
          subtitle={c.description || `Manage templates for ${c.type || DEFAULT_TEMPLATE_TYPE} emails`}
          actions={
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog(null)} disabled={!list}>
              Add Template
            </Button>
          }
        />
      ) : (
        <Box sx={{ mb: 3 }}>
          <Skeleton width={360} height={44} />
          <Skeleton width={260} />
        </Box>
      )}

      {id !== null && (
        <Box sx={{ mb: 3 }}>
          <RevenueFigure
            of={c?.name ?? 'this campaign'}
            figures={revenue.data && campaignFigures(revenue.data, id, 'email')}
            templateName={(t) =>
              t.template_id !== null ? (list?.find((x) => x.id === t.template_id)?.name ?? null) : null
            }
          />
        </Box>
      )}

      <DataTable
        ariaLabel="Email templates"
        size="medium"
        columns={columns}
        rows={list}
        rowKey={(t) => t.id}
        rowProps={() => ({ hover: true })}
        loadingRows={3}
        empty="No templates found. Create your first template using the button above."
        emptyIcon={<MailIcon />}
      />

      {/* The campaign's templates first (the page's own work); what is tried and given on them after. */}
      <Box sx={{ mt: 3 }}>
        {id !== null && c && list && (
          <ExperimentPanel
            base="/api/email/campaigns"
            campaignId={id}
            campaignName={c.name}
            channel="email"
            steps={list.map((t) => ({ id: t.id, name: `${t.name} (step ${t.template_order})` }))}
          />
        )}

        {id !== null && c && list && list.length > 0 && (
          <IncentivesPanel
            prefix="/api/email"
            channel="email"
            campaignName={c.name}
            steps={list.map((t) => ({ id: t.id, name: `${t.name} (step ${t.template_order})` }))}
          />
        )}
      </Box>

      <TemplateDialog
        open={dialogOpen}
        editing={editing}
        siblings={list}
        onClose={() => setDialogOpen(false)}
        onSubmit={save}
      />
      <TestEmailDialog template={testing} onClose={() => setTesting(null)} />
      <ConfirmDialog
        {...deletion.dialogProps}
        title="Are you sure?"
        description={
          <>
            This will permanently delete the template &ldquo;{deletion.subject?.name}&rdquo;. This action cannot be
            undone.
          </>
        }
        confirmLabel="Delete"
        destructive
      />
    </>
  );
}
