import { useState } from 'react';
import { Button, Typography } from '@mui/material';
import ClearIcon from '@mui/icons-material/DeleteSweepOutlined';
import { ConfirmDialog } from '@act/ui-kit';
import { AdminOnlyNote } from '@act/ui-kit/src/AdminOnlyNote';
import { CLEAR_DATA_CONFIRMATION, NO_TEST_DATA, useClearTestData } from './adminTools';

/** 'Clear All Test Data' with its confirmation (section 5), on the dashboard and the settings page. */
export function ClearTestDataButton({ fullWidth = false }: { fullWidth?: boolean }) {
  const [open, setOpen] = useState(false);
  const { clear, pending, refused } = useClearTestData();
  return (
    <>
      <Button
        variant="outlined"
        color="error"
        startIcon={<ClearIcon />}
        onClick={() => setOpen(true)}
        fullWidth={fullWidth}
      >
        Clear All Test Data
      </Button>
      <ConfirmDialog
        open={open}
        title="Clear All Test Data"
        description={CLEAR_DATA_CONFIRMATION}
        confirmLabel="Clear All Test Data"
        destructive
        loading={pending}
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          await clear();
          setOpen(false);
        }}
      />
      <AdminOnlyNote reason={refused} sx={{ mt: 1 }} />
    </>
  );
}

/** Section 2: shown when there are no contacts and no email logs. */
export function NoTestDataNote({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <Typography variant="body2" color="textSecondary" data-testid="no-test-data">
      {NO_TEST_DATA}
    </Typography>
  );
}
