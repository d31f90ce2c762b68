/** Small building blocks the SMS screens share, so every page reads and looks alike. */
import type { ReactNode } from 'react';
import {
  Box,
  Card,
  CardContent,
  Chip,
  InputAdornment,
  Paper,
  Skeleton,
  Stack,
  TextField,
  Typography,
  type ChipProps,
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';

export type Tone = 'primary' | 'success' | 'warning' | 'error' | 'info' | 'secondary' | 'neutral';

const TONE_COLORS: Record<Tone, { fg: string; bg: string }> = {
  primary: { fg: '#1d4ed8', bg: '#dbeafe' }, // 5.5:1 (WCAG AA); #2563eb on this background was 4.2:1
  success: { fg: '#15803d', bg: '#dcfce7' },
  warning: { fg: '#b45309', bg: '#fef3c7' },
  error: { fg: '#b91c1c', bg: '#fee2e2' },
  info: { fg: '#0e7490', bg: '#cffafe' },
  secondary: { fg: '#6d28d9', bg: '#ede9fe' },
  neutral: { fg: '#475569', bg: '#f1f5f9' },
};

export function toneColors(tone: Tone) {
  return TONE_COLORS[tone];
}

/** A soft coloured badge (status, type, active flag). */
export function Badge({
  label,
  tone = 'neutral',
  ...rest
}: { label: ReactNode; tone?: Tone } & Omit<ChipProps, 'label' | 'color'>) {
  const { fg, bg } = TONE_COLORS[tone];
  return (
    <Chip
      size="small"
      label={label}
      {...rest}
      sx={{ bgcolor: bg, color: fg, fontWeight: 600, height: 24, ...rest.sx }}
    />
  );
}

export function ActiveBadge({ active }: { active: boolean }) {
  return <Badge label={active ? 'Active' : 'Inactive'} tone={active ? 'success' : 'neutral'} />;
}

/** A round dot with an accessible name: green when active, grey when not. */
export function ActiveDot({ active }: { active: boolean }) {
  return (
    <Box
      role="img"
      aria-label={active ? 'Active' : 'Inactive'}
      title={active ? 'Active' : 'Inactive'}
      sx={{ width: 10, height: 10, borderRadius: '50%', flexShrink: 0, bgcolor: active ? 'success.main' : 'grey.400' }}
    />
  );
}

/** One figure of a page's summary row. */
export function SummaryCard({
  label,
  value,
  icon,
  tone = 'primary',
  hint,
}: {
  label: string;
  value: ReactNode;
  icon?: ReactNode;
  tone?: Tone;
  hint?: ReactNode;
}) {
  const { fg, bg } = TONE_COLORS[tone];
  return (
    <Card sx={{ height: '100%' }} data-testid={`summary-${label}`}>
      <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 2, '&:last-child': { pb: 2 } }}>
        {icon && (
          <Box
            sx={{
              width: 44,
              height: 44,
              borderRadius: 2,
              display: 'grid',
              placeItems: 'center',
              bgcolor: bg,
              color: fg,
              flexShrink: 0,
            }}
            aria-hidden
          >
            {icon}
          </Box>
        )}
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" color="textSecondary" sx={{ fontWeight: 500 }}>
            {label}
          </Typography>
          <Typography variant="h5" component="p" sx={{ fontWeight: 700, lineHeight: 1.2 }}>
            {value}
          </Typography>
          {hint && (
            <Typography variant="caption" color="textSecondary">
              {hint}
            </Typography>
          )}
        </Box>
      </CardContent>
    </Card>
  );
}

/** A row of summary cards that wraps evenly on small screens. */
export function SummaryRow({ children, columns = 4 }: { children: ReactNode; columns?: number }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        mb: 3,
        gridTemplateColumns: {
          xs: 'repeat(2, minmax(0, 1fr))',
          md: `repeat(${Math.min(columns, 3)}, minmax(0, 1fr))`,
          lg: `repeat(${columns}, minmax(0, 1fr))`,
        },
      }}
    >
      {children}
    </Box>
  );
}

/** The empty state of a list: icon, title, one line of help and an optional action. */
export function EmptyState({
  icon,
  title,
  description,
  action,
}: {
  icon?: ReactNode;
  title: string;
  description?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Paper
      variant="outlined"
      sx={{ py: 8, px: 3, textAlign: 'center', borderStyle: 'dashed', bgcolor: 'background.paper' }}
    >
      <Stack spacing={1.5} sx={{ alignItems: 'center' }}>
        {icon && (
          <Box
            sx={{
              width: 56,
              height: 56,
              borderRadius: '50%',
              display: 'grid',
              placeItems: 'center',
              bgcolor: 'primary.light',
              color: 'primary.main',
            }}
            aria-hidden
          >
            {icon}
          </Box>
        )}
        <Typography variant="h6" component="h2" sx={{ fontWeight: 700 }}>
          {title}
        </Typography>
        {description && (
          <Typography color="textSecondary" sx={{ maxWidth: 460 }}>
            {description}
          </Typography>
        )}
        {action}
      </Stack>
    </Paper>
  );
}

export function SearchField({
  value,
  onChange,
  placeholder,
  label = 'Search',
}: {
  value: string;
  onChange: (v: string) => void;
  placeholder?: string;
  label?: string;
}) {
  return (
    <TextField
      size="small"
      label={label}
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      sx={{ flex: 2, minWidth: 220 }}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/** A list table whose cells never wrap (it scrolls sideways in its card instead). */
export const NOWRAP_CELLS = { '& td, & th': { whiteSpace: 'nowrap' } } as const;

/** The filter bar above a table. */
export function FilterBar({ children }: { children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ p: 2, alignItems: { md: 'center' } }}>
      {children}
    </Stack>
  );
}

/** Grey rows while a table loads. */
export function TableSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <Stack spacing={1} sx={{ p: 2 }} aria-label="Loading" role="progressbar">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} variant="rounded" height={36} />
      ))}
    </Stack>
  );
}

/** A label above a value, as in cards. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography
        variant="caption"
        color="textSecondary"
        sx={{ display: 'block', fontWeight: 500, textTransform: 'uppercase', letterSpacing: '0.04em' }}
      >
        {label}
      </Typography>
      <Typography variant="body2" component="div" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}
