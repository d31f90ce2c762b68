import { useState } from 'react';
import { CircularProgress, IconButton, Tooltip } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useRefetch, type ListName } from './data';

/**
 * Loads the given lists again. Section 9 keeps loaded data as it is (no polling, no refetch on focus), so a
 * monitoring page needs a way to see what arrived since it was opened.
 */
export function RefreshButton({ lists }: { lists: ListName[] }) {
  const refetch = useRefetch();
  const [busy, setBusy] = useState(false);
  return (
    <Tooltip title="Refresh">
      <span>
        <IconButton
          aria-label="Refresh"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            await refetch(...lists);
            setBusy(false);
          }}
          sx={{ border: 1, borderColor: 'divider', bgcolor: 'background.paper' }}
        >
          {busy ? <CircularProgress size={20} /> : <RefreshIcon />}
        </IconButton>
      </span>
    </Tooltip>
  );
}
