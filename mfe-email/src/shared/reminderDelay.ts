import { useState } from 'react';
import { apiRequest, errorMessage, useToast } from '@act/ui-kit';
import {
  REMINDER_DELAY_DEFAULT,
  REMINDER_DELAY_MESSAGE,
  reminderDelaySchema,
  type ReminderDelayResponse,
  type SetReminderDelayResponse,
} from '@act/contracts/src/email-api';
import { REMINDER_DELAY } from './keys';
import { useApi, useRefetch } from './data';

/**
 * Section 5: the dashboard dialog and the settings page take an integer from 1 to 720. The entry is
 * what the user typed; the rule is the contracts' schema, the one svc-email enforces too.
 * Returns the minutes, or null when the entry breaks the rule.
 */
export function parseReminderDelay(entry: string): number | null {
  if (entry.trim() === '') return null;
  try {
    return reminderDelaySchema.validateSync({ reminderDelay: entry }).reminderDelay;
  } catch {
    return null;
  }
}

/** The stored delay; 30 while the server gives none (section 2, Configuration card). */
export function useReminderDelay() {
  const { data, error, isLoading } = useApi<ReminderDelayResponse>(REMINDER_DELAY);
  const value = typeof data?.reminderDelay === 'number' ? data.reminderDelay : REMINDER_DELAY_DEFAULT;
  return { value, error, isLoading };
}

/**
 * Saving a new delay, shared by the dashboard dialog and the settings page: an invalid entry gives the
 * 'Invalid value' toast and sends nothing; success and failure toasts of section 8. Resolves true when saved.
 */
export function useSaveReminderDelay() {
  const { toast } = useToast();
  const refetch = useRefetch();
  const [saving, setSaving] = useState(false);

  async function save(entry: string): Promise<boolean> {
    const minutes = parseReminderDelay(entry);
    if (minutes === null) {
      toast({ title: 'Invalid value', description: REMINDER_DELAY_MESSAGE, variant: 'destructive' });
      return false;
    }
    setSaving(true);
    try {
      await apiRequest<SetReminderDelayResponse>('POST', REMINDER_DELAY, { reminderDelay: minutes });
      toast({ title: 'Configuration updated', description: `Reminder delay set to ${minutes} minutes.` });
      // The default integration carries the global delay, so its card changes too.
      await refetch('reminderDelay', 'integrations');
      return true;
    } catch (err) {
      toast({ title: 'Failed to update configuration', description: errorMessage(err), variant: 'destructive' });
      return false;
    } finally {
      setSaving(false);
    }
  }

  return { save, saving };
}
