import type { ReactNode } from 'react';
import { Box, Stack, TableCell, TableRow, Typography } from '@mui/material';

/** A quiet, centred message for an empty list (the spec's empty texts). */
export function EmptyState({ icon, children }: { icon?: ReactNode; children: ReactNode }) {
  return (
    <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center', py: 6, px: 2, color: 'text.secondary' }}>
      {icon && (
        <Box
          aria-hidden
          sx={{
            display: 'grid',
            placeItems: 'center',
            width: 48,
            height: 48,
            borderRadius: '50%',
            bgcolor: 'action.hover',
            '& svg': { fontSize: 26 },
          }}
        >
          {icon}
        </Box>
      )}
      <Typography variant="body2" sx={{ maxWidth: 420 }}>
        {children}
      </Typography>
    </Stack>
  );
}

/** The same message as the only row of a table. */
export function TableMessageRow({
  colSpan,
  icon,
  children,
}: {
  colSpan: number;
  icon?: ReactNode;
  children: ReactNode;
}) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan} sx={{ borderBottom: 0 }}>
        <EmptyState icon={icon}>{children}</EmptyState>
      </TableCell>
    </TableRow>
  );
}
