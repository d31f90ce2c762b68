import { Box, Chip, Stack, Typography, type ChipProps } from '@mui/material';

/** Badge colours of a contact status; the map also knows 'abandoned' (section 3). */
const STATUS_COLOURS: Record<string, ChipProps['color']> = {
  pending: 'warning',
  sent: 'info',
  purchased: 'success',
  abandoned: 'error',
  // Not one of the spec's statuses: the reminder fell due for an unsubscribed address; nothing was sent.
  unsubscribed: 'default',
};

/** The reason a test delivery's contact gets no reminder, as its reminder log words it. */
const TEST_DELIVERY_HOLD = 'test delivery';

/**
 * A contact's status; "Sent (simulated)" when its reminder was only logged (live sending off: nobody received it),
 * "Held" with the reason when no reminder may go to it (the shopper declined promotions, a test delivery): its
 * reminder time passes without an email, so "Sent" would be untrue. A "Test" badge beside a test delivery's contact.
 */
export function StatusChip({
  status,
  simulated,
  test,
  held,
}: {
  status: string;
  simulated?: boolean;
  test?: boolean;
  held?: string | null;
}) {
  const reason = held || (test ? TEST_DELIVERY_HOLD : null);
  const isHeld = reason !== null && (status === 'sent' || status === 'pending');
  const named = status ? status[0]!.toUpperCase() + status.slice(1) : 'Unknown';
  const label = isHeld ? 'Held' : status === 'sent' && simulated ? 'Sent (simulated)' : named;
  return (
    <Box>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        <Chip
          size="small"
          variant="outlined"
          color={isHeld ? 'default' : (STATUS_COLOURS[status] ?? 'default')}
          label={label}
          data-status={status}
          data-held={isHeld ? 'true' : undefined}
          data-simulated={simulated ? 'true' : undefined}
        />
        {test && <Chip size="small" color="secondary" label="Test" data-testid="test-badge" />}
      </Stack>
      {isHeld && (
        <Typography variant="caption" color="textSecondary" sx={{ display: 'block', mt: 0.25, maxWidth: 220 }} data-testid="held-reason">
          {reason}
        </Typography>
      )}
    </Box>
  );
}
