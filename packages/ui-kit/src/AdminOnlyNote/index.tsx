import { Alert, type SxProps, type Theme } from '@mui/material';
// Through the shared package, not a relative path: this module is bundled into each remote that imports it (by
// path), and `instanceof` must meet the ApiError class of the singleton that threw it.
import { ApiError } from '@act/ui-kit';

/**
 * Why a production server refused a plain user an admin-only tool (403) that the spec shows to everyone: the
 * server's own sentence (it names the action), else `fallback`; null for any other failure, which the caller's toast
 * reports.
 */
export function adminOnlyReason(err: unknown, fallback: string): string | null {
  if (!(err instanceof ApiError) || err.status !== 403) return null;
  return err.serverMessage ?? fallback;
}

/** Next to a button the server refused: why (only admins may, on this server). Nothing when there is no reason. */
export function AdminOnlyNote({ reason, sx }: { reason: string | null; sx?: SxProps<Theme> }) {
  if (!reason) return null;
  return (
    <Alert severity="info" variant="outlined" sx={sx} data-testid="admin-only-note">
      {reason}
    </Alert>
  );
}
