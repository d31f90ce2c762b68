import { Box, Button, Card, CardContent, CircularProgress, Divider, Stack, Typography } from '@mui/material';
import PlayIcon from '@mui/icons-material/PlayCircleOutlined';
import { AdminOnlyNote } from '@act/ui-kit/src/AdminOnlyNote';
import { ClearTestDataButton, NoTestDataNote, useProcessMissedEmails, SectionHeader } from '../shared';

/** Section 2: shown to every user; a production server lets only admins use it, and the card then says so. */
export function AdminToolsCard({ empty }: { empty: boolean }) {
  const { run, pending, refused } = useProcessMissedEmails();
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
            <AdminOnlyNote reason={refused} sx={{ mt: 1 }} />
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
