import { Chip, type ChipProps } from '@mui/material';

/** Badge colours of a contact status; the map also knows 'abandoned' (section 3). */
const STATUS_COLOURS: Record<string, ChipProps['color']> = {
  pending: 'warning',
  sent: 'info',
  purchased: 'success',
  abandoned: 'error',
  // Issue 14: the reminder fell due for an unsubscribed address; nothing was sent.
  unsubscribed: 'default',
};

export function StatusChip({ status }: { status: string }) {
  const label = status ? status[0]!.toUpperCase() + status.slice(1) : 'Unknown';
  return (
    <Chip
      size="small"
      variant="outlined"
      color={STATUS_COLOURS[status] ?? 'default'}
      label={label}
      data-status={status}
    />
  );
}
