import useSWR from 'swr';
import { Typography } from '@mui/material';
import type { IncrementalOverview, IncrementalTotal } from '@act/contracts/src/experiments-api';
import { formatCount, formatMoney } from '../format';


/** One currency's words: the figure with its interval, or why not yet. */
export function incrementalTotalText(t: IncrementalTotal): string {
  const of = `${t.campaigns} ${t.campaigns === 1 ? 'campaign' : 'campaigns'} with a holdout`;
  if (t.status === 'ok') {
    const r = t.incremental_revenue;
    return `${formatMoney(r.estimate, t.currency)} (95%: ${formatMoney(r.lower, t.currency)} to ${formatMoney(r.upper, t.currency)}; ${of})`;
  }
  const more = t.more_recipients_needed === null ? 'no purchase yet in a group' : `${formatCount(t.more_recipients_needed)} more recipients needed`;
  return `below the minimum sample (${more}; ${of})`;
}

/**
 * The Dashboard's incremental revenue: what the reminders added over the holdout groups, per currency, or that the
 * sample is still too small. Nothing while no campaign holds out contacts.
 */
export function IncrementalRevenueLine({ path, label }: { path: string; label: string }) {
  const { data } = useSWR<IncrementalOverview>(path);
  if (!data || data.totals.length === 0) return null;
  return (
    <Typography variant="body2" data-testid={`incremental-revenue-${data.channel}`}>
      <strong>Incremental revenue, {label}</strong> (reminded vs. holdout): {data.totals.map(incrementalTotalText).join(' · ')}
    </Typography>
  );
}
