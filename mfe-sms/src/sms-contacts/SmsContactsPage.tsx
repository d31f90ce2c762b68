import { useMemo, useState } from 'react';
import useSWR from 'swr';
import {
  Box,
  Button,
  CircularProgress,
  MenuItem,
  Paper,
  Stack,
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
import PeopleIcon from '@mui/icons-material/PeopleAltOutlined';
import HourglassIcon from '@mui/icons-material/HourglassTopOutlined';
import CartIcon from '@mui/icons-material/ShoppingCartCheckoutOutlined';
import SmsIcon from '@mui/icons-material/SmsOutlined';
import CheckIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import ClearIcon from '@mui/icons-material/DeleteSweepOutlined';
import BlockIcon from '@mui/icons-material/DoNotDisturbOnOutlined';
import {
  apiRequest,
  ConfirmDialog,
  ErrorCard,
  errorMessage,
  PageHeader,
  Pagination,
  SMS_DEFAULT_PAGE_SIZE,
  SMS_PAGE_SIZES,
  usePagination,
} from '@act/ui-kit';
import { SMS_CONTACT_STATUSES, type SmsContact, type SmsIntegration } from '@act/contracts/src/sms-api';
import { isStatsKey, SMS_KEYS } from '../shared/keys';
import { formatShortDateTime, matchesSearch } from '../shared/format';
import { Badge, EmptyState, FilterBar, SearchField, SummaryCard, SummaryRow, TableSkeleton } from '../shared/ui';
import { ContactStatusBadge, contactStatusLabel } from '../shared/status';
import { useNotify } from '../shared/notify';
import { useRefetch } from '../shared/refetch';

const MONO = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 } as const;
/** The integration filter's value for contacts without one. */
const NO_INTEGRATION = 'none';

/** /sms-contacts: contacts of the SMS side, their sequence status, and the manual purchase mark (spec section 2). */
export default function SmsContactsPage() {
  const notify = useNotify();
  const refetch = useRefetch();
  const contacts = useSWR<SmsContact[]>(SMS_KEYS.contacts);
  const integrations = useSWR<SmsIntegration[]>(SMS_KEYS.integrations);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('all');
  const [integration, setIntegration] = useState('all');
  const [toMark, setToMark] = useState<SmsContact | null>(null);
  const [marking, setMarking] = useState(false);
  const [clearing, setClearing] = useState(false);

  const all = contacts.data ?? [];
  const integrationName = useMemo(
    () => new Map((integrations.data ?? []).map((i) => [i.id, i.name])),
    [integrations.data],
  );
  const nameOf = (c: SmsContact) =>
    c.integration_name ?? (c.integration_id !== null ? integrationName.get(c.integration_id) : undefined) ?? null;

  const filtered = useMemo(
    () =>
      all.filter((c) => {
        if (status !== 'all' && c.status !== status) return false;
        if (integration === NO_INTEGRATION && c.integration_id !== null) return false;
        if (integration !== 'all' && integration !== NO_INTEGRATION && c.integration_id !== Number(integration))
          return false;
        return matchesSearch(search, [c.phone, c.contact_id, c.funnel_id, c.first_name, c.email, nameOf(c)]);
      }),
    [all, status, integration, search, integrationName],
  );
  const paging = usePagination(filtered, {
    defaultPageSize: SMS_DEFAULT_PAGE_SIZE,
    resetOn: [search, status, integration],
  });

  const counts = useMemo(
    () => ({
      total: all.length,
      pending: all.filter((c) => c.status === 'pending').length,
      purchased: all.filter((c) => c.status === 'purchased').length,
      sent: all.filter((c) => c.status === 'sent').length,
    }),
    [all],
  );

  const markPurchased = async () => {
    if (!toMark) return;
    setMarking(true);
    try {
      await apiRequest('POST', `${SMS_KEYS.contacts}/mark-purchased`, { contact_id: toMark.id });
      notify.success('Contact marked as purchased');
      setToMark(null);
      await Promise.all([refetch(SMS_KEYS.contacts), refetch.forget(isStatsKey)]);
    } catch (err) {
      notify.error(`Failed to mark contact as purchased: ${errorMessage(err)}`);
    } finally {
      setMarking(false);
    }
  };

  // The spec has this act at once, without a confirmation step.
  const clearAll = async () => {
    setClearing(true);
    try {
      await apiRequest('POST', `${SMS_KEYS.contacts}/clear`);
      notify.success('All SMS contacts cleared');
      await Promise.all([refetch(SMS_KEYS.contacts), refetch.forget(isStatsKey)]);
    } catch (err) {
      notify.error(`Failed to clear contacts: ${errorMessage(err)}`);
    } finally {
      setClearing(false);
    }
  };

  const filtersActive = search.trim() !== '' || status !== 'all' || integration !== 'all';

  let table;
  if (contacts.error && !contacts.data) {
    table = (
      <ErrorCard
        title="Could not load SMS contacts"
        message={errorMessage(contacts.error)}
        onRetry={() => contacts.mutate()}
      />
    );
  } else if (!contacts.data) {
    table = <TableSkeleton />;
  } else if (filtered.length === 0) {
    table = (
      <Box sx={{ p: 2 }}>
        <EmptyState
          icon={<PeopleIcon />}
          title={filtersActive ? 'No contacts match these filters' : 'No SMS contacts yet'}
          description={
            filtersActive
              ? 'Change the search or the filters to see more contacts.'
              : 'Contacts appear here when a funnel posts to the SMS webhook.'
          }
        />
      </Box>
    );
  } else {
    table = (
      <>
        <TableContainer>
          <Table size="small" aria-label="SMS contacts" sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}>
            <TableHead>
              <TableRow>
                <TableCell>Phone</TableCell>
                <TableCell>Contact ID</TableCell>
                <TableCell>Integration / Funnel</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Remind At</TableCell>
                <TableCell>Created</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {paging.pageItems.map((c) => (
                <TableRow key={c.id} hover data-testid="contact-row">
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <Box component="span" sx={MONO}>
                        {c.phone}
                      </Box>
                      {c.opted_out && (
                        <Tooltip title="This phone replied STOP: no more SMS are sent to it.">
                          <span>
                            <Badge icon={<BlockIcon sx={{ fontSize: 14 }} />} label="Opted out" tone="error" />
                          </span>
                        </Tooltip>
                      )}
                    </Stack>
                    {c.first_name && (
                      <Typography variant="caption" color="textSecondary">
                        {c.first_name}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell sx={MONO}>{c.contact_id}</TableCell>
                  <TableCell>
                    {nameOf(c) ?? (
                      <Typography variant="body2" color="textSecondary" component="span">
                        No Integration
                      </Typography>
                    )}
                    <Typography
                      variant="caption"
                      color="textSecondary"
                      sx={{ display: 'block', fontFamily: MONO.fontFamily }}
                    >
                      {c.funnel_id}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    <ContactStatusBadge status={c.status} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatShortDateTime(c.remind_at)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatShortDateTime(c.created_at)}</TableCell>
                  <TableCell align="right">
                    {c.status !== 'purchased' && (
                      <Button
                        size="small"
                        variant="outlined"
                        color="success"
                        startIcon={<CheckIcon />}
                        onClick={() => setToMark(c)}
                        sx={{ whiteSpace: 'nowrap' }}
                      >
                        Mark Purchased
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        <Box sx={{ px: 2, borderTop: 1, borderColor: 'divider' }}>
          <Pagination {...paging.paginationProps} pageSizeOptions={SMS_PAGE_SIZES} variant="sliding" />
        </Box>
      </>
    );
  }

  return (
    <Box>
      <PageHeader
        title="SMS Contacts"
        subtitle="Everyone who entered an SMS sequence, and where they are in it."
        actions={
          <Button
            variant="outlined"
            color="error"
            startIcon={clearing ? <CircularProgress size={16} color="inherit" /> : <ClearIcon />}
            onClick={clearAll}
            disabled={clearing}
          >
            Clear All Contacts
          </Button>
        }
      />
      <SummaryRow>
        <SummaryCard label="Total" value={counts.total} icon={<PeopleIcon />} tone="primary" />
        <SummaryCard label="Pending" value={counts.pending} icon={<HourglassIcon />} tone="warning" />
        <SummaryCard label="Purchased" value={counts.purchased} icon={<CartIcon />} tone="success" />
        <SummaryCard label="SMS Sent" value={counts.sent} icon={<SmsIcon />} tone="info" />
      </SummaryRow>
      <Paper variant="outlined">
        <FilterBar>
          <SearchField value={search} onChange={setSearch} placeholder="Phone, contact ID, funnel or name" />
          <TextField
            select
            size="small"
            label="Status"
            value={status}
            onChange={(e) => setStatus(e.target.value)}
            sx={{ flex: 1, minWidth: 180 }}
          >
            <MenuItem value="all">All Statuses</MenuItem>
            {SMS_CONTACT_STATUSES.map((s) => (
              <MenuItem key={s} value={s}>
                {contactStatusLabel(s)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label="Integration"
            value={integration}
            onChange={(e) => setIntegration(e.target.value)}
            sx={{ flex: 1, minWidth: 180 }}
          >
            <MenuItem value="all">All Integrations</MenuItem>
            <MenuItem value={NO_INTEGRATION}>No Integration</MenuItem>
            {(integrations.data ?? []).map((i) => (
              <MenuItem key={i.id} value={String(i.id)}>
                {i.name}
              </MenuItem>
            ))}
          </TextField>
        </FilterBar>
        {table}
      </Paper>
      <ConfirmDialog
        open={toMark !== null}
        title="Mark Contact as Purchased"
        description={
          toMark ? (
            <>
              Mark <strong>{toMark.phone}</strong> (contact {toMark.contact_id}) as purchased? Pending SMS reminders for
              this contact stop.
            </>
          ) : undefined
        }
        confirmLabel="Mark Purchased"
        loading={marking}
        onConfirm={markPurchased}
        onClose={() => setToMark(null)}
      />
    </Box>
  );
}
