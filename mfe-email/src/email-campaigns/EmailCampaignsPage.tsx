import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  Box,
  Button,
  Card,
  IconButton,
  Link,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import TemplatesIcon from '@mui/icons-material/ListAltOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import CampaignIcon from '@mui/icons-material/CampaignOutlined';
import { ConfirmDialog, ErrorCard, PageHeader, apiRequest, errorMessage, serverMessage, useToast } from '@act/ui-kit';
import { DateTime, TableMessageRow, useApi, useDeleteConfirm } from '../shared';
import { CAMPAIGNS, isCampaignKey, useReload, type CampaignRequest, type EmailCampaign } from './api';
import { ActiveChip } from './ActiveChip';
import { CampaignDialog } from './CampaignDialog';

const COLUMNS = 6;

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
    <PageHeader
      title="Email Campaigns"
      subtitle="Sequences of reminder emails; each campaign holds its templates in order"
      actions={
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog(null)}>
          Create Campaign
        </Button>
      }
    />
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
  return (
    <>
      {header}
      <Card>
        <TableContainer>
          <Table aria-label="Email campaigns">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Type</TableCell>
                <TableCell>Description</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Created</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {!campaigns ? (
                [0, 1, 2].map((i) => (
                  <TableRow key={i}>
                    <TableCell colSpan={COLUMNS}>
                      <Skeleton />
                    </TableCell>
                  </TableRow>
                ))
              ) : campaigns.length === 0 ? (
                <TableMessageRow colSpan={COLUMNS} icon={<CampaignIcon />}>
                  No campaigns found. Create your first campaign using the button above.
                </TableMessageRow>
              ) : (
                campaigns.map((c) => (
                  <TableRow key={c.id} hover>
                    <TableCell sx={{ fontWeight: 600 }}>
                      <Link component={RouterLink} to={`/email-templates/${c.id}`} underline="hover" color="inherit">
                        {c.name}
                      </Link>
                    </TableCell>
                    <TableCell>
                      <Box
                        component="code"
                        sx={{ fontSize: 13, px: 0.75, py: 0.25, borderRadius: 1, bgcolor: 'action.hover' }}
                      >
                        {c.type}
                      </Box>
                    </TableCell>
                    <TableCell sx={{ maxWidth: 360 }}>
                      {c.description ? (
                        c.description
                      ) : (
                        <Typography component="span" color="textSecondary">
                          —
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell>
                      <ActiveChip active={c.active} />
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      <DateTime value={c.created_at} />
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end' }}>
                        <Tooltip title="Templates">
                          <IconButton
                            component={RouterLink}
                            to={`/email-templates/${c.id}`}
                            aria-label={`Templates of ${c.name}`}
                            size="small"
                          >
                            <TemplatesIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                        <Tooltip title="Edit">
                          <IconButton aria-label={`Edit ${c.name}`} onClick={() => openDialog(c)} size="small">
                            <EditIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                        <Tooltip title="Delete">
                          <IconButton
                            aria-label={`Delete ${c.name}`}
                            onClick={() => deletion.ask(c)}
                            size="small"
                            color="error"
                          >
                            <DeleteIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      </Stack>
                    </TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        </TableContainer>
      </Card>

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
