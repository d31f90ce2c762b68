import {
  Box,
  Button,
  Card,
  CardContent,
  Divider,
  IconButton,
  List,
  ListItem,
  ListItemButton,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/EditOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import SendIcon from '@mui/icons-material/SendOutlined';
import ScheduleIcon from '@mui/icons-material/ScheduleOutlined';
import type { SmsCampaign, SmsTemplate } from '@act/contracts/src/sms-api';
import { ActiveBadge, ActiveDot, Badge } from '../shared/ui';
import { RevenueFigure, type RevenueFigures } from '@act/ui-kit/src/Revenue/RevenueFigure';
import { ExperimentPanel } from '@act/ui-kit/src/Experiments';
import { IncentivesPanel } from '@act/ui-kit/src/Incentives';

/** Read by assistive technology, not shown. */
const SCREEN_READER_ONLY = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

export interface CampaignCardProps {
  campaign: SmsCampaign;
  /** This campaign's templates (any order; shown by sequence_order). */
  templates: SmsTemplate[];
  onEdit: () => void;
  onDelete: () => void;
  onAddTemplate: () => void;
  onEditTemplate: (t: SmsTemplate) => void;
  onTestTemplate: (t: SmsTemplate) => void;
  /** Its recovered revenue from the page's one summary (undefined while it loads). */
  revenue?: RevenueFigures;
}

export function sortBySequence<T extends Pick<SmsTemplate, 'sequence_order' | 'id'>>(templates: readonly T[]): T[] {
  return [...templates].sort((a, b) => a.sequence_order - b.sequence_order || a.id - b.id);
}

export function CampaignCard({
  campaign: c,
  templates,
  onEdit,
  onDelete,
  onAddTemplate,
  onEditTemplate,
  onTestTemplate,
  revenue,
}: CampaignCardProps) {
  const sorted = sortBySequence(templates);
  const count = c.template_count ?? templates.length;
  return (
    <Card component="article" aria-label={c.name}>
      <CardContent sx={{ pb: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
              <Typography variant="h6" component="h2" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
                {c.name}
              </Typography>
              <ActiveBadge active={c.active} />
            </Stack>
            <Stack
              direction="row"
              spacing={1}
              sx={{ mt: 0.5, color: 'text.secondary', alignItems: 'center', flexWrap: 'wrap' }}
            >
              <Typography variant="body2" color="textSecondary">
                {c.integration_name ?? <em>No Integration</em>}
              </Typography>
              <Typography variant="body2" color="textSecondary" aria-hidden>
                ·
              </Typography>
              <Typography
                variant="body2"
                color="textSecondary"
              >{`${count} ${count === 1 ? 'template' : 'templates'}`}</Typography>
            </Stack>
          </Box>
          <Tooltip title="Edit campaign">
            <IconButton aria-label={`Edit campaign ${c.name}`} onClick={onEdit} size="small">
              <EditIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title="Delete campaign">
            <IconButton aria-label={`Delete campaign ${c.name}`} onClick={onDelete} size="small" color="error">
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </Stack>
        <Box sx={{ mt: 1.5 }}>
          <RevenueFigure of={c.name} figures={revenue} templateName={(t) => (t.template_id !== null ? (templates.find((x) => x.id === t.template_id)?.name ?? null) : null)} />
        </Box>
      </CardContent>
      <Divider />
      {sorted.length === 0 ? (
        <Typography variant="body2" color="textSecondary" sx={{ px: 2.5, py: 2 }}>
          No templates in this campaign yet. Add the first message it sends.
        </Typography>
      ) : (
        <List disablePadding aria-label={`Templates of ${c.name}`}>
          {sorted.map((t, index) => (
            <ListItem
              key={t.id}
              disablePadding
              divider={index < sorted.length - 1}
              // Actions sit beside the clickable row, not over it, so long messages never run under them.
              sx={{ alignItems: 'stretch' }}
            >
              <ListItemButton
                onClick={() => onEditTemplate(t)}
                sx={{ flex: 1, minWidth: 0, py: 1.25, alignItems: 'flex-start' }}
              >
                <Box sx={{ minWidth: 0, flex: 1 }}>
                  {/* The row's name is what it shows, after what a click does: a name that left the shown text
                      out would not answer a voice command naming it (WCAG 2.5.3, label in name). */}
                  <Box component="span" sx={SCREEN_READER_ONLY}>
                    Edit template{' '}
                  </Box>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
                    <Badge label={`#${t.sequence_order}`} tone="primary" />
                    <Typography variant="subtitle2" component="span" sx={{ fontWeight: 600 }}>
                      {t.name}
                    </Typography>
                    {t.delay_minutes > 0 && (
                      <Badge
                        icon={<ScheduleIcon sx={{ fontSize: 14 }} />}
                        label={`${t.delay_minutes} min delay`}
                        tone="warning"
                      />
                    )}
                  </Stack>
                  <Typography
                    variant="body2"
                    color="textSecondary"
                    sx={{
                      mt: 0.5,
                      overflow: 'hidden',
                      textOverflow: 'ellipsis',
                      display: '-webkit-box',
                      WebkitLineClamp: 2,
                      WebkitBoxOrient: 'vertical',
                    }}
                  >
                    {t.message}
                  </Typography>
                </Box>
              </ListItemButton>
              <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', pr: 2, pl: 1, flexShrink: 0 }}>
                <Button
                  size="small"
                  variant="outlined"
                  startIcon={<SendIcon sx={{ fontSize: 16 }} />}
                  onClick={() => onTestTemplate(t)}
                  aria-label={`Test ${t.name}`}
                >
                  Test
                </Button>
                <ActiveDot active={t.active} />
              </Stack>
            </ListItem>
          ))}
        </List>
      )}
      <Divider />
      <Box sx={{ px: 2, py: 1 }}>
        <Button size="small" startIcon={<AddIcon />} onClick={onAddTemplate}>
          Add Template
        </Button>
      </Box>
      {sorted.length > 0 && (
        <Box sx={{ px: 2 }}>
          <ExperimentPanel
            base="/api/sms-campaigns"
            campaignId={c.id}
            campaignName={c.name}
            channel="sms"
            steps={sorted.map((t) => ({ id: t.id, name: `${t.name} (#${t.sequence_order})` }))}
          />
          <IncentivesPanel
            prefix="/api/sms"
            channel="sms"
            campaignName={c.name}
            steps={sorted.map((t) => ({ id: t.id, name: `${t.name} (#${t.sequence_order})` }))}
          />
        </Box>
      )}
    </Card>
  );
}
