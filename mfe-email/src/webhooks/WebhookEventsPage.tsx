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
import type { WebhookEvent } from '@act/contracts/src/email-api';
import { LoadError, TableMessageRow, WEBHOOK_EVENTS, useApi, DateTime, RefreshButton } from '../shared';
import { EndpointCard } from './EndpointCard';
import { EventTypeChip } from './EventTypeChip';

const EMPTY: WebhookEvent[] = [];

/** Webhook Events (section 2): endpoint URL with Copy, then every delivery (newest first), paged in the browser. */
export default function WebhookEventsPage() {
  const { data, error, mutate } = useApi<WebhookEvent[]>(WEBHOOK_EVENTS);
  const events = data ?? EMPTY;
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
      {error ? (
        <LoadError what="webhook events" error={error} onRetry={() => void mutate()} />
      ) : (
        <Card>
          <TableContainer>
            <Table aria-label="Webhook events" sx={{ minWidth: 760, tableLayout: 'fixed' }}>
              <TableHead>
                <TableRow>
                  <TableCell sx={{ width: 190 }}>Type</TableCell>
                  <TableCell sx={{ width: 210 }}>Received</TableCell>
                  <TableCell>Payload</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {!data ? (
                  <TableMessageRow colSpan={3} icon={<CircularProgress size={22} />}>
                    Loading webhook events...
                  </TableMessageRow>
                ) : events.length === 0 ? (
                  <TableMessageRow colSpan={3} icon={<WebhookIcon />}>
                    No webhook events yet. Send a webhook to this endpoint to see events here.
                  </TableMessageRow>
                ) : (
                  pageItems.map((event) => (
                    <TableRow key={event.id} hover sx={{ verticalAlign: 'top' }} data-event-type={event.type}>
                      <TableCell>
                        <EventTypeChip type={event.type} />
                      </TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        <DateTime value={event.timestamp} />
                      </TableCell>
                      <TableCell>
                        <Box
                          component="pre"
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
