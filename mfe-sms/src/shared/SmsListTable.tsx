import type { ReactNode } from 'react';
import { Box, MenuItem, TextField } from '@mui/material';
import {
  DataTable,
  ErrorCard,
  errorMessage,
  Pagination,
  SMS_PAGE_SIZES,
  type DataColumn,
  type PaginationProps,
} from '@act/ui-kit';
import { EmptyState, FilterBar, NOWRAP_CELLS, TableSkeleton } from './ui';

export interface SmsListTableProps<T extends { id: number }> {
  ariaLabel: string;
  columns: DataColumn<T>[];
  /** One page from `useServerList`: undefined data while it loads (a skeleton shows). */
  list: { data: { items: T[] } | undefined; error: unknown; mutate: () => unknown };
  /** Each row's `data-testid`. */
  rowTestId: string;
  /** The title of the load error's card. */
  errorTitle: string;
  /** The empty state: what to say with filters on, or with none. */
  empty: { icon: ReactNode; title: string; description: ReactNode };
  paginationProps: Omit<PaginationProps, 'pageSizeOptions' | 'variant'>;
  /** The filter bar's fields. */
  filters: ReactNode;
  /** Cells never wrap: the table scrolls sideways in its card instead. */
  nowrap?: boolean;
}

/**
 * An SMS list page's card on ui-kit's DataTable: filter bar, then the load error, the skeleton, the empty state
 * (without the table's head), or the rows and the sliding pagination.
 */
export function SmsListTable<T extends { id: number }>({
  ariaLabel,
  columns,
  list,
  rowTestId,
  errorTitle,
  empty,
  paginationProps,
  filters,
  nowrap = false,
}: SmsListTableProps<T>) {
  let placeholder;
  if (list.error && !list.data) {
    placeholder = <ErrorCard title={errorTitle} message={errorMessage(list.error)} onRetry={() => list.mutate()} />;
  } else if (!list.data) {
    placeholder = <TableSkeleton />;
  } else if (list.data.items.length === 0) {
    placeholder = (
      <Box sx={{ p: 2 }}>
        <EmptyState icon={empty.icon} title={empty.title} description={empty.description} />
      </Box>
    );
  }
  return (
    <DataTable
      ariaLabel={ariaLabel}
      tableSx={nowrap ? NOWRAP_CELLS : undefined}
      columns={columns}
      rows={list.data?.items}
      rowKey={(row) => row.id}
      rowProps={() => ({ hover: true, 'data-testid': rowTestId })}
      empty={null}
      placeholder={placeholder}
      footer={<Pagination {...paginationProps} pageSizeOptions={SMS_PAGE_SIZES} variant="sliding" />}
      header={<FilterBar>{filters}</FilterBar>}
    />
  );
}

/** A filter of the filter bar: a small select of fixed choices. */
export function FilterSelect({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: ReactNode }[];
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      sx={{ flex: 1, minWidth: 180 }}
    >
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
