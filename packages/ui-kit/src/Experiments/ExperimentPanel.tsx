import { useState } from 'react';
import useSWR from 'swr';
import { Box, Button, Card, CardContent, Chip, Link, Skeleton, Stack, Typography } from '@mui/material';
import ScienceIcon from '@mui/icons-material/ScienceOutlined';
import type { CampaignExperiment, CampaignResults, GroupResult, IncrementalResult, ResultInterval, StepResult } from '@act/contracts/src/experiments-api';
import { DataTable, type DataColumn } from '../DataTable';
import { formatCount, formatDateTime, formatMoney } from '../format';
import { ExperimentDialog, type ExperimentStepChoice } from './ExperimentDialog';
import { ClickTrackingControl } from './ClickTrackingControl';

const pct = (v: number) => `${(Math.round(v * 1000) / 10).toFixed(1)}%`;
const range = (i: ResultInterval | null, f: (v: number) => string) => (i ? `${f(i.estimate)} (${f(i.lower)} to ${f(i.upper)})` : null);

/** "N more recipients needed", or why there is no number yet. */
export function moreNeededText(n: number | null): string {
  return n === null ? 'no purchase yet' : `${formatCount(n)} more recipients needed`;
}

/** The incremental revenue line: the figure with its interval, or why not yet (below the minimum sample). */
export function incrementalText(inc: IncrementalResult, currency: string | null): string {
  if (inc.status === 'ok') {
    const r = inc.incremental_revenue;
    return `${formatMoney(r.estimate, currency)} (95%: ${formatMoney(r.lower, currency)} to ${formatMoney(r.upper, currency)}) over ${formatCount(inc.reminded_contacts)} reminded contacts`;
  }
  const needs = [
    inc.reminded_more_needed !== 0 ? `reminded: ${moreNeededText(inc.reminded_more_needed)}` : null,
    inc.holdout_more_needed !== 0 ? `holdout: ${moreNeededText(inc.holdout_more_needed)}` : null,
  ].filter(Boolean);
  return `Below the minimum sample (${needs.join('; ')})`;
}

function groupColumns(currency: string | null): DataColumn<GroupResult>[] {
  const dash = (v: string | null) => v ?? '—';
  return [
    { key: 'id', label: 'Group', render: (g) => (g.id === 'holdout' ? 'Holdout' : g.id === 'reminded' ? 'All reminded' : `Variant ${g.id}`), cellSx: { fontWeight: 600, whiteSpace: 'nowrap' } },
    { key: 'recipients', label: 'Recipients', align: 'right', render: (g) => formatCount(g.recipients) },
    { key: 'delivered', label: 'Delivered', align: 'right', render: (g) => (g.delivered === null ? '—' : formatCount(g.delivered)) },
    { key: 'clicked', label: 'Clicked', align: 'right', render: (g) => (g.clicked === null ? '—' : formatCount(g.clicked)) },
    { key: 'purchasers', label: 'Purchased', align: 'right', render: (g) => formatCount(g.purchasers) },
    { key: 'revenue', label: 'Revenue', align: 'right', render: (g) => formatMoney(g.revenue, currency) },
    {
      key: 'conversion',
      label: 'Conversion (95%)',
      render: (g) => (g.enough_data ? dash(range(g.conversion_rate, pct)) : moreNeededText(g.more_recipients_needed)),
    },
    {
      key: 'rpr',
      label: 'Revenue per recipient (95%)',
      render: (g) => (g.enough_data ? dash(range(g.revenue_per_recipient, (v) => formatMoney(v, currency))) : '—'),
    },
  ];
}

function StepResults({ step, name, currency }: { step: StepResult; name: string; currency: string | null }) {
  const winner = step.winner;
  return (
    <Box sx={{ mt: 2 }} data-testid={`experiment-step-${step.template_id}`}>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {name}
      </Typography>
      <DataTable ariaLabel={`Variants of ${name}`} columns={groupColumns(currency)} rows={step.variants} rowKey={(g) => g.id} empty="No variants" />
      <Typography variant="body2" sx={{ mt: 1 }} data-testid="experiment-winner">
        {winner
          ? `Winner: variant ${winner.variant}, decided ${formatDateTime(winner.decided_at)} (probability best ${pct(winner.probabilities[winner.variant] ?? 0)}, on ${winner.based_on.map((b) => `${b.id}: ${formatCount(b.recipients)} recipients, ${formatCount(b.purchasers)} purchased`).join('; ')}); it takes all new traffic`
          : step.leader
            ? `No winner yet: variant ${step.leader} leads${step.probabilities ? ` (probability best ${pct(step.probabilities[step.leader] ?? 0)})` : ''}; ${
                step.more_recipients_per_variant === null ? 'no clear difference at the current rates' : `${formatCount(step.more_recipients_per_variant)} more recipients needed per variant`
              }`
            : 'No winner yet: no purchase yet'}
      </Typography>
    </Box>
  );
}

export interface ExperimentPanelProps {
  /** `/api/email/campaigns` or `/api/sms-campaigns`. */
  base: string;
  campaignId: number;
  campaignName: string;
  channel: 'email' | 'sms';
  /** The campaign's steps (its templates), in order. */
  steps: ExperimentStepChoice[];
}

/**
 * A campaign's experiment: its settings (holdout, variants, automatic winner) with the editor, and its results
 * (variants, holdout, incremental revenue, winner) from `.../{id}/results`, with the CSV export.
 */
export function ExperimentPanel({ base, campaignId, campaignName, channel, steps }: ExperimentPanelProps) {
  const settings = useSWR<CampaignExperiment>(`${base}/${campaignId}/experiment`);
  const results = useSWR<CampaignResults>(`${base}/${campaignId}/results`);
  const [editing, setEditing] = useState(false);
  const s = settings.data;
  const r = results.data;
  const nameOf = (id: number) => steps.find((x) => x.id === id)?.name ?? `Template ${id}`;
  const running = !!s && (s.holdout_percent > 0 || s.steps.length > 0);
  return (
    <Card variant="outlined" sx={{ mb: 3 }} data-testid="experiment-panel" aria-label={`Experiment of ${campaignName}`} component="section">
      <CardContent>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <ScienceIcon color="primary" />
            <Typography variant="h6" component="h2">
              Experiment
            </Typography>
            {s && <Chip size="small" label={running ? 'Running' : 'Off'} color={running ? 'success' : 'default'} />}
          </Stack>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            {running && (
              <Link href={`${base}/${campaignId}/results?format=csv`} download underline="hover">
                Export CSV
              </Link>
            )}
            <Button variant="outlined" size="small" onClick={() => setEditing(true)} disabled={!s}>
              Edit experiment
            </Button>
          </Stack>
        </Stack>
        <ClickTrackingControl channel={channel} onChanged={() => void results.mutate()} />
        {!s || !r ? (
          <Skeleton height={60} />
        ) : !running ? (
          <Typography color="textSecondary" sx={{ mt: 1 }}>
            No holdout and no variants: every contact gets the steps as written. Hold out a share of contacts to measure the revenue the reminders add, or test 2 to 4 variants of a step.
          </Typography>
        ) : (
          <>
            <Typography variant="body2" sx={{ mt: 1 }} data-testid="experiment-settings">
              Holdout {s.holdout_percent}% · automatic winner {s.auto_winner ? `on (at least ${formatCount(s.winner_min_recipients)} recipients per variant, 95% probability best)` : 'off'} · attribution window {r.window_days} days
            </Typography>
            <Typography variant="body1" sx={{ mt: 1.5, fontWeight: 600 }} data-testid="experiment-incremental">
              Incremental revenue: {incrementalText(r.incremental, r.currency)}
            </Typography>
            {r.incremental.status === 'ok' && (
              <Typography variant="body2" color="textSecondary" data-testid="experiment-lift">
                Conversion lift {range(r.incremental.conversion_lift, pct)} · revenue per contact lift {range(r.incremental.revenue_per_contact_lift, (v) => formatMoney(v, r.currency))}
              </Typography>
            )}
            <Box sx={{ mt: 2 }}>
              <DataTable ariaLabel={`Reminded and holdout of ${campaignName}`} columns={groupColumns(r.currency)} rows={[r.reminded, r.holdout]} rowKey={(g) => g.id} empty="No contacts yet" />
            </Box>
            {r.steps.map((step) => (
              <StepResults key={step.template_id} step={step} name={nameOf(step.template_id)} currency={r.currency} />
            ))}
          </>
        )}
      </CardContent>
      {s && (
        <ExperimentDialog
          open={editing}
          base={base}
          campaignId={campaignId}
          channel={channel}
          steps={steps}
          current={s}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            void settings.mutate();
            void results.mutate();
          }}
        />
      )}
    </Card>
  );
}
