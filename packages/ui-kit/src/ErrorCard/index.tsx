import type { ReactNode } from 'react';
import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';

export interface ErrorCardProps {
  title: ReactNode;
  message?: ReactNode;
  /** Shows a 'Retry' button. */
  onRetry?: () => void;
  retryLabel?: string;
  /** Any other action (e.g. 'Return to Dashboard'). */
  action?: ReactNode;
  /** 'error' (red accent) for failures, 'neutral' for states like 404 or Access Denied. */
  tone?: 'error' | 'neutral';
}

export function ErrorCard({ title, message, onRetry, retryLabel = 'Retry', action, tone = 'error' }: ErrorCardProps) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: { xs: 4, md: 8 }, px: 2 }}>
      <Card
        role={tone === 'error' ? 'alert' : undefined}
        variant="outlined"
        sx={{
          width: '100%',
          maxWidth: 520,
          borderTop: 4,
          borderTopColor: tone === 'error' ? 'error.main' : 'primary.main',
        }}
      >
        <CardContent sx={{ p: 4 }}>
          <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }}>
            <Box
              aria-hidden
              sx={{
                width: 56,
                height: 56,
                borderRadius: '50%',
                display: 'grid',
                placeItems: 'center',
                bgcolor: tone === 'error' ? 'error.light' : 'primary.light',
                color: tone === 'error' ? 'error.contrastText' : 'primary.contrastText',
                fontSize: 28,
                fontWeight: 700,
              }}
            >
              !
            </Box>
            <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
              {title}
            </Typography>
            {message && (
              <Typography color="textSecondary" component="div">
                {message}
              </Typography>
            )}
            {(onRetry || action) && (
              <Stack direction="row" spacing={1.5}>
                {onRetry && (
                  <Button variant="contained" onClick={onRetry}>
                    {retryLabel}
                  </Button>
                )}
                {action}
              </Stack>
            )}
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
