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
import MailIcon from '@mui/icons-material/MailOutlined';
import { EMAIL_PAGE_SIZES, PageHeader, Pagination, usePagination } from '@act/ui-kit';
import type { EmailLog } from '@act/contracts/src/email-api';
import { EMAIL_LOGS, LoadError, TableMessageRow, useApi, DateTime, RefreshButton } from '../shared';

const COLUMNS = ['ID', 'Contact ID', 'Email', 'Timestamp', 'Message'];
const EMPTY: EmailLog[] = [];

/** Email Logs (section 2): the whole list loaded once, paged in the browser, newest first as the server sends it. */
export default function EmailLogsPage() {
  const { data, error, mutate } = useApi<EmailLog[]>(EMAIL_LOGS);
  const logs = data ?? EMPTY;
  const { pageItems, paginationProps, total } = usePagination(logs);

  if (error) return <LoadError what="email logs" error={error} onRetry={() => void mutate()} />;

  return (
    <>
      <PageHeader
        title="Email Logs"
        subtitle="Every abandoned cart email the reminders produced"
        actions={
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            {data && <Chip label={`${total} ${total === 1 ? 'entry' : 'entries'}`} variant="outlined" />}
            <RefreshButton lists={['emailLogs']} />
          </Stack>
        }
      />
      <Card>
        <TableContainer>
          <Table aria-label="Email logs" sx={{ minWidth: 800 }}>
            <TableHead>
              <TableRow>
                {COLUMNS.map((c) => (
                  <TableCell key={c} sx={{ whiteSpace: 'nowrap' }}>
                    {c}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {!data ? (
                <TableMessageRow colSpan={COLUMNS.length} icon={<CircularProgress size={22} />}>
                  Loading email logs...
                </TableMessageRow>
              ) : logs.length === 0 ? (
                <TableMessageRow colSpan={COLUMNS.length} icon={<MailIcon />}>
                  No email logs found. Abandoned cart emails will appear here.
                </TableMessageRow>
              ) : (
                pageItems.map((log) => (
                  <TableRow key={log.id} hover>
                    <TableCell sx={{ color: 'text.secondary' }}>{log.id}</TableCell>
                    <TableCell sx={{ fontFamily: 'monospace', fontSize: 13 }}>{log.contact_id}</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere', fontWeight: 500 }}>{log.email}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      <DateTime value={log.timestamp} />
                    </TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>
                      {log.message}
                      {log.delivery && <DeliveryChip delivery={log.delivery} />}
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
    </>
  );
}

/** What Resend reported after sending (its signed delivery events), under the log's message. */
const DELIVERY_LABELS: Record<string, { label: string; color: 'success' | 'info' | 'warning' | 'error' }> = {
  delivery_delayed: { label: 'Delivery delayed', color: 'warning' },
  delivered: { label: 'Delivered', color: 'success' },
  opened: { label: 'Opened', color: 'info' },
  clicked: { label: 'Clicked', color: 'info' },
  bounced: { label: 'Bounced', color: 'error' },
  complained: { label: 'Marked as spam', color: 'error' },
};

function DeliveryChip({ delivery }: { delivery: string }) {
  const d = DELIVERY_LABELS[delivery] ?? { label: delivery, color: 'info' as const };
  return (
    <Box sx={{ mt: 0.5 }}>
      <Chip size="small" variant="outlined" label={d.label} color={d.color} data-testid="delivery-chip" />
    </Box>
  );
}
