import { useEffect, useRef, useState } from 'react';
import useSWR from 'swr';
import { SMS_DEFAULT_PAGE_SIZE, totalPagesOf, type PaginationProps } from '@act/ui-kit';

/** How long the search box waits for the typing to pause before asking the server (one request, not one per key). */
export const SEARCH_DEBOUNCE_MS = 300;

/** `value`, once it has stayed the same for `ms`. */
export function useDebounced<T>(value: T, ms = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(value, settled)) return undefined;
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, settled, ms]);
  return settled;
}

/**
 * Page and page size of a list the server pages (spec section 9): 50 rows by default, page 1 again when a
 * filter, the search or the size changes (reset while rendering, so no frame asks for the old page of a new
 * filter), and back to the last page when the list shrank under the user (a purchase under the Pending filter,
 * a clear).
 */
export function useServerPaging(resetOn: readonly unknown[]) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(SMS_DEFAULT_PAGE_SIZE);
  const resetKey = JSON.stringify(resetOn);
  const [seenResetKey, setSeenResetKey] = useState(resetKey);
  if (seenResetKey !== resetKey) {
    setSeenResetKey(resetKey);
    setPage(1);
  }

  /** The props of <Pagination> for a list of `total` rows (undefined while the first page loads). */
  const paginationProps = (total: number | undefined): Omit<PaginationProps, 'pageSizeOptions' | 'variant'> => {
    const totalPages = totalPagesOf(total ?? 0, pageSize);
    if (total !== undefined && page > totalPages) setPage(totalPages);
    return {
      page: Math.min(page, totalPages),
      pageSize,
      total: total ?? 0,
      onPageChange: (p) => setPage(Math.max(1, Math.min(p, totalPages))),
      onPageSizeChange: (size) => {
        setPageSize(size);
        setPage(1);
      },
    };
  };
  return { page, pageSize, paginationProps };
}

/**
 * One page of a list the server pages, fetched under `key` (the whole query). Rows on screen always match the
 * filters on screen: while a typed search waits to be applied (`typing`), or the first page of new filters is
 * loading, there is no page (the table shows its skeleton); moving between pages or sizes of the same filters keeps
 * the previous page until the next one arrives, so paging does not flicker. The summary cards count every row
 * whatever the filters, so the last answer's summary stays meanwhile.
 */
export function useServerList<T extends { total: number; summary: unknown }>(
  key: string,
  filters: readonly unknown[],
  typing: boolean,
) {
  const list = useSWR<T>(key);
  const filtersKey = JSON.stringify(filters);
  const last = useRef<{ filtersKey: string; data: T } | null>(null);
  if (list.data && last.current?.data !== list.data) last.current = { filtersKey, data: list.data };
  const sameFilters = last.current?.filtersKey === filtersKey;
  const data = typing ? undefined : (list.data ?? (sameFilters ? last.current?.data : undefined));
  return {
    data,
    summary: (list.data ?? last.current?.data)?.summary as T['summary'] | undefined,
    error: list.error as unknown,
    mutate: list.mutate,
  };
}
