import useSWR from 'swr';
import { Box, Skeleton, Stack, Typography } from '@mui/material';
import type { Channel } from '@act/contracts/src/attribution';
import type { RevenueCreditRow, RevenueSummary } from '@act/contracts/src/revenue-api';
import { formatMoneyList } from '../format';

// No MUI X Charts here (unlike ./index): integration cards and campaign pages show these figures without the chart.


/** Days of the figures on cards and campaign pages (the Dashboard / SMS Statistics panel offers 7 / 30 / 90). */
export const CARD_REVENUE_DAYS = 30;

/** One summary per page (SWR shares the key): every card reads its row from it instead of asking per card. */
export function useRevenueSummary(basePath: string, enabled = true) {
  return useSWR<RevenueSummary>(enabled ? `${basePath}/summary?days=${CARD_REVENUE_DAYS}` : null);
}

export interface RevenueFigures {
  revenue: { currency: string | null; amount: number }[];
  recovered: number;
  /** recovered / reminded (contacts reminded by the integration or campaign in the range); null with nobody reminded. */
  rate?: number | null;
  best: RevenueCreditRow | null;
}

const stepLabel = (t: RevenueCreditRow, templateName?: (t: RevenueCreditRow) => string | null) =>
  templateName?.(t) ?? [t.template_id !== null ? `Template ${t.template_id}` : null, t.step !== null ? `step ${t.step}` : null].filter(Boolean).join(', ');

/** The best template/step of a campaign on one channel: the summary's templates come best first. */
function bestOf(s: RevenueSummary, channel: Channel, campaignId: number | null): RevenueCreditRow | null {
  if (campaignId === null) return null;
  return s.templates.find((t) => t.channel === channel && t.campaign_id === campaignId) ?? null;
}

/** An integration's figures: its row (revenue, recovery rate) and its campaign's best template/step on this side. */
export function integrationFigures(s: RevenueSummary, integrationId: number, channel: Channel, campaignId: number | null): RevenueFigures {
  const row = s.integrations.find((i) => i.integration_id === integrationId);
  return {
    revenue: (row?.revenue ?? []).filter((r) => r.recovered > 0).map((r) => ({ currency: r.currency, amount: r.recovered })),
    recovered: row?.recovered ?? 0,
    rate: row?.recovery_rate ?? null,
    best: bestOf(s, channel, campaignId),
  };
}

export function campaignFigures(s: RevenueSummary, campaignId: number, channel: Channel): RevenueFigures {
  const row = s.campaigns.find((c) => c.channel === channel && c.campaign_id === campaignId);
  return { revenue: row?.revenue ?? [], recovered: row?.recovered ?? 0, rate: row?.recovery_rate ?? null, best: bestOf(s, channel, campaignId) };
}

const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${Math.round(v * 1000) / 10}%`);

export interface RevenueFigureProps {
  /** What the figures belong to, for the accessible name ("Recovered revenue of Shop"). */
  of: string;
  figures: RevenueFigures | undefined;
  /** Names a template (the page knows its templates); default "Template 12, step 2". */
  templateName?: (t: RevenueCreditRow) => string | null;
  /** The recovery rate (recovered ÷ contacts reminded), which integrations and campaigns both have; on by default. */
  showRate?: boolean;
}

/** Recovered revenue, recovery rate and best template/step of an integration or campaign, in the last 30 days. */
export function RevenueFigure({ of, figures: f, templateName, showRate = true }: RevenueFigureProps) {
  const cell = (label: string, value: string | undefined, testId: string) => (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="textSecondary" component="div">
        {label}
      </Typography>
      {value === undefined ? (
        <Skeleton width={64} />
      ) : (
        <Typography variant="body2" data-testid={testId} sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {value}
        </Typography>
      )}
    </Box>
  );
  return (
    <Box component="section" aria-label={`Recovered revenue of ${of}`} data-testid="revenue-figure" sx={{ bgcolor: 'action.hover', borderRadius: 1, px: 1.5, py: 1 }}>
      <Typography variant="caption" color="textSecondary" component="div" sx={{ mb: 0.5 }}>
        Last {CARD_REVENUE_DAYS} days
      </Typography>
      <Stack direction="row" sx={{ gap: 2, flexWrap: 'wrap', '& > *': { flex: '1 1 96px' } }}>
        {cell('Recovered revenue', f && formatMoneyList(f.revenue), 'revenue-figure-revenue')}
        {showRate && cell('Recovery rate', f && pct(f.rate), 'revenue-figure-rate')}
        {cell('Recovered purchases', f && String(f.recovered), 'revenue-figure-recovered')}
        {cell('Best template / step', f && (f.best ? stepLabel(f.best, templateName) : '—'), 'revenue-figure-best')}
      </Stack>
    </Box>
  );
}
