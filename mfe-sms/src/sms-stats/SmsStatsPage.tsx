import { useMemo, useState } from 'react';
import useSWR from 'swr';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  LinearProgress,
  MenuItem,
  Paper,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import SmsIcon from '@mui/icons-material/SmsOutlined';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import PhoneIcon from '@mui/icons-material/PhoneIphoneOutlined';
import CartIcon from '@mui/icons-material/ShoppingCartCheckoutOutlined';
import BarChartIcon from '@mui/icons-material/BarChartOutlined';
import { errorMessage, PageHeader } from '@act/ui-kit';
import { RevenuePanel } from '@act/ui-kit/src/Revenue';
import {
  DEFAULT_SMS_DATE_RANGE,
  SMS_DATE_RANGES,
  type SmsDateRange,
  type SmsIntegrationStats,
  type SmsStatsResponse,
} from '@act/contracts/src/sms-api';
import { statsKey } from '../shared/keys';
import { deliveryRate } from '../shared/format';
import { EmptyState, SummaryCard, SummaryRow, toneColors, type Tone } from '../shared/ui';
import { useNotify } from '../shared/notify';
import { StatsChart } from './StatsChart';
import { IntegrationStatsCard } from './IntegrationStatsCard';

export const DATE_RANGE_LABELS: Record<SmsDateRange, string> = {
  today: 'Today',
  yesterday: 'Yesterday',
  last_7_days: 'Last 7 days',
  last_28_days: 'Last 28 days',
  last_90_days: 'Last 90 days',
};

/** Sums of the per-integration figures, for the headline cards and the status breakdown. */
export function totalsOf(stats: readonly SmsIntegrationStats[]) {
  const t = {
    total: 0,
    sent: 0,
    delivered: 0,
    failed: 0,
    queued: 0,
    skipped: 0,
    tollFree: 0,
    phones: 0,
    purchases: 0,
    duplicates: 0,
  };
  for (const s of stats) {
    t.total += s.total_sms_sent;
    t.sent += s.sent_count;
    t.delivered += s.delivered_count;
    t.failed += s.failed_count;
    t.queued += s.queued_count ?? 0;
    t.skipped += s.skipped_duplicate_count;
    t.tollFree += s.blocked_toll_free_count;
    t.phones += s.unique_phones;
    t.purchases += s.purchases_recorded;
    t.duplicates += s.duplicates_sent;
  }
  return t;
}

/** `of`: the base of the percentage, the messages sent (the delivery rate's, section 9); null: not sent, no percentage. */
function BreakdownRow({ label, value, of, tone }: { label: string; value: number; of: number | null; tone: Tone }) {
  const pct = of !== null && of > 0 ? Math.round((value / of) * 100) : 0;
  const { fg, bg } = toneColors(tone);
  return (
    <Box>
      <Stack direction="row" sx={{ justifyContent: 'space-between', mb: 0.5 }}>
        <Typography variant="body2" sx={{ fontWeight: 500 }}>
          {label}
        </Typography>
        <Typography variant="body2" sx={{ fontWeight: 700 }}>
          {value}
          <Typography component="span" variant="caption" color="textSecondary" sx={{ ml: 0.75 }}>
            {of === null ? 'not sent' : `${pct}%`}
          </Typography>
        </Typography>
      </Stack>
      <LinearProgress
        variant="determinate"
        value={pct}
        aria-label={label}
        sx={{ height: 6, borderRadius: 3, bgcolor: bg, '& .MuiLinearProgress-bar': { bgcolor: fg, borderRadius: 3 } }}
      />
    </Box>
  );
}

/** /sms-stats: delivery figures per integration over a date range (spec section 2). */
export default function SmsStatsPage() {
  const notify = useNotify();
  const [dateRange, setDateRange] = useState<SmsDateRange>(DEFAULT_SMS_DATE_RANGE);
  const [integrationId, setIntegrationId] = useState<number | null>(null);
  const stats = useSWR<SmsStatsResponse>(statsKey(dateRange, integrationId), {
    // The figures of the previous filter stay on screen while the next ones load.
    keepPreviousData: true,
    onError: () => notify.error('Failed to fetch SMS stats'),
  });

  const data = stats.data;
  const totals = useMemo(() => totalsOf(data?.stats ?? []), [data]);
  const rate = deliveryRate(totals.delivered, totals.total);
  const busy = stats.isValidating;

  return (
    <Box>
      <PageHeader
        title="SMS Statistics"
        subtitle="How many reminders went out, arrived and led to a purchase."
        actions={
          <Button
            variant="outlined"
            startIcon={busy ? <CircularProgress size={16} /> : <RefreshIcon />}
            onClick={() => void stats.mutate()}
            disabled={busy}
          >
            Refresh
          </Button>
        }
      />
      <Paper variant="outlined" sx={{ p: 2, mb: 3 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            select
            size="small"
            label="Date Range"
            value={dateRange}
            onChange={(e) => setDateRange(e.target.value as SmsDateRange)}
            sx={{ minWidth: 200 }}
            fullWidth={false}
          >
            {SMS_DATE_RANGES.map((r) => (
              <MenuItem key={r} value={r}>
                {DATE_RANGE_LABELS[r]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label="Integration"
            value={integrationId === null ? 'all' : String(integrationId)}
            onChange={(e) => setIntegrationId(e.target.value === 'all' ? null : Number(e.target.value))}
            sx={{ minWidth: 240 }}
            fullWidth={false}
          >
            <MenuItem value="all">All Integrations</MenuItem>
            {(data?.integrations ?? []).map((i) => (
              <MenuItem key={i.id} value={String(i.id)}>
                {i.name}
              </MenuItem>
            ))}
          </TextField>
          {data && (
            <Typography variant="body2" color="textSecondary" sx={{ alignSelf: 'center' }}>
              {`Times in ${data.timezone}`}
            </Typography>
          )}
        </Stack>
      </Paper>

      {stats.error && (
        <Alert
          severity="error"
          sx={{ mb: 3 }}
          action={
            <Button color="inherit" size="small" onClick={() => void stats.mutate()}>
              Retry
            </Button>
          }
        >
          {`Error loading SMS statistics: ${errorMessage(stats.error)}`}
        </Alert>
      )}

      {!data && !stats.error && (
        <>
          <SummaryRow>
            {[0, 1, 2, 3].map((n) => (
              <Skeleton key={n} variant="rounded" height={84} />
            ))}
          </SummaryRow>
          <Skeleton variant="rounded" height={340} />
        </>
      )}

      {data && (
        <>
          <SummaryRow>
            <SummaryCard label="Total SMS Sent" value={totals.total} icon={<SmsIcon />} tone="primary" />
            <SummaryCard
              label="Delivered"
              value={totals.delivered}
              icon={<DoneAllIcon />}
              tone="success"
              hint={`${rate}% delivery rate`}
            />
            <SummaryCard label="Unique Phones" value={totals.phones} icon={<PhoneIcon />} tone="info" />
            <SummaryCard label="Purchases Recorded" value={totals.purchases} icon={<CartIcon />} tone="secondary" />
          </SummaryRow>
          <Box
            sx={{
              display: 'grid',
              gap: 2.5,
              gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 2fr) minmax(0, 1fr)' },
              mb: 3,
            }}
          >
            <Card>
              <CardContent>
                <Typography variant="h6" component="h2" sx={{ fontWeight: 700 }}>
                  Sends and deliveries
                </Typography>
                <Typography variant="body2" color="textSecondary" sx={{ mb: 1 }}>
                  {DATE_RANGE_LABELS[data.date_range] ?? DATE_RANGE_LABELS[dateRange]}
                </Typography>
                <StatsChart daily={data.daily ?? []} />
              </CardContent>
            </Card>
            <Card>
              <CardContent>
                <Typography variant="h6" component="h2" sx={{ fontWeight: 700, mb: 2 }}>
                  Status breakdown
                </Typography>
                <Stack spacing={2}>
                  {/* One base for every percentage on the page: the messages sent, as the delivery rate's. */}
                  <Typography variant="caption" color="textSecondary" data-testid="breakdown-base">
                    {`Percentages are of the ${totals.total} messages sent.`}
                  </Typography>
                  <BreakdownRow label="Delivered" value={totals.delivered} of={totals.total} tone="success" />
                  <BreakdownRow label="Sent" value={totals.sent} of={totals.total} tone="primary" />
                  <BreakdownRow label="Queued" value={totals.queued} of={totals.total} tone="warning" />
                  <BreakdownRow label="Failed" value={totals.failed} of={totals.total} tone="error" />
                  <BreakdownRow label="Duplicate Blocked" value={totals.skipped} of={null} tone="secondary" />
                  <BreakdownRow label="Toll-free Blocked" value={totals.tollFree} of={null} tone="neutral" />
                </Stack>
              </CardContent>
            </Card>
          </Box>
          <Box sx={{ mb: 3 }}>
            <RevenuePanel basePath="/api/sms/revenue" integrationId={integrationId} />
          </Box>
          <Typography variant="h6" component="h2" sx={{ fontWeight: 700, mb: 2 }}>
            By integration
          </Typography>
          {data.stats.length === 0 ? (
            <EmptyState
              icon={<BarChartIcon />}
              title="No integrations to report"
              description="Statistics appear once an SMS webhook integration exists."
            />
          ) : (
            <Box
              sx={{
                display: 'grid',
                gap: 2.5,
                gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' },
              }}
            >
              {data.stats.map((s) => (
                <IntegrationStatsCard key={s.integration_id} stats={s} />
              ))}
            </Box>
          )}
        </>
      )}
    </Box>
  );
}
