import { useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import {
  Box,
  Card,
  CircularProgress,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  Typography,
  type TableRowProps,
  type SxProps,
  type Theme,
} from '@mui/material';

/** A quiet, centred message for an empty list (the spec's empty texts). */
export function EmptyState({ icon, children }: { icon?: ReactNode; children: ReactNode }) {
  return (
    <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center', py: 6, px: 2, color: 'text.secondary' }}>
      {icon && (
        <Box
          aria-hidden
          sx={{
            display: 'grid',
            placeItems: 'center',
            width: 48,
            height: 48,
            borderRadius: '50%',
            bgcolor: 'action.hover',
            '& svg': { fontSize: 26 },
          }}
        >
          {icon}
        </Box>
      )}
      <Typography variant="body2" sx={{ maxWidth: 420 }}>
        {children}
      </Typography>
    </Stack>
  );
}

/**
 * The visible width of the scrolling table around `ref` (null outside one): a wide table (minWidth 800+) at a
 * phone's width scrolls sideways, and a message centred across all its columns would sit off-screen.
 */
function useScrollerWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const scroller = ref.current?.closest<HTMLElement>('.MuiTableContainer-root');
    if (!scroller) return;
    const measure = () => setWidth(scroller.clientWidth);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(scroller);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * The same message as the only row of a table: as wide as the visible part of the table and pinned to its left
 * edge, so it stays in view however wide the table's columns make it.
 */
export function TableMessageRow({
  colSpan,
  icon,
  children,
}: {
  colSpan: number;
  icon?: ReactNode;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const width = useScrollerWidth(ref);
  return (
    <TableRow>
      <TableCell colSpan={colSpan} sx={{ borderBottom: 0, p: 0 }}>
        <Box ref={ref} sx={{ position: 'sticky', left: 0, width: width ?? 'auto', boxSizing: 'border-box' }}>
          <EmptyState icon={icon}>{children}</EmptyState>
        </Box>
      </TableCell>
    </TableRow>
  );
}

export interface DataColumn<T> {
  /** Also the React key of the column's cells, and the key a sortable column reports to `sort.onSort`. */
  key: string;
  label: ReactNode;
  render: (row: T) => ReactNode;
  cellSx?: SxProps<Theme>;
  /** The head cell's style (a fixed width, no wrapping). */
  headSx?: SxProps<Theme>;
  align?: 'left' | 'center' | 'right';
  /** The head is a sort button (see `DataTableProps.sort`). */
  sortable?: boolean;
  /** The `data-testid` of the column's cells (tests read a row's cell by it). */
  testId?: string;
  /** The cell's caption on a phone, where each row is a card; default: the label when it is text. */
  cardLabel?: string;
}

/** The order a table is shown in; the page sorts (or asks the server to), the table only shows and reports clicks. */
export interface DataTableSort {
  key: string;
  dir: 'asc' | 'desc';
  onSort: (key: string) => void;
}

/** What a row may carry besides its cells: hover shading, test and data attributes, a style. */
export type DataRowProps = Omit<TableRowProps, 'children'> & { [data: `data-${string}`]: string | number | undefined };

export interface DataTableProps<T> {
  columns: DataColumn<T>[];
  /** Undefined while loading: the table shows its head and no rows (or `loading`). */
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string | number;
  /** The text shown when there are no rows. */
  empty: ReactNode;
  emptyIcon?: ReactNode;
  /** The text shown, with a spinner, while `rows` is undefined. */
  loading?: ReactNode;
  /** Without a loading text: this many skeleton rows while `rows` is undefined (a short list of known shape). */
  loadingRows?: number;
  /** Names the scrolling region and the table for keyboard and screen-reader users. */
  ariaLabel: string;
  /** Below this width the table scrolls inside its card instead of squeezing its columns (a phone's width). */
  minWidth?: number;
  size?: 'small' | 'medium';
  tableSx?: SxProps<Theme>;
  sort?: DataTableSort;
  rowProps?: (row: T) => DataRowProps;
  /** The rows are the previous answer while the next one loads: dimmed, so nothing flickers. */
  stale?: boolean;
  /** Inside the card, above the table (filters, a count, a progress bar). */
  header?: ReactNode;
  /** Inside the card in place of the table and footer (a load error; a skeleton or an empty state of its own). */
  placeholder?: ReactNode;
  /** Under the table, inside the card (pagination). */
  footer?: ReactNode;
}

const cardLabelOf = <T,>(c: DataColumn<T>) => c.cardLabel ?? (typeof c.label === 'string' ? c.label : undefined);

/**
 * Below the `sm` breakpoint (a phone) each row is a card: every cell on its own line under its column's caption,
 * so Status and the row's actions are on screen without scrolling sideways; the head keeps only its sort buttons.
 * Written as CSS on the same table (roles kept explicit), so the rows, cells and their test ids are the same
 * elements at every width.
 */
const PHONE_CARDS = (theme: Theme) => ({
  [theme.breakpoints.down('sm')]: {
    // As a block, the table is as wide as its card: a table box would widen to its widest cell's content.
    display: 'block',
    minWidth: 0,
    width: '100%',
    '& thead, & tbody': { display: 'block' },
    '& thead tr': { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 2, px: 2, py: 0.5 },
    '& thead tr::before': { content: '"Sort by"', ...theme.typography.caption, color: theme.palette.text.secondary },
    '& thead tr:not(:has(.DataTable-sortable))': { display: 'none' },
    '& thead th': { display: 'none', border: 0, p: 0, whiteSpace: 'nowrap' },
    '& thead th.DataTable-sortable': { display: 'block' },
    '& tbody tr': { display: 'block', px: 2, py: 1, borderBottom: `1px solid ${theme.palette.divider}` },
    // The empty or loading message is as wide as the visible table already (TableMessageRow).
    '& tbody tr:has(> td[colspan])': { p: 0, borderBottom: 0 },
    '& tbody td > .DataTable-value': { display: 'block', minWidth: 0 },
    '& tbody td': {
      display: 'grid',
      gridTemplateColumns: 'minmax(84px, 34%) minmax(0, 1fr)',
      columnGap: 1.5,
      alignItems: 'baseline',
      border: 0,
      px: 0,
      py: 0.5,
      textAlign: 'left',
      whiteSpace: 'normal',
      overflowWrap: 'anywhere',
      minWidth: 0,
      width: 'auto',
      maxWidth: 'none',
    },
    '& tbody td::before': {
      content: 'attr(data-label)',
      ...theme.typography.caption,
      color: theme.palette.text.secondary,
      fontWeight: 600,
    },
    '& tbody td:not([data-label]), & tbody td[colspan]': { display: 'block' },
    '& tbody td:not([data-label])::before, & tbody td[colspan]::before': { content: 'none' },
  },
});

/**
 * A list screen's table in its card: a scrolling region reachable by keyboard, the head (sortable where a column
 * says so), one row per item, the empty or loading text kept in view at any width, and an optional header and
 * footer; on a phone the rows are cards. The list pages build on it instead of repeating the same Table /
 * TableContainer / empty-row code.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  empty,
  emptyIcon,
  loading,
  loadingRows = 0,
  ariaLabel,
  minWidth = 760,
  size = 'small',
  tableSx,
  sort,
  rowProps,
  stale = false,
  header,
  placeholder,
  footer,
}: DataTableProps<T>) {
  let body: ReactNode;
  if (!rows) {
    body = loading ? (
      <TableMessageRow colSpan={columns.length} icon={<CircularProgress size={22} />}>
        {loading}
      </TableMessageRow>
    ) : (
      Array.from({ length: loadingRows }, (_, i) => (
        <TableRow key={i} aria-hidden>
          <TableCell colSpan={columns.length}>
            <Skeleton />
          </TableCell>
        </TableRow>
      ))
    );
  } else if (rows.length === 0) {
    body = (
      <TableMessageRow colSpan={columns.length} icon={emptyIcon}>
        {empty}
      </TableMessageRow>
    );
  } else {
    body = rows.map((row) => (
      <TableRow key={rowKey(row)} role="row" {...rowProps?.(row)}>
        {columns.map((c) => (
          <TableCell
            key={c.key}
            role="cell"
            align={c.align}
            sx={c.cellSx}
            data-testid={c.testId}
            data-label={cardLabelOf(c)}
          >
            {/* One box for the cell's content: on a phone card it is the caption's neighbour, whatever it holds. */}
            <Box component="span" className="DataTable-value" sx={{ display: 'contents' }}>
              {c.render(row)}
            </Box>
          </TableCell>
        ))}
      </TableRow>
    ));
  }
  return (
    <Card>
      {header}
      {placeholder ?? (
        <>
          <TableContainer tabIndex={0} aria-label={ariaLabel}>
            <Table
              size={size}
              role="table"
              aria-label={ariaLabel}
              sx={[{ minWidth }, ...(Array.isArray(tableSx) ? tableSx : [tableSx]), PHONE_CARDS]}
            >
              <TableHead>
                <TableRow role="row">
                  {columns.map((c) => (
                    <HeadCell key={c.key} column={c} sort={sort} />
                  ))}
                </TableRow>
              </TableHead>
              <TableBody sx={stale ? { opacity: 0.6, transition: 'opacity 120ms' } : { transition: 'opacity 120ms' }}>
                {body}
              </TableBody>
            </Table>
          </TableContainer>
          {footer && <Box sx={{ px: 2.5, borderTop: 1, borderColor: 'divider' }}>{footer}</Box>}
        </>
      )}
    </Card>
  );
}

function HeadCell<T>({ column: c, sort }: { column: DataColumn<T>; sort?: DataTableSort }) {
  if (!c.sortable || !sort) {
    return (
      <TableCell role="columnheader" align={c.align} sx={c.headSx}>
        {c.label}
      </TableCell>
    );
  }
  const active = sort.key === c.key;
  return (
    <TableCell
      role="columnheader"
      className="DataTable-sortable"
      align={c.align}
      sx={c.headSx}
      sortDirection={active ? sort.dir : false}
    >
      <TableSortLabel active={active} direction={active ? sort.dir : 'asc'} onClick={() => sort.onSort(c.key)}>
        {c.label}
      </TableSortLabel>
    </TableCell>
  );
}
