import { useState } from 'react';
import useSWR from 'swr';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Grid,
  LinearProgress,
  Menu,
  MenuItem,
  Skeleton,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { BarChart } from '@mui/x-charts';
import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import { REVENUE_DAY_CHOICES, type RevenueSummary, type RevenueTable } from '@act/contracts/src/revenue-api';
import { errorMessage } from '../request';
import { formatMoney, formatMoneyList, formatShortDate } from '../format';
import { DataTable, type DataColumn } from '../DataTable';
import { contactPath } from '../ContactStory';
import { RecentPurchases } from './RecentPurchases';

type IntegrationRow = RevenueSummary['integrations'][number];

/** The per-integration table: a DataTable, so on a phone each integration is a card and no column is cut. */
const INTEGRATION_COLUMNS: DataColumn<IntegrationRow>[] = [
  { key: 'name', label: 'Integration', cellSx: { overflowWrap: 'anywhere' }, render: (i) => i.name },
  { key: 'purchases', label: 'Purchases', align: 'right', render: (i) => i.purchases },
  { key: 'recovered', label: 'Recovered', align: 'right', render: (i) => i.recovered },
  { key: 'rate', label: 'Recovery rate', align: 'right', render: (i) => pct(i.recovery_rate) },
  {
    key: 'revenue',
    label: 'Recovered revenue',
    align: 'right',
    render: (i) => formatMoneyList(i.revenue.filter((r) => r.recovered > 0).map((r) => ({ currency: r.currency, amount: r.recovered }))),
  },
];

export interface RevenuePanelProps {
  /** `/api/revenue` (email side) or `/api/sms/revenue`. */
  basePath: string;
  /** This side's integrations for the filter; omitted when the page filters (integrationId). */
  integrations?: { id: number; name: string }[];
  /** Set by the page's own integration filter (null: all). */
  integrationId?: number | null;
  /** A contact's page in the list of recent purchases; by default this side's (from basePath). */
  contactHref?: (id: number) => string;
}

const EXPORTS: { table: RevenueTable; label: string }[] = [
  { table: 'series', label: 'Per day' },
  { table: 'integrations', label: 'Per integration' },
  { table: 'campaigns', label: 'Per campaign' },
  { table: 'templates', label: 'Per template / step' },
  { table: 'funnel', label: 'Funnel' },
];

const pct = (v: number | null) => (v === null ? '—' : `${Math.round(v * 1000) / 10}%`);

function Figure({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId: string }) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="body2" color="textSecondary">
          {label}
        </Typography>
        <Typography variant="h5" data-testid={testId} sx={{ fontWeight: 700, mt: 0.5, overflowWrap: 'anywhere' }}>
          {value}
        </Typography>
        {hint && (
          <Typography variant="caption" color="textSecondary">
            {hint}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

function Funnel({ s }: { s: RevenueSummary }) {
  const steps: [string, number | null][] = [
    ['Contacts', s.funnel.contacts],
    ['Reminded', s.funnel.reminded],
    ['Clicked', s.funnel.clicked],
    ['Purchased', s.funnel.purchased],
  ];
  const top = Math.max(1, ...steps.map(([, v]) => v ?? 0));
  return (
    <Stack spacing={1.5} data-testid="revenue-funnel">
      {steps.map(([label, v]) => (
        <Box key={label}>
          <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
            <Typography variant="body2">{label}</Typography>
            <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid={`funnel-${label.toLowerCase()}`}>
              {v === null ? 'Not reported' : v}
            </Typography>
          </Stack>
          <LinearProgress variant="determinate" value={v === null ? 0 : (v / top) * 100} aria-label={label} sx={{ height: 8, borderRadius: 4 }} />
        </Box>
      ))}
    </Stack>
  );
}

/** The currency with the most money in the range: the revenue chart's (no amounts of two currencies are added). */
function mainCurrency(s: RevenueSummary): string | null {
  const [top] = [...s.totals.revenue].sort((a, b) => b.recovered + b.organic - (a.recovered + a.organic));
  return top?.currency ?? null;
}

function RevenueChart({ s, view }: { s: RevenueSummary; view: 'purchases' | 'revenue' }) {
  const labels = s.series.map((d) => formatShortDate(d.date));
  const currency = mainCurrency(s);
  const pick = (d: RevenueSummary['series'][number], k: 'email' | 'sms' | 'organic') => d.revenue.find((r) => r.currency === currency)?.[k] ?? 0;
  const series =
    view === 'purchases'
      ? [
          { data: s.series.map((d) => d.email), label: 'Recovered by email', stack: 'r', color: '#2563eb' },
          { data: s.series.map((d) => d.sms), label: 'Recovered by SMS', stack: 'r', color: '#7c3aed' },
          { data: s.series.map((d) => d.organic), label: 'Organic', color: '#94a3b8' },
        ]
      : [
          { data: s.series.map((d) => pick(d, 'email')), label: `Email (${currency ?? '—'})`, stack: 'r', color: '#2563eb' },
          { data: s.series.map((d) => pick(d, 'sms')), label: `SMS (${currency ?? '—'})`, stack: 'r', color: '#7c3aed' },
          { data: s.series.map((d) => pick(d, 'organic')), label: `Organic (${currency ?? '—'})`, color: '#94a3b8' },
        ];
  return (
    <Box data-testid="revenue-chart" sx={{ width: '100%' }}>
      <BarChart
        height={280}
        xAxis={[{ scaleType: 'band', data: labels }]}
        yAxis={[
          view === 'purchases'
            ? { min: 0, width: 48, tickMinStep: 1 }
            : // Money as every page writes it: "$20.00", or a dash with no currency to write it in (no bare "0.00").
              { min: 0, width: 64, valueFormatter: (v: number | null) => (currency ? formatMoney(v, currency) : '—') },
        ]}
        series={series}
        grid={{ horizontal: true }}
        margin={{ left: 8, right: 16, top: 16, bottom: 8 }}
      />
    </Box>
  );
}

/**
 * Recovered revenue: the figures, a chart per day and the conversion funnel over 7 / 30 / 90 days, for
 * either side; every table can be downloaded as CSV.
 */
/**
 * The one line that says reminders were only simulated (live sending off) and what they would have been credited,
 * kept apart from the figures, which count only reminders a shopper received.
 */
export function simulatedLine(s: Pick<RevenueSummary, 'sending_simulated' | 'simulated'>): string {
  const would = s.simulated.recovered;
  const paid = s.simulated.revenue.filter((r) => r.amount > 0);
  const head = s.sending_simulated ? 'Emails are simulated: live sending is off, so no reminder reached a shopper and none is credited.' : 'Some reminders were only simulated and are not credited.';
  if (would === 0) return `${head} No purchase followed a simulated reminder.`;
  return `${head} Would have been credited: ${would} purchase${would === 1 ? '' : 's'}${paid.length ? `, ${formatMoneyList(paid)}` : ''} (not counted above).`;
}

export function RevenuePanel({ basePath, integrations, integrationId, contactHref }: RevenuePanelProps) {
  const [days, setDays] = useState<number>(30);
  const [own, setOwn] = useState<number | null>(null);
  const [model, setModel] = useState<'last' | 'first'>('last');
  const [view, setView] = useState<'purchases' | 'revenue'>('purchases');
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const chosen = integrationId !== undefined ? integrationId : own;
  const query = `days=${days}&model=${model}${chosen !== null ? `&integration_id=${chosen}` : ''}`;
  const { data, error, isLoading } = useSWR<RevenueSummary>(`${basePath}/summary?${query}`);

  const recovered = data ? data.totals.revenue.filter((r) => r.recovered > 0).map((r) => ({ currency: r.currency, amount: r.recovered })) : [];
  const organic = data ? data.totals.revenue.filter((r) => r.organic > 0).map((r) => ({ currency: r.currency, amount: r.organic })) : [];
  // Within the funnel's cohort, so it never passes 100% (purchases in the range may follow reminders before it).
  const rate = data && data.funnel.reminded > 0 ? data.funnel.purchased / data.funnel.reminded : null;
  const best = data?.templates[0];

  return (
    <Card data-testid="revenue-panel">
      <CardContent>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { md: 'center' }, mb: 2 }}>
          <Box>
            <Typography variant="h6" component="h2">
              Recovered revenue
            </Typography>
            <Typography variant="body2" color="textSecondary">
              Purchases within {data?.window_days ?? 7} days after a reminder, credited to the {model === 'last' ? 'last' : 'first'} email or text
            </Typography>
          </Box>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, alignItems: 'center' }}>
            <ToggleButtonGroup size="small" exclusive value={days} onChange={(_, v: number | null) => v && setDays(v)} aria-label="Period">
              {REVENUE_DAY_CHOICES.map((d) => (
                <ToggleButton key={d} value={d}>
                  {d} days
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
            {integrations && integrationId === undefined && (
              <TextField select fullWidth={false} size="small" label="Integration" value={own === null ? 'all' : String(own)} onChange={(e) => setOwn(e.target.value === 'all' ? null : Number(e.target.value))} sx={{ minWidth: 160 }}>
                <MenuItem value="all">All integrations</MenuItem>
                {integrations.map((i) => (
                  <MenuItem key={i.id} value={String(i.id)}>
                    {i.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <TextField select fullWidth={false} size="small" label="Credit" value={model} onChange={(e) => setModel(e.target.value as 'last' | 'first')} sx={{ minWidth: 130 }}>
              <MenuItem value="last">Last touch</MenuItem>
              <MenuItem value="first">First touch</MenuItem>
            </TextField>
            <Button size="small" variant="outlined" startIcon={<DownloadIcon />} onClick={(e) => setMenu(e.currentTarget)}>
              Export CSV
            </Button>
            <Menu anchorEl={menu} open={!!menu} onClose={() => setMenu(null)}>
              {EXPORTS.map((x) => (
                <MenuItem key={x.table} component="a" href={`${basePath}/summary?${query}&format=csv&table=${x.table}`} download onClick={() => setMenu(null)}>
                  {x.label}
                </MenuItem>
              ))}
            </Menu>
          </Stack>
        </Stack>

        {error ? (
          <Alert severity="error">Could not load recovered revenue: {errorMessage(error)}</Alert>
        ) : isLoading || !data ? (
          <Skeleton variant="rounded" height={320} />
        ) : (
          <Stack spacing={3}>
            {(data.sending_simulated || data.simulated.recovered > 0) && (
              <Alert severity="info" data-testid="revenue-simulated">
                {simulatedLine(data)}
              </Alert>
            )}
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
                <Figure label="Recovered revenue" testId="revenue-recovered" value={formatMoneyList(recovered)} hint={`${data.totals.by_channel.email} by email · ${data.totals.by_channel.sms} by SMS`} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
                <Figure label="Recovered purchases" testId="revenue-recovered-count" value={`${data.totals.recovered} of ${data.totals.purchases}`} hint={`${data.totals.organic} organic`} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
                <Figure label="Recovery rate" testId="revenue-rate" value={pct(rate)} hint="Contacts who bought after their reminder, per contact reminded" />
              </Grid>
              <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
                <Figure label="Organic revenue" testId="revenue-organic" value={formatMoneyList(organic)} hint={best ? `Best: ${best.channel === 'email' ? 'email' : 'SMS'} template ${best.template_id ?? '—'}, step ${best.step ?? '—'}` : 'No recovered purchase yet'} />
              </Grid>
            </Grid>
            <Grid container spacing={3}>
              <Grid size={{ xs: 12, lg: 8 }}>
                <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
                  <Typography variant="subtitle1">Per day</Typography>
                  <ToggleButtonGroup size="small" exclusive value={view} onChange={(_, v: 'purchases' | 'revenue' | null) => v && setView(v)} aria-label="Chart">
                    <ToggleButton value="purchases">Purchases</ToggleButton>
                    <ToggleButton value="revenue">Revenue</ToggleButton>
                  </ToggleButtonGroup>
                </Stack>
                <RevenueChart s={data} view={view} />
              </Grid>
              <Grid size={{ xs: 12, lg: 4 }}>
                <Typography variant="subtitle1" sx={{ mb: 1 }}>
                  Conversion funnel
                </Typography>
                <Funnel s={data} />
              </Grid>
            </Grid>
            <DataTable
              ariaLabel="Revenue per integration"
              size="small"
              tableSx={{ '& td, & th': { py: 1 } }}
              columns={INTEGRATION_COLUMNS}
              rows={data.integrations}
              rowKey={(i) => i.funnel_id ?? ''}
              empty="No purchases or reminders in this period."
              rowProps={() => ({ 'data-testid': 'revenue-integration-row' })}
            />
            <RecentPurchases
              basePath={basePath}
              query={`model=${model}${chosen !== null ? `&integration_id=${chosen}` : ''}`}
              contactHref={contactHref ?? ((id) => contactPath(basePath.startsWith('/api/sms/') ? 'sms' : 'email', id))}
            />
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
