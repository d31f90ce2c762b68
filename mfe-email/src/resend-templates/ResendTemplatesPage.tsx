import { useEffect, useState } from 'react';
import { Button, Card, Grid, Skeleton, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import MailIcon from '@mui/icons-material/DraftsOutlined';
import { ConfirmDialog, ErrorCard, PageHeader, apiRequest, errorMessage, useToast } from '@act/ui-kit';
import { TEMPLATES, useApi, useDeleteConfirm } from '../shared';
import { CAMPAIGNS, isTemplateKey, useReload, type EmailCampaign, type EmailTemplate } from '../email-campaigns/api';
import { changedFields } from '../email-templates/rules';
import { TemplateCard } from './TemplateCard';
import { LegacyTemplateDialog } from './LegacyTemplateDialog';
import { legacyCreateRequestOf, legacyRequestOf, standaloneTemplates, type LegacyTemplateValues } from './templateForm';

/** /resend-templates: the legacy standalone templates (spec §2), as cards. */
export default function ResendTemplatesPage() {
  const { toast } = useToast();
  const reload = useReload();
  const { data, error, mutate } = useApi<EmailTemplate[]>(TEMPLATES);
  const campaigns = useApi<EmailCampaign[]>(CAMPAIGNS);
  const campaignIds = Array.isArray(campaigns.data) ? new Set(campaigns.data.map((c) => c.id)) : undefined;
  const templates = standaloneTemplates(data, campaignIds);

  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<EmailTemplate | null>(null);

  // Spec §8: a failed list load is told in a toast too.
  useEffect(() => {
    if (error) toast({ title: 'Failed to fetch templates', description: errorMessage(error), variant: 'destructive' });
  }, [error, toast]);

  const refresh = () => reload(isTemplateKey, [TEMPLATES]);

  function openDialog(template: EmailTemplate | null) {
    setEditing(template);
    setDialogOpen(true);
  }

  async function save(values: LegacyTemplateValues): Promise<boolean> {
    try {
      if (editing) {
        const changes = changedFields(legacyRequestOf(values), editing);
        if (Object.keys(changes).length > 0) await apiRequest('PATCH', `${TEMPLATES}/${editing.id}`, changes);
        toast({ title: 'Template updated', description: values.name.trim() });
      } else {
        await apiRequest('POST', TEMPLATES, legacyCreateRequestOf(values));
        toast({ title: 'Template created', description: values.name.trim() });
      }
      await refresh();
      return true;
    } catch (err) {
      toast({
        title: editing ? 'Failed to update template' : 'Failed to create template',
        description: errorMessage(err),
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
      toast({ title: 'Failed to delete template', description: errorMessage(err), variant: 'destructive' });
    }
  });

  const newButton = (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog(null)}>
      New Template
    </Button>
  );

  let content;
  if (error) {
    content = (
      <ErrorCard title="Failed to fetch templates" message={errorMessage(error)} onRetry={() => void mutate()} />
    );
  } else if (!templates) {
    content = (
      <Grid container spacing={3} aria-busy="true" aria-label="Loading templates">
        {[0, 1, 2].map((i) => (
          <Grid key={i} size={{ xs: 12, md: 6, xl: 4 }}>
            <Skeleton variant="rounded" height={420} />
          </Grid>
        ))}
      </Grid>
    );
  } else if (templates.length === 0) {
    content = (
      <Card>
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 8, px: 2 }}>
          <MailIcon sx={{ fontSize: 48, color: 'text.disabled' }} />
          <Typography variant="h6" component="h2" sx={{ fontWeight: 700 }}>
            No Templates Yet
          </Typography>
          <Typography color="textSecondary" sx={{ maxWidth: 420 }}>
            Write the reminder email your contacts receive. Start from the default cart reminder and make it yours.
          </Typography>
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog(null)}>
            Create Template
          </Button>
        </Stack>
      </Card>
    );
  } else {
    content = (
      <Grid container spacing={3}>
        {templates.map((t) => (
          <Grid key={t.id} size={{ xs: 12, md: 6, xl: 4 }}>
            <TemplateCard template={t} onEdit={() => openDialog(t)} onDelete={() => deletion.ask(t)} />
          </Grid>
        ))}
      </Grid>
    );
  }

  return (
    <>
      <PageHeader
        title="Resend Email Templates"
        subtitle="Standalone reminder templates that a webhook integration can send"
        actions={newButton}
      />
      {content}
      <LegacyTemplateDialog open={dialogOpen} editing={editing} onClose={() => setDialogOpen(false)} onSubmit={save} />
      <ConfirmDialog
        {...deletion.dialogProps}
        title="Delete Template"
        description="Are you sure you want to delete this template?"
        confirmLabel="Delete"
        destructive
      />
    </>
  );
}
