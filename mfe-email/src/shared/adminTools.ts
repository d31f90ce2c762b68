import { useState } from 'react';
import { apiRequest, errorMessage, useToast } from '@act/ui-kit';
import {
  RECENT_ACTIVITY_COUNT,
  type CheckAbandonedCartsResponse,
  type EmailLog,
  type Paged,
  type SuccessResponse,
} from '@act/contracts/src/email-api';
import { contactsCountKey, recentEmailLogsKey } from './keys';
import { useApi, useRefetch } from './data';

export const CLEAR_DATA_CONFIRMATION =
  'Are you sure you want to clear all test data? This will remove all contacts, email logs, and webhook events.';
export const NO_TEST_DATA = 'No test data to clear. The database is empty.';

/**
 * How many contacts and email logs there are, from one-row pages (their `total`), so the dashboard and
 * settings stay light at 50,000 contacts. The recent-logs page is the dashboard's Recent Activity too.
 */
export function useTestDataCounts() {
  const contacts = useApi<Paged<unknown>>(contactsCountKey());
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

  async function clear(): Promise<boolean> {
    setPending(true);
    try {
      const res = await apiRequest<SuccessResponse>('POST', '/api/test/clear-data');
      toast({ title: 'Data Cleared', description: res?.message || undefined });
      await refetch('contacts', 'emailLogs', 'webhookEvents', 'revenue');
      return true;
    } catch (err) {
      toast({ title: 'Error', description: `Failed to clear data: ${errorMessage(err)}`, variant: 'destructive' });
      return false;
    } finally {
      setPending(false);
    }
  }
  return { clear, pending };
}

/** POST /api/test/check-abandoned-carts (the sweep, now); afterwards contacts and email logs are refetched. */
export function useProcessMissedEmails() {
  const { toast } = useToast();
  const refetch = useRefetch();
  const [pending, setPending] = useState(false);

  async function run(): Promise<void> {
    setPending(true);
    try {
      await apiRequest<CheckAbandonedCartsResponse>('POST', '/api/test/check-abandoned-carts');
      toast({
        title: 'Emails Processed',
        description: 'Abandoned cart check has been triggered and emails have been processed.',
      });
      await refetch('contacts', 'emailLogs');
    } catch (err) {
      toast({ title: 'Error', description: `Failed to process emails: ${errorMessage(err)}`, variant: 'destructive' });
    } finally {
      setPending(false);
    }
  }
  return { run, pending };
}
