import { useMemo, useState } from 'react';
import { Box, Button, IconButton, MenuItem, Stack, TextField, Tooltip, Typography } from '@mui/material';

/** Email side (spec email-and-shell §9): 10/25/50/100/250, default 25. */
export const EMAIL_PAGE_SIZES = [10, 25, 50, 100, 250] as const;
export const EMAIL_DEFAULT_PAGE_SIZE = 25;
/** SMS side (spec sms-and-unsubscribe §9): 25/50/100/250/500, default 50. */
export const SMS_PAGE_SIZES = [25, 50, 100, 250, 500] as const;
export const SMS_DEFAULT_PAGE_SIZE = 50;

export function totalPagesOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

/** Email side: every page number within `radius` (2) either side of the current page. */
export function pagesAround(current: number, totalPages: number, radius = 2): number[] {
  const pages: number[] = [];
  for (let p = Math.max(1, current - radius); p <= Math.min(totalPages, current + radius); p++) pages.push(p);
  return pages;
}

/**
 * SMS side: at most `max` (5) buttons, as a window that slides with the current page and is
 * pinned at both ends (pages 1-5 near the start, the last 5 near the end).
 */
export function slidingPages(current: number, totalPages: number, max = 5): number[] {
  const count = Math.min(max, totalPages);
  let start = current - Math.floor(count / 2);
  start = Math.max(1, Math.min(start, totalPages - count + 1));
  return Array.from({ length: count }, (_, i) => start + i);
}

/** 'Showing x to y of z results' (0 to 0 when empty). */
export function rangeText(page: number, pageSize: number, total: number): string {
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(page * pageSize, total);
  return `Showing ${from} to ${to} of ${total} results`;
}

export interface PaginationProps {
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  pageSizeOptions?: readonly number[];
  /** 'around': ±2 pages (email); 'sliding': at most 5 buttons (SMS). */
  variant?: 'around' | 'sliding';
}

export function Pagination({
  page,
  pageSize,
  total,
  onPageChange,
  onPageSizeChange,
  pageSizeOptions = EMAIL_PAGE_SIZES,
  variant = 'around',
}: PaginationProps) {
  const totalPages = totalPagesOf(total, pageSize);
  const pages = variant === 'sliding' ? slidingPages(page, totalPages) : pagesAround(page, totalPages);

  return (
    <Stack
      component="nav"
      aria-label="Pagination"
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{ alignItems: { xs: 'flex-start', sm: 'center' }, justifyContent: 'space-between', py: 1.5 }}
    >
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="body2" color="textSecondary">
          {rangeText(page, pageSize, total)}
        </Typography>
        <TextField
          select
          size="small"
          fullWidth={false}
          label="Rows per page"
          value={pageSize}
          onChange={(e) => onPageSizeChange(Number(e.target.value))}
          sx={{ minWidth: 130 }}
        >
          {pageSizeOptions.map((size) => (
            <MenuItem key={size} value={size}>
              {size}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        <Tooltip title="Previous page">
          <span>
            <IconButton
              aria-label="Previous page"
              size="small"
              disabled={page <= 1}
              onClick={() => onPageChange(page - 1)}
            >
              <ChevronIcon direction="left" />
            </IconButton>
          </span>
        </Tooltip>
        {pages.map((p) => (
          <Button
            key={p}
            size="small"
            variant={p === page ? 'contained' : 'text'}
            aria-label={`Page ${p}`}
            aria-current={p === page ? 'page' : undefined}
            onClick={() => onPageChange(p)}
            sx={{ minWidth: 36, px: 1 }}
          >
            {p}
          </Button>
        ))}
        <Tooltip title="Next page">
          <span>
            <IconButton
              aria-label="Next page"
              size="small"
              disabled={page >= totalPages}
              onClick={() => onPageChange(page + 1)}
            >
              <ChevronIcon direction="right" />
            </IconButton>
          </span>
        </Tooltip>
      </Stack>
    </Stack>
  );
}

// A tiny inline chevron keeps ui-kit free of @mui/icons-material deep imports.
function ChevronIcon({ direction }: { direction: 'left' | 'right' }) {
  return (
    <Box component="svg" viewBox="0 0 24 24" sx={{ width: 20, height: 20, fill: 'currentColor' }} aria-hidden>
      <path
        d={
          direction === 'left'
            ? 'M15.41 7.41 14 6l-6 6 6 6 1.41-1.41L10.83 12z'
            : 'M10 6 8.59 7.41 13.17 12l-4.58 4.59L10 18l6-6z'
        }
      />
    </Box>
  );
}

export interface UsePaginationOptions {
  defaultPageSize?: number;
  /** Filters in force: when any of them changes, the page returns to 1 (spec §9). */
  resetOn?: readonly unknown[];
}

export interface PaginationState<T> {
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
  pageItems: T[];
  setPage: (page: number) => void;
  setPageSize: (size: number) => void;
  /** Spread into <Pagination {...paginationProps} pageSizeOptions=... />. */
  paginationProps: Pick<PaginationProps, 'page' | 'pageSize' | 'total' | 'onPageChange' | 'onPageSizeChange'>;
}

/** Client-side paging of a list loaded once (spec §1): page 1 again on a size or filter change. */
export function usePagination<T>(
  items: readonly T[],
  { defaultPageSize = EMAIL_DEFAULT_PAGE_SIZE, resetOn = [] }: UsePaginationOptions = {},
): PaginationState<T> {
  const [page, setPageState] = useState(1);
  const [pageSize, setPageSizeState] = useState(defaultPageSize);

  // Reset during render (not in an effect) so no frame ever shows the old page of a new filter.
  const resetKey = JSON.stringify(resetOn);
  const [seenResetKey, setSeenResetKey] = useState(resetKey);
  if (seenResetKey !== resetKey) {
    setSeenResetKey(resetKey);
    setPageState(1);
  }

  const total = items.length;
  const totalPages = totalPagesOf(total, pageSize);
  // A shrinking list (a delete, a filter) must not leave the user on a page that no longer exists.
  const current = Math.min(page, totalPages);

  const pageItems = useMemo(
    () => items.slice((current - 1) * pageSize, current * pageSize),
    [items, current, pageSize],
  );
  const setPage = (p: number) => setPageState(Math.max(1, Math.min(p, totalPages)));
  const setPageSize = (size: number) => {
    setPageSizeState(size);
    setPageState(1);
  };

  return {
    page: current,
    pageSize,
    total,
    totalPages,
    pageItems,
    setPage,
    setPageSize,
    paginationProps: { page: current, pageSize, total, onPageChange: setPage, onPageSizeChange: setPageSize },
  };
}
