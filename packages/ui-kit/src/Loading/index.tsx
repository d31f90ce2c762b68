import { Box, CircularProgress } from '@mui/material';

/** A centred spinner for a page or a whole screen while something loads. */
export function Loading({ fullScreen = false, label = 'Loading' }: { fullScreen?: boolean; label?: string }) {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: fullScreen ? '100vh' : 240, width: '100%' }}>
      <CircularProgress aria-label={label} />
    </Box>
  );
}
