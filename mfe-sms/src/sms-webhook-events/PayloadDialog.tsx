import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import type { SmsWebhookEvent } from '@act/contracts/src/sms-api';
import { formatDateTime } from '@act/ui-kit';
import { prettyJson } from '../shared/format';
import { EventTypeBadge } from '../shared/status';

export function PayloadDialog({ event, onClose }: { event: SmsWebhookEvent | null; onClose: () => void }) {
  return (
    <Dialog open={event !== null} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="payload-dialog-title">
      <DialogTitle id="payload-dialog-title">{event ? `Webhook Event #${event.id}` : 'Webhook Event'}</DialogTitle>
      <DialogContent>
        {event && (
          <Stack spacing={2}>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <EventTypeBadge type={event.type} />
              <Typography variant="body2" color="textSecondary">
                Received {formatDateTime(event.timestamp)}
              </Typography>
            </Stack>
            <Box
              component="pre"
              data-testid="payload-json"
              sx={{
                m: 0,
                p: 2,
                borderRadius: 2,
                bgcolor: '#0f172a',
                color: '#e2e8f0',
                fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
                fontSize: 13,
                lineHeight: 1.6,
                overflow: 'auto',
                maxHeight: '60vh',
                whiteSpace: 'pre-wrap',
                wordBreak: 'break-word',
              }}
            >
              {prettyJson(event.payload)}
            </Box>
          </Stack>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} variant="contained">
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
