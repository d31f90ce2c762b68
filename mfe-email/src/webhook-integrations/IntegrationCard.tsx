import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  Divider,
  Link,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import EditIcon from '@mui/icons-material/EditOutlined';
import PauseIcon from '@mui/icons-material/PauseCircleOutlined';
import PlayIcon from '@mui/icons-material/PlayCircleOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import ClearIcon from '@mui/icons-material/PersonRemoveOutlined';
import HelpIcon from '@mui/icons-material/HelpOutlineOutlined';
import type { WebhookIntegration } from '@act/contracts/src/email-api';
import { WebhookEndpoint } from '@act/ui-kit/src/WebhookSigning';
import { ShopCodesLine } from '@act/ui-kit/src/Incentives';
import { RevenueFigure, type RevenueFigures } from '@act/ui-kit/src/Revenue/RevenueFigure';
import { DateTime } from '@act/ui-kit';
import { minutes } from '../shared';
import { isDefaultIntegration } from './integrationForm';

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
      <Typography variant="body2" color="textSecondary" sx={{ flexShrink: 0 }}>
        {label}
      </Typography>
      <Typography
        variant="body2"
        component="div"
        sx={{ fontWeight: 500, textAlign: 'right', minWidth: 0, overflowWrap: 'anywhere' }}
      >
        {children}
      </Typography>
    </Stack>
  );
}

/** A disabled button still explains itself on hover (the default integration's rules, section 5). */
function Explained({ title, children }: { title: string | false; children: ReactNode }) {
  if (!title) return <>{children}</>;
  return (
    <Tooltip title={title}>
      <span>{children}</span>
    </Tooltip>
  );
}

export interface IntegrationCardProps {
  integration: WebhookIntegration;
  templateLabel: string | null;
  /** The attached email campaign's name; null when none is attached. */
  campaignLabel: string | null;
  busy: boolean;
  onEdit: () => void;
  onToggle: () => void;
  onDelete: () => void;
  onClearContacts: () => void;
  isAdmin: boolean;
  onSetSecret: () => void;
  onRemoveSecret: () => void;
  /** Its recovered revenue from the page's one summary (undefined while it loads). */
  revenue?: RevenueFigures;
}

export function IntegrationCard({
  integration,
  templateLabel,
  campaignLabel,
  busy,
  onEdit,
  onToggle,
  onDelete,
  onClearContacts,
  isAdmin,
  onSetSecret,
  onRemoveSecret,
  revenue,
}: IntegrationCardProps) {
  const isDefault = isDefaultIntegration(integration);
  return (
    <Card
      component="article"
      aria-label={integration.name}
      data-funnel-id={integration.funnel_id}
      sx={{
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        borderTop: 3,
        borderTopColor: integration.active ? 'success.main' : 'divider',
      }}
    >
      <CardContent sx={{ p: 3, flex: 1 }}>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'flex-start', mb: 2 }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="h6" component="h2" sx={{ fontWeight: 700, lineHeight: 1.3, overflowWrap: 'anywhere' }}>
              {integration.name}
            </Typography>
            {isDefault && (
              <Typography variant="caption" color="textSecondary">
                Used for funnels without an integration of their own
              </Typography>
            )}
          </Box>
          <Chip
            size="small"
            label={integration.active ? 'Active' : 'Inactive'}
            color={integration.active ? 'success' : 'default'}
            variant={integration.active ? 'filled' : 'outlined'}
          />
        </Stack>
        <Stack spacing={1.25}>
          <Detail label="Funnel ID">
            <Box
              component="span"
              sx={{ fontFamily: 'monospace', bgcolor: 'action.hover', px: 0.75, py: 0.25, borderRadius: 1 }}
            >
              {integration.funnel_id}
            </Box>
          </Detail>
          <Detail label="Reminder Delay">{minutes(integration.reminder_delay)}</Detail>
          <Detail label="Created">
            <DateTime value={integration.created_at} />
          </Detail>
          <Detail label="Email Campaign">
            {campaignLabel !== null && integration.campaign_id !== null ? (
              <Link component={RouterLink} to={`/email-templates/${integration.campaign_id}`} underline="hover">
                {campaignLabel}
              </Link>
            ) : (
              <Box component="span" sx={{ color: 'text.secondary', fontWeight: 400 }}>
                None
              </Box>
            )}
          </Detail>
          <Detail label="Email Template">
            {templateLabel ?? (
              <Box component="span" sx={{ color: 'text.secondary', fontWeight: 400 }}>
                None
              </Box>
            )}
          </Detail>
        </Stack>
        <Box sx={{ mt: 2 }}>
          <RevenueFigure of={integration.name} figures={revenue} showRate />
        </Box>
        <Divider sx={{ my: 2 }} />
        <WebhookEndpoint
          webhook_url={integration.webhook_url}
          signing={integration.signing}
          isAdmin={isAdmin}
          onSetSecret={onSetSecret}
          onRemoveSecret={onRemoveSecret}
        />
        <ShopCodesLine prefix="/api/email" integrationId={integration.id} integrationName={integration.name} isAdmin={isAdmin} />
      </CardContent>
      <Divider />
      <CardActions sx={{ px: 2, py: 1.5, flexWrap: 'wrap', gap: 1, '& > :not(style) ~ :not(style)': { ml: 0 } }}>
        <Button size="small" startIcon={<EditIcon />} onClick={onEdit} disabled={busy}>
          Edit
        </Button>
        <Button
          size="small"
          color={integration.active ? 'warning' : 'success'}
          startIcon={integration.active ? <PauseIcon /> : <PlayIcon />}
          onClick={onToggle}
          disabled={busy}
        >
          {integration.active ? 'Pause' : 'Activate'}
        </Button>
        <Explained title={isDefault && 'The default integration cannot be deleted'}>
          <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={onDelete} disabled={busy || isDefault}>
            Delete
          </Button>
        </Explained>
        <Button
          size="small"
          startIcon={<HelpIcon />}
          component={RouterLink}
          to={`/documentation?integration=${integration.id}`}
          aria-label={`How to connect ${integration.name}`}
        >
          How to connect
        </Button>
        <Box sx={{ flexBasis: '100%', height: 0 }} />
        <Explained title={isDefault && 'The default integration’s contacts cannot be cleared'}>
          <Button
            size="small"
            color="inherit"
            startIcon={<ClearIcon />}
            onClick={onClearContacts}
            disabled={busy || isDefault}
          >
            Clear Associated Contacts
          </Button>
        </Explained>
      </CardActions>
    </Card>
  );
}
