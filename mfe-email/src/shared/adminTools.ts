import { useState } from 'react';
import { apiRequest, errorMessage, useToast } from '@act/ui-kit';
import { adminOnlyReason } from '@act/ui-kit/src/AdminOnlyNote';
import {
  RECENT_ACTIVITY_COUNT,
  type CheckAbandonedCartsResponse,
  type ContactPage,
  type EmailLog,
  type Paged,
  type SuccessResponse,
} from '@act/contracts/src/email-api';
import { contactsCountKey, recentEmailLogsKey } from './keys';
import { useApi, useRefetch } from './data';

export const CLEAR_DATA_CONFIRMATION =
  'Are you sure you want to clear all test data? This will remove all contacts, email logs, and webhook events.';
export const NO_TEST_DATA = 'No test data to clear. The database is empty.';

/** What the Admin Tools say after a 403 when the server gave no sentence of its own. */
const ADMIN_ONLY = 'Admin access required: on this server only administrators can use the Admin Tools';

/**
 * How many contacts and email logs there are, from one-row pages (their `total`), so the dashboard and
 * settings stay light at 50,000 contacts. The recent-logs page is the dashboard's Recent Activity too.
 */
export function useTestDataCounts() {
  const contacts = useApi<ContactPage>(contactsCountKey());
  const logs = useApi<Paged<EmailLog>>(recentEmailLogsKey(RECENT_ACTIVITY_COUNT));
  const loaded = contacts.data !== undefined && logs.data !== undefined;
  return {
    contacts,
    logs,
    /** Known and zero: section 2 shows the 'database is empty' note only then. */
    empty: loaded && contacts.data!.total === 0 && logs.data!.total === 0,
  };
}

/** POST /api/test/clear-data; afterwards contacts, email logs, webhook events and revenue are refetched (section 7). */
export function useClearTestData() {
  const { toast } = useToast();
  const refetch = useRefetch();
  const [pending, setPending] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);

  async function clear(): Promise<boolean> {
    setPending(true);
    try {
      const res = await apiRequest<SuccessResponse>('POST', '/api/test/clear-data');
      setRefused(null);
      toast({ title: 'Data Cleared', description: res?.message || undefined });
      await refetch('contacts', 'emailLogs', 'webhookEvents', 'revenue');
      return true;
    } catch (err) {
      setRefused(adminOnlyReason(err, ADMIN_ONLY));
      toast({ title: 'Error', description: `Failed to clear data: ${errorMessage(err)}`, variant: 'destructive' });
      return false;
    } finally {
      setPending(false);
    }
  }
  /** `refused`: the server's reason after a 403, shown next to the button. */
  return { clear, pending, refused };
}

/** POST /api/test/check-abandoned-carts (the sweep, now); afterwards contacts and email logs are refetched. */
export function useProcessMissedEmails() {
  const { toast } = useToast();
  const refetch = useRefetch();
  const [pending, setPending] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);

  async function run(): Promise<void> {
    setPending(true);
    try {
      const { processed } = await apiRequest<CheckAbandonedCartsResponse>('POST', '/api/test/check-abandoned-carts');
      setRefused(null);
      // The spec's sentence, then what the sweep really did: "processed" alone read as work done when nothing was due.
      toast({
        title: 'Emails Processed',
        description: `Abandoned cart check has been triggered and emails have been processed. ${processedSummary(processed)}`,
      });
      await refetch('contacts', 'emailLogs');
    } catch (err) {
      setRefused(adminOnlyReason(err, ADMIN_ONLY));
      toast({ title: 'Error', description: `Failed to process emails: ${errorMessage(err)}`, variant: 'destructive' });
    } finally {
      setPending(false);
    }
  }
  return { run, pending, refused };
}

/** How many reminders a sweep took: none due is said as such. */
export function processedSummary(processed: number | undefined): string {
  if (!processed) return 'No reminder was due.';
  return processed === 1 ? '1 reminder processed.' : `${processed} reminders processed.`;
}
