import { useState } from 'react';
import {
  Box,
  MenuItem,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import SmsIcon from '@mui/icons-material/SmsOutlined';
import SendIcon from '@mui/icons-material/SendOutlined';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import HourglassIcon from '@mui/icons-material/HourglassTopOutlined';
import { ErrorCard, errorMessage, PageHeader, Pagination, SMS_PAGE_SIZES } from '@act/ui-kit';
import type { SmsLogPage } from '@act/contracts/src/sms-api';
import { listPageKey, SMS_KEYS } from '../shared/keys';
import { formatShortDateTime, LOG_ERROR_PREVIEW, LOG_MESSAGE_PREVIEW, truncate, heldUntilTime } from '../shared/format';
import { useDebounced, useServerList, useServerPaging } from '../shared/paging';
import { EmptyState, FilterBar, SearchField, SummaryCard, SummaryRow, TableSkeleton } from '../shared/ui';
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
  const rows = logs.data?.items ?? [];
  const summary = logs.summary ?? { total: 0, sent: 0, delivered: 0, failed: 0, pending: 0 };
  const filtersActive = searched !== '' || status !== 'all';

  let table;
  if (logs.error && !logs.data) {
    table = (
      <ErrorCard title="Could not load SMS logs" message={errorMessage(logs.error)} onRetry={() => logs.mutate()} />
    );
  } else if (!logs.data) {
    table = <TableSkeleton />;
  } else if (rows.length === 0) {
    table = (
      <Box sx={{ p: 2 }}>
        <EmptyState
          icon={<SmsIcon />}
          title={filtersActive ? 'No messages match these filters' : 'No SMS sent yet'}
          description={
            filtersActive
              ? 'Change the search or the status filter.'
              : 'Messages appear here when a sequence or a test sends them.'
          }
        />
      </Box>
    );
  } else {
    table = (
      <>
        <TableContainer>
          <Table size="small" aria-label="SMS logs" sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}>
            <TableHead>
              <TableRow>
                <TableCell>Time</TableCell>
                <TableCell>Phone / Contact</TableCell>
                <TableCell align="center">Step</TableCell>
                <TableCell>Message</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Error</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((l) => (
                <TableRow key={l.id} hover data-testid="log-row">
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatShortDateTime(l.timestamp)}</TableCell>
                  <TableCell>
                    <Box sx={MONO}>{l.phone}</Box>
                    <Typography variant="caption" color="textSecondary" sx={{ fontFamily: MONO.fontFamily }}>
                      {l.contact_id ?? 'test message'}
                    </Typography>
                  </TableCell>
                  <TableCell align="center">{l.sequence_order ?? '—'}</TableCell>
                  <TableCell>
                    <Tooltip title={l.message.length > LOG_MESSAGE_PREVIEW ? l.message : ''}>
                      <span>{truncate(l.message, LOG_MESSAGE_PREVIEW)}</span>
                    </Tooltip>
                  </TableCell>
                  <TableCell>
                    <LogStatusBadge status={l.status} />
                    {l.held_until && (
                      <Typography variant="caption" color="textSecondary" sx={{ display: 'block', mt: 0.25 }}>
                        Held until {heldUntilTime(l.held_until)} (blackout)
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
                  </TableCell>
                  <TableCell sx={{ color: 'error.main' }} data-testid="log-error">
                    {l.error_message ? (
                      <Tooltip title={l.error_message.length > LOG_ERROR_PREVIEW ? l.error_message : ''}>
                        <span>{truncate(l.error_message, LOG_ERROR_PREVIEW)}</span>
                      </Tooltip>
                    ) : (
                      <Typography component="span" variant="body2" color="textSecondary">
                        —
                      </Typography>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        <Box sx={{ px: 2, borderTop: 1, borderColor: 'divider' }}>
          <Pagination {...paginationProps} pageSizeOptions={SMS_PAGE_SIZES} variant="sliding" />
        </Box>
      </>
    );
  }

  return (
    <Box>
      <PageHeader title="SMS Logs" subtitle="Every text message sent, delivered, failed or held back." />
      <SummaryRow columns={5}>
        <SummaryCard label="Total" value={summary.total} icon={<SmsIcon />} tone="primary" />
        <SummaryCard label="Sent" value={summary.sent} icon={<SendIcon />} tone="info" hint="Accepted by Twilio" />
        <SummaryCard label="Delivered" value={summary.delivered} icon={<DoneAllIcon />} tone="success" />
        <SummaryCard label="Failed" value={summary.failed} icon={<ErrorIcon />} tone="error" />
        <SummaryCard label="Pending" value={summary.pending} icon={<HourglassIcon />} tone="warning" />
      </SummaryRow>
      <Paper variant="outlined">
        <FilterBar>
          <SearchField value={search} onChange={setSearch} placeholder="Phone, contact, message or SID" />
          <TextField
            select
            size="small"
            label="Status"
            value={status}
            onChange={(e) => setStatus(e.target.value)}
            sx={{ flex: 1, minWidth: 180 }}
          >
            {STATUS_FILTERS.map((f) => (
              <MenuItem key={f.value} value={f.value}>
                {f.label}
              </MenuItem>
            ))}
          </TextField>
        </FilterBar>
        {table}
      </Paper>
    </Box>
  );
}
