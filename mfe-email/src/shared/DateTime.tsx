import { Box } from '@mui/material';
import { formatDate, formatDateTime, formatDateTimeFull, formatTime } from './format';

/**
 * A timestamp as short local text, with the full date and seconds on hover. `stacked` puts the time
 * under the date, for narrow table columns.
 */
export function DateTime({ value, stacked = false }: { value: string | null | undefined; stacked?: boolean }) {
  if (!value) return <>—</>;
  return (
    <time dateTime={value} title={formatDateTimeFull(value)}>
      {stacked ? (
        <>
          {formatDate(value)}
          <Box component="span" sx={{ display: 'block', color: 'text.secondary', fontSize: '0.75rem' }}>
            {formatTime(value)}
          </Box>
        </>
      ) : (
        formatDateTime(value)
      )}
    </time>
  );
}
