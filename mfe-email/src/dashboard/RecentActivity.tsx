import { Box, Card, CardContent, Chip, Divider, Skeleton, Stack, Typography } from '@mui/material';
import MailIcon from '@mui/icons-material/MailOutlined';
import type { EmailLog } from '@act/contracts/src/email-api';
import { DateTime, EmptyState } from '@act/ui-kit';
import { SectionHeader } from '../shared';

const STATUS_LABELS: Record<string, string> = {
  would_send: 'Would Send',
  skipped_no_link: 'Skipped: no checkout link',
  sequence_restarted: 'Sequence restarted',
  sequence_exited: 'Sequence ended',
};
const OUTCOME_COLORS: Record<string, 'success' | 'warning' | 'error'> = {
  sent: 'success',
  unsubscribed: 'warning',
  failed: 'error',
};

/** The label of a log's status: 'Would Send' for would_send (section 2); other statuses title-cased. */
export function statusLabel(status: string): string {
  if (STATUS_LABELS[status]) return STATUS_LABELS[status];
  return status
    .split('_')
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

/** Section 2: the first 3 email log entries, or the empty text. */
export function RecentActivity({ logs }: { logs: EmailLog[] | undefined }) {
  return (
    <Card>
      <SectionHeader title="Recent Activity" subheader="The latest abandoned cart emails" />
      <Divider />
      <CardContent sx={{ p: 0, '&:last-child': { pb: 0 } }}>
        {logs === undefined ? (
          <Stack spacing={2} sx={{ p: 3 }}>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} variant="rounded" height={56} />
            ))}
          </Stack>
        ) : logs.length === 0 ? (
          <EmptyState icon={<MailIcon />}>No activity yet. Abandoned cart emails will appear here.</EmptyState>
        ) : (
          <Stack
            component="ul"
            divider={<Divider component="li" aria-hidden />}
            sx={{ listStyle: 'none', m: 0, p: 0 }}
            aria-label="Recent activity"
          >
            {logs.map((log) => (
              <Stack
                component="li"
                key={log.id}
                direction="row"
                spacing={2}
                sx={{ px: 3, py: 2, alignItems: 'flex-start' }}
              >
                <Box
                  aria-hidden
                  sx={{
                    mt: 0.25,
                    width: 36,
                    height: 36,
                    flexShrink: 0,
                    borderRadius: '50%',
                    display: 'grid',
                    placeItems: 'center',
                    bgcolor: 'primary.light',
                    color: 'primary.main',
                  }}
                >
                  <MailIcon fontSize="small" />
                </Box>
                <Box sx={{ minWidth: 0, flex: 1 }}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
                    <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{log.email}</Typography>
                    {/* Section 2: every entry is labelled 'Would Send'; what happened instead is shown beside it. */}
                    <Chip size="small" color="info" variant="outlined" label="Would Send" />
                    {log.status && log.status !== 'would_send' && (
                      <Chip
                        size="small"
                        variant="outlined"
                        color={OUTCOME_COLORS[log.status] ?? 'default'}
                        label={statusLabel(log.status)}
                        data-testid="activity-outcome"
                      />
                    )}
                  </Stack>
                  <Typography variant="body2" color="textSecondary" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
                    {log.message}
                  </Typography>
                </Box>
                <Typography
                  variant="caption"
                  color="textSecondary"
                  sx={{ flexShrink: 0, whiteSpace: 'nowrap', mt: 0.5 }}
                >
                  <DateTime value={log.timestamp} />
                </Typography>
              </Stack>
            ))}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
