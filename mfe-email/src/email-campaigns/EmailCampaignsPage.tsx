import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Box, Button, Link, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import TemplatesIcon from '@mui/icons-material/ListAltOutlined';
import CampaignIcon from '@mui/icons-material/CampaignOutlined';
import {
  ConfirmDialog,
  DataTable,
  ErrorCard,
  PageHeader,
  apiRequest,
  errorMessage,
  serverMessage,
  useToast,
  type DataColumn,
} from '@act/ui-kit';
import { ProviderBanner } from '@act/ui-kit/src/ProviderBanner';
import { useApi, useDeleteConfirm } from '../shared';
import { CAMPAIGNS, isCampaignKey, useReload, type CampaignRequest, type EmailCampaign } from './api';
import { statusCreatedActionsColumns } from './columns';
import { CampaignDialog } from './CampaignDialog';

/** The delete confirmation of spec §2, with the campaign's name in quotes. */
export function deleteCampaignText(name: string): string {
  return `This will permanently delete the campaign "${name}" and cannot be undone. All templates associated with this campaign will be orphaned.`;
}

/** /email-campaigns (spec §2): campaigns in a table, their dialogs, and the way to each one's templates. */
export default function EmailCampaignsPage() {
  const { toast } = useToast();
  const reload = useReload();
  const { data, error, mutate } = useApi<EmailCampaign[]>(CAMPAIGNS);

  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<EmailCampaign | null>(null);

  const refresh = () => reload(isCampaignKey, [CAMPAIGNS]);

  async function save(body: CampaignRequest): Promise<boolean> {
    try {
      if (editing) {
        await apiRequest<EmailCampaign>('PUT', `${CAMPAIGNS}/${editing.id}`, body);
        toast({ title: 'Campaign updated', description: body.name });
      } else {
        await apiRequest<EmailCampaign>('POST', CAMPAIGNS, body);
        toast({ title: 'Campaign created', description: body.name });
      }
      await refresh();
      return true;
    } catch (err) {
      toast({
        title: 'Error',
        description: serverMessage(err, editing ? 'Failed to update campaign' : 'Failed to create campaign'),
        variant: 'destructive',
      });
      return false;
    }
  }

  const deletion = useDeleteConfirm<EmailCampaign>(async (deleting, close) => {
    try {
      await apiRequest('DELETE', `${CAMPAIGNS}/${deleting.id}`);
      toast({ title: 'Campaign deleted', description: deleting.name });
      close();
      await refresh();
    } catch (err) {
      toast({ title: 'Error', description: serverMessage(err, 'Failed to delete campaign'), variant: 'destructive' });
    }
  });

  function openDialog(campaign: EmailCampaign | null) {
    setEditing(campaign);
    setDialogOpen(true);
  }

  const header = (
    <>
      <PageHeader
        title="Email Campaigns"
        subtitle="Sequences of reminder emails; each campaign holds its templates in order"
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog(null)}>
            Create Campaign
          </Button>
        }
      />
      <ProviderBanner provider="resend" />
    </>
  );

  if (error) {
    return (
      <>
        {header}
        <ErrorCard title="Error loading campaigns" message={errorMessage(error)} onRetry={() => void mutate()} />
      </>
    );
  }

  const campaigns = Array.isArray(data) ? data : undefined;
  const columns: DataColumn<EmailCampaign>[] = [
    {
      key: 'name',
      label: 'Name',
      cellSx: { fontWeight: 600 },
      render: (c) => (
        <Link component={RouterLink} to={`/email-templates/${c.id}`} underline="hover" color="inherit">
          {c.name}
        </Link>
      ),
    },
    {
      key: 'type',
      label: 'Type',
      render: (c) => (
        <Box component="code" sx={{ fontSize: 13, px: 0.75, py: 0.25, borderRadius: 1, bgcolor: 'action.hover' }}>
          {c.type}
        </Box>
      ),
    },
    {
      key: 'description',
      label: 'Description',
      cellSx: { maxWidth: 360 },
      render: (c) =>
        c.description ? (
          c.description
        ) : (
          <Typography component="span" color="textSecondary">
            —
          </Typography>
        ),
    },
    ...statusCreatedActionsColumns<EmailCampaign>(
      (c) => ({
        title: 'Templates',
        label: `Templates of ${c.name}`,
        icon: <TemplatesIcon fontSize="small" />,
        to: `/email-templates/${c.id}`,
      }),
      openDialog,
      deletion.ask,
    ),
  ];
  return (
    <>
      {header}
      <DataTable
        ariaLabel="Email campaigns"
        size="medium"
        columns={columns}
        rows={campaigns}
        rowKey={(c) => c.id}
        rowProps={() => ({ hover: true })}
        loadingRows={3}
        empty="No campaigns found. Create your first campaign using the button above."
        emptyIcon={<CampaignIcon />}
      />

      <CampaignDialog open={dialogOpen} editing={editing} onClose={() => setDialogOpen(false)} onSubmit={save} />
      <ConfirmDialog
        {...deletion.dialogProps}
        title="Are you sure?"
        description={deletion.subject ? deleteCampaignText(deletion.subject.name) : ''}
        confirmLabel="Delete"
        destructive
      />
    </>
  );
}
