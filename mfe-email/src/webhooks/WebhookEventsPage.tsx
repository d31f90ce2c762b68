import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Box, Chip, Link, Stack } from '@mui/material';
import WebhookIcon from '@mui/icons-material/WebhookOutlined';
import { DataTable, DateTime, EMAIL_PAGE_SIZES, PageHeader, Pagination, usePagination, type DataColumn } from '@act/ui-kit';
import {
  DeliveryChips,
  DeliveryFilters,
  type DeliveryFilterName,
  type DeliveryFilterValues,
} from '@act/ui-kit/src/WebhookSigning';
import type { WebhookEvent } from '@act/contracts/src/email-api';
import { LoadError, WEBHOOK_EVENTS, useApi, RefreshButton } from '../shared';
import { EndpointCard } from './EndpointCard';
import { EventTypeChip } from './EventTypeChip';

const EMPTY: WebhookEvent[] = [];

const COLUMNS: DataColumn<WebhookEvent>[] = [
  { key: 'type', label: 'Type', headSx: { width: 190 }, render: (event) => <EventTypeChip type={event.type} /> },
  {
    key: 'delivery',
    label: 'Delivery',
    headSx: { width: 230 },
    testId: 'delivery-cell',
    render: (event) => (
      <>
        <DeliveryChips event={event} />
        {typeof event.contact_ref === 'number' && (
          <Link component={RouterLink} to={`/contacts/${event.contact_ref}`} variant="body2" sx={{ display: 'inline-block', mt: 0.5 }} data-testid="event-contact-link">
            Contact page
          </Link>
        )}
      </>
    ),
  },
  {
    key: 'received',
    label: 'Received',
    headSx: { width: 210 },
    cellSx: { whiteSpace: 'nowrap' },
    render: (event) => <DateTime value={event.timestamp} />,
  },
  { key: 'payload', label: 'Payload', render: (event) => <Payload event={event} /> },
];

/**
 * Webhook Events (section 2): endpoint URL with Copy, then every delivery (newest first), paged in the browser;
 * each delivery's sender, verification and outcome, filterable by those (in the browser, like the paging).
 */
export default function WebhookEventsPage() {
  const { data, error, mutate } = useApi<WebhookEvent[]>(WEBHOOK_EVENTS);
  const [filters, setFilters] = useState<DeliveryFilterValues>({});
  const events = useMemo(
    () =>
      (data ?? EMPTY).filter((e) =>
        (Object.keys(filters) as DeliveryFilterName[]).every((k) => !filters[k] || e[k] === filters[k]),
      ),
    [data, filters],
  );
  const { pageItems, paginationProps, total } = usePagination(events);

  return (
    <>
      <PageHeader
        title="Webhook Events"
        subtitle="Deliveries received from your funnels, exactly as they arrived"
        actions={
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            {data && <Chip label={`${total} ${total === 1 ? 'event' : 'events'}`} variant="outlined" />}
            <RefreshButton lists={['webhookEvents']} />
          </Stack>
        }
      />
      <EndpointCard />
      <Box sx={{ mb: 2, display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
        <DeliveryFilters value={filters} onChange={setFilters} />
      </Box>
      {error ? (
        <LoadError what="webhook events" error={error} onRetry={() => void mutate()} />
      ) : (
        <DataTable
          ariaLabel="Webhook events"
          minWidth={980}
          size="medium"
          tableSx={{ tableLayout: 'fixed' }}
          columns={COLUMNS}
          rows={data && pageItems}
          rowKey={(event) => event.id}
          rowProps={(event) => ({ hover: true, sx: { verticalAlign: 'top' }, 'data-event-type': event.type })}
          loading="Loading webhook events..."
          empty={
            data?.length === 0
              ? 'No webhook events yet. Send a webhook to this endpoint to see events here.'
              : 'No webhook events match these filters.'
          }
          emptyIcon={<WebhookIcon />}
          footer={total > 0 && <Pagination {...paginationProps} pageSizeOptions={EMAIL_PAGE_SIZES} />}
        />
      )}
    </>
  );
}

function Payload({ event }: { event: WebhookEvent }) {
  return (
    <Box
      component="pre"
      // Scrolls when long: reachable by keyboard, named for screen readers (axe: scrollable-region-focusable).
      tabIndex={0}
      aria-label={`Payload of event ${event.id}`}
      sx={{
        m: 0,
        p: 1.25,
        maxHeight: 140,
        overflow: 'auto',
        bgcolor: '#f8fafc',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1.5,
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
        fontSize: 12,
        lineHeight: 1.5,
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-all',
      }}
    >
      {event.payload}
    </Box>
  );
}
