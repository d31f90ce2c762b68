import { useMemo, useState } from 'react';
import {
  Box,
  Card,
  Chip,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
} from '@mui/material';
import WebhookIcon from '@mui/icons-material/WebhookOutlined';
import { EMAIL_PAGE_SIZES, PageHeader, Pagination, usePagination } from '@act/ui-kit';
import {
  DeliveryChips,
  DeliveryFilters,
  type DeliveryFilterName,
  type DeliveryFilterValues,
} from '@act/ui-kit/src/WebhookSigning';
import type { WebhookEvent } from '@act/contracts/src/email-api';
import { LoadError, TableMessageRow, WEBHOOK_EVENTS, useApi, DateTime, RefreshButton } from '../shared';
import { EndpointCard } from './EndpointCard';
import { EventTypeChip } from './EventTypeChip';

const EMPTY: WebhookEvent[] = [];

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
        <Card>
          <TableContainer>
            <Table aria-label="Webhook events" sx={{ minWidth: 980, tableLayout: 'fixed' }}>
              <TableHead>
                <TableRow>
                  <TableCell sx={{ width: 190 }}>Type</TableCell>
                  <TableCell sx={{ width: 230 }}>Delivery</TableCell>
                  <TableCell sx={{ width: 210 }}>Received</TableCell>
                  <TableCell>Payload</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {!data ? (
                  <TableMessageRow colSpan={4} icon={<CircularProgress size={22} />}>
                    Loading webhook events...
                  </TableMessageRow>
                ) : events.length === 0 ? (
                  <TableMessageRow colSpan={4} icon={<WebhookIcon />}>
                    {data.length === 0
                      ? 'No webhook events yet. Send a webhook to this endpoint to see events here.'
                      : 'No webhook events match these filters.'}
                  </TableMessageRow>
                ) : (
                  pageItems.map((event) => (
                    <TableRow key={event.id} hover sx={{ verticalAlign: 'top' }} data-event-type={event.type}>
                      <TableCell>
                        <EventTypeChip type={event.type} />
                      </TableCell>
                      <TableCell data-testid="delivery-cell">
                        <DeliveryChips event={event} />
                      </TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        <DateTime value={event.timestamp} />
                      </TableCell>
                      <TableCell>
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
                      </TableCell>
                    </TableRow>
                  ))
                )}
              </TableBody>
            </Table>
          </TableContainer>
          {total > 0 && (
            <Box sx={{ px: 2.5, borderTop: 1, borderColor: 'divider' }}>
              <Pagination {...paginationProps} pageSizeOptions={EMAIL_PAGE_SIZES} />
            </Box>
          )}
        </Card>
      )}
    </>
  );
}
