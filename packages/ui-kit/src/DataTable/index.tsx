import { useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import {
  Box,
  Card,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
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
  /** Also the React key of the column's cells. */
  key: string;
  label: ReactNode;
  render: (row: T) => ReactNode;
  cellSx?: SxProps<Theme>;
}

export interface DataTableProps<T> {
  columns: DataColumn<T>[];
  /** Undefined while loading: the table shows its head and no rows. */
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string | number;
  /** The text shown when there are no rows. */
  empty: ReactNode;
  /** Names the scrolling region for keyboard and screen-reader users. */
  ariaLabel: string;
  /** Below this width the table scrolls inside its card instead of squeezing its columns (a phone's width). */
  minWidth?: number;
  /** Under the table, inside the card (pagination). */
  footer?: ReactNode;
}

/**
 * A list screen's table in its card: a scrolling region reachable by keyboard, the head, one row per item, the
 * empty text kept in view at any width, and an optional footer. The list pages build on it instead of repeating
 * the same Table / TableContainer / empty-row code.
 */
export function DataTable<T>({ columns, rows, rowKey, empty, ariaLabel, minWidth = 760, footer }: DataTableProps<T>) {
  return (
    <Card>
      <TableContainer tabIndex={0} aria-label={ariaLabel}>
        <Table size="small" sx={{ minWidth }}>
          <TableHead>
            <TableRow>
              {columns.map((c) => (
                <TableCell key={c.key}>{c.label}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows && rows.length === 0 ? (
              <TableMessageRow colSpan={columns.length}>{empty}</TableMessageRow>
            ) : (
              rows?.map((row) => (
                <TableRow key={rowKey(row)}>
                  {columns.map((c) => (
                    <TableCell key={c.key} sx={c.cellSx}>
                      {c.render(row)}
                    </TableCell>
                  ))}
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {footer && <Box sx={{ p: 2 }}>{footer}</Box>}
    </Card>
  );
}
