import { Box, Card, CardContent, Typography } from '@mui/material';

// Placeholder: the public unsubscribe page (no sidebar, no sign-in) is filled in by its own issue.
export default function UnsubscribePage() {
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }}>
      <Card sx={{ maxWidth: 480, width: '100%' }}>
        <CardContent>
          <Typography variant="h5" component="h1">
            Unsubscribe
          </Typography>
        </CardContent>
      </Card>
    </Box>
  );
}
