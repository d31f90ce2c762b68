import { useCallback, useEffect } from 'react';
import useSWR, { useSWRConfig, type SWRConfiguration } from 'swr';
import { CONTACTS, EMAIL_LOGS, INTEGRATIONS, REMINDER_DELAY, WEBHOOK_EVENTS, matches } from './keys';

/**
 * Keys with a mounted loader right now. SWR's `mutate(key)` refetches only keys some component is
 * showing; a key cached by a page the user has left would keep its old data forever, since the ui-kit
 * defaults never revalidate cached data on mount (spec §9: data never becomes stale). So a refetch
 * revalidates the mounted keys in place and drops the others from the cache: the next visit loads anew.
 */
const mounted = new Map<string, number>();

/** A GET load through the ui-kit SWR defaults (no retry, no focus refetch, no polling). */
export function useApi<T>(key: string | null, options?: SWRConfiguration<T>) {
  useEffect(() => {
    if (!key) return;
    mounted.set(key, (mounted.get(key) ?? 0) + 1);
    return () => {
      const n = (mounted.get(key) ?? 1) - 1;
      if (n > 0) mounted.set(key, n);
      else mounted.delete(key);
    };
  }, [key]);
  return useSWR<T>(key, options);
}

/** The lists a change can affect (spec §7: after each successful change the matching list is reloaded). */
export const LISTS = {
  contacts: matches(CONTACTS),
  emailLogs: matches(EMAIL_LOGS),
  webhookEvents: matches(WEBHOOK_EVENTS),
  integrations: matches(INTEGRATIONS),
  reminderDelay: matches(REMINDER_DELAY),
  /** The revenue summaries (Dashboard panel, cards, campaign pages): Clear All Test Data empties their ledger. */
  revenue: (key: unknown): boolean => typeof key === 'string' && key.startsWith('/api/revenue/'),
} as const;

export type ListName = keyof typeof LISTS;

/** `const refetch = useRefetch(); await refetch('contacts', 'emailLogs')`. */
export function useRefetch() {
  const { cache, mutate } = useSWRConfig();
  return useCallback(
    async (...lists: ListName[]) => {
      const keys = [...cache.keys()].filter((key) => lists.some((name) => LISTS[name](key)));
      await Promise.all(
        keys.map((key) => (mounted.has(key) ? mutate(key) : mutate(key, undefined, { revalidate: true }))),
      ).catch(() => {
        // A failed reload shows in the page that owns it (its ErrorCard); the change itself succeeded.
      });
    },
    [cache, mutate],
  );
}
