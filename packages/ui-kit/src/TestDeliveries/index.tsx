import { useState } from 'react';
import { Button, CircularProgress } from '@mui/material';
import CleanIcon from '@mui/icons-material/CleaningServicesOutlined';
// Through the shared package: one toast provider for the shell and every remote.
import { apiRequest, errorMessage, useToast } from '@act/ui-kit';

/** Where each side removes the contacts its "Send test delivery" made. */
export const CLEAR_TEST_DELIVERIES = { email: '/api/test/clear-test-deliveries', sms: '/api/sms-webhook-integrations/clear-test-deliveries' } as const;

/**
 * "Remove test deliveries": one click removes every contact a "Send test delivery" made on this side (and its log
 * rows); real contacts are never touched. The server answers how many went and records it in the audit log.
 */
export function RemoveTestDeliveriesButton({ side, onDone }: { side: keyof typeof CLEAR_TEST_DELIVERIES; onDone?: () => void }) {
  const { toast } = useToast();
  const [busy, setBusy] = useState(false);
  async function remove() {
    setBusy(true);
    try {
      const r = await apiRequest<{ message?: string }>('POST', CLEAR_TEST_DELIVERIES[side], {});
      toast({ title: 'Test deliveries removed', description: r?.message ?? '' });
      onDone?.();
    } catch (err) {
      toast({ title: 'Could not remove the test deliveries', description: errorMessage(err), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button variant="outlined" onClick={() => void remove()} disabled={busy} startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <CleanIcon />} data-testid="remove-test-deliveries">
      Remove test deliveries
    </Button>
  );
}
