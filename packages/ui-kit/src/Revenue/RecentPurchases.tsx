import { useState } from 'react';
import useSWR from 'swr';
import { Alert, Box, Button, Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import type { RevenuePurchaseRow, RevenuePurchasesPage } from '@act/contracts/src/revenue-api';
import { errorMessage } from '../request';
import { DateTime, formatMoney, NO_VALUE } from '../format';
import { DataTable, type DataColumn } from '../DataTable';

/** The reminder a purchase is credited to, as the summary names templates: channel, campaign, template, step. */
export function creditedLabel(c: RevenuePurchaseRow['credited']): string {
  const parts = [c.channel === 'email' ? 'Email' : 'SMS'];
  if (c.campaign_id !== null) parts.push(`campaign ${c.campaign_id}`);
  parts.push(`template ${c.template_id ?? NO_VALUE}`, `step ${c.step ?? NO_VALUE}`);
  return `${parts.join(' · ')}${c.variant ? ` (variant ${c.variant})` : ''}`;
}

const who = (r: RevenuePurchaseRow) => r.contact.email ?? (r.contact.phone ? `+${r.contact.phone}` : null) ?? r.contact.contact_id ?? NO_VALUE;

function columns(contactHref: (id: number) => string): DataColumn<RevenuePurchaseRow>[] {
  return [
    { key: 'date', label: 'Date', render: (r) => <DateTime value={r.purchased_at} stacked /> },
    {
      key: 'contact',
      label: 'Contact',
      cellSx: { overflowWrap: 'anywhere' },
      render: (r) =>
        r.contact.id !== null ? (
          <Link component={RouterLink} to={contactHref(r.contact.id)} data-testid="revenue-purchase-contact">
            {who(r)}
          </Link>
        ) : (
          who(r)
        ),
    },
    { key: 'integration', label: 'Integration', cellSx: { overflowWrap: 'anywhere' }, render: (r) => r.integration?.name ?? NO_VALUE },
    { key: 'amount', label: 'Amount', align: 'right', render: (r) => (r.amount === null ? NO_VALUE : r.currency ? formatMoney(r.amount, r.currency) : String(r.amount)) },
    { key: 'credited', label: 'Credited to', render: (r) => creditedLabel(r.credited) },
    {
      key: 'recovered',
      label: 'Recovered checkout',
      cellSx: { overflowWrap: 'anywhere' },
      render: (r) => (r.recovered_from ? <span data-testid="revenue-purchase-session">{r.recovered_from}</span> : NO_VALUE),
    },
  ];
}

export interface RecentPurchasesProps {
  /** `/api/revenue` or `/api/sms/revenue`. */
  basePath: string;
  /** The panel's filter and credit model, without paging (`model=last&integration_id=3`). */
  query: string;
  contactHref: (id: number) => string;
}

/** The newest purchases credited to a reminder, a page at a time (older pages by the list's `next`). */
export function RecentPurchases({ basePath, query, contactHref }: RecentPurchasesProps) {
  // The `before` of each page shown so far: the first page has none.
  const [pages, setPages] = useState<{ query: string; cursors: (string | null)[] }>({ query, cursors: [null] });
  const cursors = pages.query === query ? pages.cursors : [null];
  const before = cursors[cursors.length - 1];
  const { data, error, isLoading } = useSWR<RevenuePurchasesPage>(`${basePath}/purchases?${query}&limit=10${before ? `&before=${encodeURIComponent(before)}` : ''}`, { keepPreviousData: true });
  return (
    <Box data-testid="revenue-purchases">
      <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
        Recent recovered purchases
      </Typography>
      {error ? (
        <Alert severity="error">Could not load recovered purchases: {errorMessage(error)}</Alert>
      ) : (
        <>
          <DataTable
            ariaLabel="Recent recovered purchases"
            size="small"
            tableSx={{ '& td, & th': { py: 1 } }}
            columns={columns(contactHref)}
            rows={isLoading ? undefined : (data?.purchases ?? [])}
            rowKey={(r) => `${r.purchased_at}|${r.contact.contact_id ?? r.contact.email ?? r.contact.phone ?? ''}|${r.amount ?? ''}`}
            empty="No recovered purchase yet."
            rowProps={() => ({ 'data-testid': 'revenue-purchase-row' })}
          />
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 1 }}>
            <Button size="small" disabled={cursors.length <= 1} onClick={() => setPages({ query, cursors: cursors.slice(0, -1) })}>
              Newer
            </Button>
            <Button size="small" disabled={!data?.next} onClick={() => data?.next && setPages({ query, cursors: [...cursors, data.next] })}>
              Older
            </Button>
          </Stack>
        </>
      )}
    </Box>
  );
}
