import { useCallback, useMemo } from 'react';
import { useSWRConfig } from 'swr';

type Key = string | ((key: unknown) => boolean);

/**
 * After a change (spec section 7: "the affected lists are refetched"), bound to the cache of the nearest
 * SWRConfig (the shell's, or a test's own), which swr's global `mutate` would miss.
 *
 * - `refetch(keys)`: lists shown on this page load again now.
 * - `forget(keys)`: lists of other pages are dropped from the cache, so they load afresh when next opened
 *   (the ui-kit defaults never revalidate cached data on mount).
 */
export function useRefetch() {
  const { mutate } = useSWRConfig();
  const refetch = useCallback(
    async (...keys: Key[]) => {
      await Promise.all(keys.map((k) => mutate(k)));
    },
    [mutate],
  );
  const forget = useCallback(
    async (...keys: Key[]) => {
      await Promise.all(keys.map((k) => mutate(k, undefined, { revalidate: false })));
    },
    [mutate],
  );
  return useMemo(() => Object.assign(refetch, { forget }), [refetch, forget]);
}
