import { Box, Chip, Link, Stack } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import MailIcon from '@mui/icons-material/MailOutlined';
import { DataTable, DateTime, EMAIL_PAGE_SIZES, PageHeader, Pagination, usePagination, type DataColumn } from '@act/ui-kit';
import type { EmailLog } from '@act/contracts/src/email-api';
import { EMAIL_LOGS, LoadError, useApi, RefreshButton } from '../shared';

const NOWRAP = { whiteSpace: 'nowrap' } as const;
const COLUMNS: DataColumn<EmailLog>[] = [
  { key: 'id', label: 'ID', headSx: NOWRAP, cellSx: { color: 'text.secondary' }, render: (log) => log.id },
  {
    key: 'contact_id',
    label: 'Contact ID',
    headSx: NOWRAP,
    cellSx: { fontFamily: 'monospace', fontSize: 13 },
    render: (log) =>
      log.contact_ref ? (
        <Link component={RouterLink} to={`/contacts/${log.contact_ref}`}>
          {log.contact_id}
        </Link>
      ) : (
        log.contact_id
      ),
  },
  {
    key: 'email',
    label: 'Email',
    headSx: NOWRAP,
    cellSx: { overflowWrap: 'anywhere', fontWeight: 500 },
    render: (log) => log.email,
  },
  {
    key: 'timestamp',
    label: 'Timestamp',
    headSx: NOWRAP,
    cellSx: NOWRAP,
    render: (log) => <DateTime value={log.timestamp} />,
  },
  {
    key: 'message',
    label: 'Message',
    headSx: NOWRAP,
    cellSx: { overflowWrap: 'anywhere' },
    render: (log) => (
      <>
        {log.message}
        {log.delivery && <DeliveryChip delivery={log.delivery} />}
      </>
    ),
  },
];
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
      <DataTable
        ariaLabel="Email logs"
        minWidth={800}
        size="medium"
        columns={COLUMNS}
        rows={data && pageItems}
        rowKey={(log) => log.id}
        rowProps={() => ({ hover: true })}
        loading="Loading email logs..."
        empty="No email logs found. Abandoned cart emails will appear here."
        emptyIcon={<MailIcon />}
        footer={total > 0 && <Pagination {...paginationProps} pageSizeOptions={EMAIL_PAGE_SIZES} />}
      />
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
