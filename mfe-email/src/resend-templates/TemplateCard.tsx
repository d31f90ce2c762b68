import { Box, Button, Card, CardActions, CardContent, Divider, Stack, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/EditOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import type { EmailTemplate } from '../email-campaigns/api';
import { ActiveChip } from '../email-campaigns/ActiveChip';
import { HtmlPreview } from '../rich-editor/HtmlPreview';

/** A legacy template as a card: name, subject, badge, from name, the rendered HTML, Edit and Delete. */
export function TemplateCard({
  template,
  onEdit,
  onDelete,
}: {
  template: EmailTemplate;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <Card sx={{ height: '100%', display: 'flex', flexDirection: 'column' }} data-testid="template-card">
      <CardContent sx={{ pb: 1.5 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}>
          <Typography
            variant="h6"
            component="h2"
            sx={{ fontWeight: 700, fontSize: '1.05rem', overflowWrap: 'anywhere' }}
          >
            {template.name}
          </Typography>
          <ActiveChip active={template.active} />
        </Stack>
        {template.campaign_id !== null && template.campaign_id !== undefined && (
          <Typography variant="caption" color="warning.main" data-testid="orphan-note" sx={{ display: 'block', mt: 0.5 }}>
            {`Orphaned: its campaign (#${template.campaign_id}) was deleted`}
          </Typography>
        )}
        <Typography variant="body2" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
          <Box component="span" sx={{ color: 'text.secondary' }}>
            Subject:{' '}
          </Box>
          {template.subject || '—'}
        </Typography>
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          <Box component="span" sx={{ color: 'text.secondary' }}>
            From:{' '}
          </Box>
          {template.from_name || '—'}
        </Typography>
      </CardContent>
      <Box
        sx={{
          mx: 2,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1.5,
          overflow: 'hidden',
          flex: 1,
          minHeight: 220,
        }}
      >
        <HtmlPreview html={template.html_content ?? ''} title={`Preview of ${template.name}`} height={240} />
      </Box>
      <Divider sx={{ mt: 2 }} />
      <CardActions sx={{ px: 2, py: 1.25, justifyContent: 'flex-end' }}>
        <Button size="small" startIcon={<EditIcon />} onClick={onEdit} aria-label={`Edit ${template.name}`}>
          Edit
        </Button>
        <Button
          size="small"
          color="error"
          startIcon={<DeleteIcon />}
          onClick={onDelete}
          aria-label={`Delete ${template.name}`}
        >
          Delete
        </Button>
      </CardActions>
    </Card>
  );
}
