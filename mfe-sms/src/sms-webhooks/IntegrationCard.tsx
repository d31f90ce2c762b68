import { Link as RouterLink } from 'react-router';
import { Box, Button, Card, CardActions, CardContent, Divider, Stack, Typography } from '@mui/material';
import HelpIcon from '@mui/icons-material/HelpOutlineOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import SendIcon from '@mui/icons-material/SendOutlined';
import type { SmsIntegration } from '@act/contracts/src/sms-api';
import { formatDate } from '@act/ui-kit';
import { WebhookEndpoint } from '@act/ui-kit/src/WebhookSigning';
import { ShopCodesLine } from '@act/ui-kit/src/Incentives';
import { RevenueFigure, type RevenueFigures } from '@act/ui-kit/src/Revenue/RevenueFigure';
import { ActiveBadge, Field } from '../shared/ui';

export interface IntegrationCardProps {
  integration: SmsIntegration;
  onEdit: () => void;
  onDelete: () => void;
  isAdmin: boolean;
  onSetSecret: () => void;
  onRemoveSecret: () => void;
  /** Sends a signed sample delivery to the integration's own URL. */
  onTestDelivery: () => void;
  /** Its recovered revenue from the page's one summary (undefined while it loads). */
  revenue?: RevenueFigures;
}

export function IntegrationCard({
  integration: i,
  onEdit,
  onDelete,
  isAdmin,
  onSetSecret,
  onRemoveSecret,
  onTestDelivery,
  revenue,
}: IntegrationCardProps) {
  return (
    <Card component="article" aria-label={i.name} sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      <CardContent sx={{ flex: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', justifyContent: 'space-between', mb: 2 }}>
          <Typography variant="h6" component="h2" sx={{ fontWeight: 700, lineHeight: 1.3, overflowWrap: 'anywhere' }}>
            {i.name}
          </Typography>
          <ActiveBadge active={i.active} />
        </Stack>
        <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 2 }}>
          <Field label="Funnel ID">
            <Box component="code" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 }}>
              {i.funnel_id}
            </Box>
          </Field>
          <Field label="Campaign">
            {i.campaign_name ?? (
              <Box component="span" sx={{ color: 'text.secondary', fontStyle: 'italic' }}>
                No Campaign
              </Box>
            )}
          </Field>
          <Field label="Reminder Delay">{`${i.reminder_delay} ${i.reminder_delay === 1 ? 'minute' : 'minutes'}`}</Field>
          <Field label="Created">{formatDate(i.created_at)}</Field>
        </Box>
        <Box sx={{ mt: 2 }}>
          <RevenueFigure of={i.name} figures={revenue} showRate />
        </Box>
        <Divider sx={{ my: 2 }} />
        <WebhookEndpoint
          webhook_url={i.webhook_url}
          signing={i.signing}
          isAdmin={isAdmin}
          onSetSecret={onSetSecret}
          onRemoveSecret={onRemoveSecret}
        />
        <ShopCodesLine prefix="/api/sms" integrationId={i.id} integrationName={i.name} isAdmin={isAdmin} />
      </CardContent>
      <Divider />
      <CardActions sx={{ px: 2, py: 1.25, justifyContent: 'flex-end', flexWrap: 'wrap', gap: 1 }}>
        <Button
          size="small"
          startIcon={<HelpIcon />}
          component={RouterLink}
          to={`/documentation?integration=${i.id}&side=sms`}
          aria-label={`How to connect ${i.name}`}
        >
          How to connect
        </Button>
        <Button size="small" startIcon={<SendIcon />} onClick={onTestDelivery}>
          Send test delivery
        </Button>
        <Button size="small" variant="outlined" startIcon={<EditIcon />} onClick={onEdit}>
          Edit
        </Button>
        <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={onDelete}>
          Delete
        </Button>
      </CardActions>
    </Card>
  );
}
