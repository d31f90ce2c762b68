import { useState } from 'react';
import { Box, Link, Tooltip, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import SmsIcon from '@mui/icons-material/SmsOutlined';
import SendIcon from '@mui/icons-material/SendOutlined';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import HourglassIcon from '@mui/icons-material/HourglassTopOutlined';
import { DateTime, PageHeader, formatTime, type DataColumn } from '@act/ui-kit';
import { ProviderBanner } from '@act/ui-kit/src/ProviderBanner';
import type { SmsLog, SmsLogPage } from '@act/contracts/src/sms-api';
import { listPageKey, SMS_KEYS } from '../shared/keys';
import { LOG_ERROR_PREVIEW, LOG_MESSAGE_PREVIEW, truncate } from '../shared/format';
import { FilterSelect, SmsListTable } from '../shared/SmsListTable';
import { useDebounced, useServerList, useServerPaging } from '../shared/paging';
import { SearchField, SummaryCard, SummaryRow } from '../shared/ui';
import { LogStatusBadge } from '../shared/status';

const MONO = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 } as const;

/**
 * Status filter choices. 'failed' covers undelivered and 'pending' covers queued, as the cards count them
 * (spec section 4); the two skip statuses of the sequence can be picked on their own. The values are svc-sms's
 * `status` filter (SMS_LOG_STATUS_FILTERS).
 */
const STATUS_FILTERS = [
  { value: 'all', label: 'All Statuses' },
  { value: 'sent', label: 'Sent' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'failed', label: 'Failed' },
  { value: 'queued', label: 'Pending' },
  { value: 'skipped_duplicate', label: 'Duplicate Blocked' },
  { value: 'blocked_toll_free', label: 'Toll-free Blocked' },
] as const;

const COLUMNS: DataColumn<SmsLog>[] = [
  { key: 'time', label: 'Time', render: (l) => <DateTime value={l.timestamp} /> },
  {
    key: 'phone',
    label: 'Phone / Contact',
    render: (l) => (
      <>
        <Box sx={MONO}>{l.phone}</Box>
        <Typography variant="caption" color="textSecondary" sx={{ fontFamily: MONO.fontFamily }}>
          {l.contact_ref ? (
            <Link component={RouterLink} to={`/sms-contacts/${l.contact_ref}`}>
              {l.contact_id}
            </Link>
          ) : (
            (l.contact_id ?? 'test message')
          )}
        </Typography>
      </>
    ),
  },
  { key: 'step', label: 'Step', align: 'center', render: (l) => l.sequence_order ?? '—' },
  {
    key: 'message',
    label: 'Message',
    render: (l) => (
      <Tooltip title={l.message.length > LOG_MESSAGE_PREVIEW ? l.message : ''}>
        <span>{truncate(l.message, LOG_MESSAGE_PREVIEW)}</span>
      </Tooltip>
    ),
  },
  {
    key: 'status',
    label: 'Status',
    render: (l) => (
      <>
        <LogStatusBadge status={l.status} />
        {l.held_until && (
          <Typography variant="caption" color="textSecondary" sx={{ display: 'block', mt: 0.25 }}>
            Held until {formatTime(l.held_until, { zone: true })} ({l.status === 'held_frequency_cap' ? 'frequency cap' : 'blackout'})
          </Typography>
        )}
        {l.message_sid && (
          <Tooltip title={l.message_sid}>
            <Typography
              variant="caption"
              color="textSecondary"
              sx={{ display: 'block', mt: 0.25, fontFamily: MONO.fontFamily, fontSize: 11 }}
            >
              {truncate(l.message_sid, 14)}
            </Typography>
          </Tooltip>
        )}
      </>
    ),
  },
  {
    key: 'error',
    label: 'Error',
    cellSx: { color: 'error.main' },
    testId: 'log-error',
    render: (l) =>
      l.error_message ? (
        <Tooltip title={l.error_message.length > LOG_ERROR_PREVIEW ? l.error_message : ''}>
          <span>{truncate(l.error_message, LOG_ERROR_PREVIEW)}</span>
        </Tooltip>
      ) : (
        <Typography component="span" variant="body2" color="textSecondary">
          —
        </Typography>
      ),
  },
];

/**
 * /sms-logs: every message the SMS side sent or held back (spec section 2). svc-sms pages, filters, searches
 * (phone, contact, message, SID, error) and counts the five cards over every log (failed + undelivered as Failed,
 * pending + queued as Pending): GET /api/sms-logs?page=&pageSize=&search=&status=.
 */
export default function SmsLogsPage() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('all');
  const searched = useDebounced(search.trim());
  const paging = useServerPaging([searched, status]);
  const logs = useServerList<SmsLogPage>(
    listPageKey(SMS_KEYS.logs, {
      page: paging.page,
      pageSize: paging.pageSize,
      search: searched,
      status: status === 'all' ? undefined : status,
    }),
    [searched, status],
    search.trim() !== searched,
  );
  const paginationProps = paging.paginationProps(logs.data?.total);
  const summary = logs.summary ?? { total: 0, sent: 0, delivered: 0, failed: 0, pending: 0 };
  const filtersActive = searched !== '' || status !== 'all';

  return (
    <Box>
      <PageHeader title="SMS Logs" subtitle="Every text message sent, delivered, failed or held back." />
      <ProviderBanner provider="twilio" />
      <SummaryRow columns={5}>
        <SummaryCard label="Total" value={summary.total} icon={<SmsIcon />} tone="primary" />
        <SummaryCard label="Sent" value={summary.sent} icon={<SendIcon />} tone="info" hint="Accepted by Twilio" />
        <SummaryCard label="Delivered" value={summary.delivered} icon={<DoneAllIcon />} tone="success" />
        <SummaryCard label="Failed" value={summary.failed} icon={<ErrorIcon />} tone="error" />
        <SummaryCard label="Pending" value={summary.pending} icon={<HourglassIcon />} tone="warning" />
      </SummaryRow>
      <SmsListTable
        ariaLabel="SMS logs"
        nowrap
        columns={COLUMNS}
        list={logs}
        rowTestId="log-row"
        errorTitle="Could not load SMS logs"
        empty={{
          icon: <SmsIcon />,
          title: filtersActive ? 'No messages match these filters' : 'No SMS sent yet',
          description: filtersActive
            ? 'Change the search or the status filter.'
            : 'Messages appear here when a sequence or a test sends them.',
        }}
        paginationProps={paginationProps}
        filters={
          <>
            <SearchField value={search} onChange={setSearch} placeholder="Phone, contact, message or SID" />
            <FilterSelect label="Status" value={status} onChange={setStatus} options={STATUS_FILTERS} />
          </>
        }
      />
    </Box>
  );
}
