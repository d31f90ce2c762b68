import { Chip, Stack, type ChipProps } from '@mui/material';

/** Badge colours of a contact status; the map also knows 'abandoned' (section 3). */
const STATUS_COLOURS: Record<string, ChipProps['color']> = {
  pending: 'warning',
  sent: 'info',
  purchased: 'success',
  abandoned: 'error',
  // Issue 14: the reminder fell due for an unsubscribed address; nothing was sent.
  unsubscribed: 'default',
};

/**
 * A contact's status; "Sent (simulated)" when its reminder was only logged (live sending off: nobody received it),
 * and a "Test" badge beside a test delivery's contact.
 */
export function StatusChip({ status, simulated, test }: { status: string; simulated?: boolean; test?: boolean }) {
  const named = status ? status[0]!.toUpperCase() + status.slice(1) : 'Unknown';
  const label = status === 'sent' && simulated ? 'Sent (simulated)' : named;
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
      <Chip
        size="small"
        variant="outlined"
        color={STATUS_COLOURS[status] ?? 'default'}
        label={label}
        data-status={status}
        data-simulated={simulated ? 'true' : undefined}
      />
      {test && <Chip size="small" color="secondary" label="Test" data-testid="test-badge" />}
    </Stack>
  );
}
