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
      // Data dropped, and with `revalidate` swr also forgets the key's last request: a page that moves to such a key
      // within swr's 2 s de-duplication window (the last page of a list that just shrank) loads it instead of
      // reusing that older answer. A key no hook shows is not fetched.
      await Promise.all(keys.map((k) => mutate(k, undefined, { revalidate: true })));
    },
    [mutate],
  );
  return useMemo(() => Object.assign(refetch, { forget }), [refetch, forget]);
}
