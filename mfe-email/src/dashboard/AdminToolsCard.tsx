import { Box, Button, Card, CardContent, CircularProgress, Divider, Stack, Typography } from '@mui/material';
import PlayIcon from '@mui/icons-material/PlayCircleOutlined';
import { ClearTestDataButton, NoTestDataNote, useProcessMissedEmails, SectionHeader } from '../shared';

/** Section 2: shown to every user (server-side enforcement is svc-email's decision). */
export function AdminToolsCard({ empty }: { empty: boolean }) {
  const { run, pending } = useProcessMissedEmails();
  return (
    <Card>
      <SectionHeader title="Admin Tools" subheader="Maintenance and testing" />
      <Divider />
      <CardContent sx={{ p: 3 }}>
        <Stack spacing={2.5}>
          <Box>
            <Button
              variant="contained"
              fullWidth
              onClick={run}
              disabled={pending}
              startIcon={pending ? <CircularProgress size={16} color="inherit" /> : <PlayIcon />}
            >
              Process Missed Emails
            </Button>
            <Typography variant="body2" color="textSecondary" sx={{ mt: 1 }}>
              Checks for pending contacts whose reminder time has passed and processes their abandoned cart emails now.
            </Typography>
          </Box>
          <Divider />
          <Box>
            <ClearTestDataButton fullWidth />
            <Typography variant="body2" color="textSecondary" sx={{ mt: 1 }}>
              Removes all contacts, email logs and webhook events.
            </Typography>
          </Box>
          <NoTestDataNote show={empty} />
        </Stack>
      </CardContent>
    </Card>
  );
}
