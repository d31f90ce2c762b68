import { useMemo, useState } from 'react';
import useSWR from 'swr';
import { Box, Button, Chip, CircularProgress, Link, Stack, Tooltip, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import PeopleIcon from '@mui/icons-material/PeopleAltOutlined';
import HourglassIcon from '@mui/icons-material/HourglassTopOutlined';
import CartIcon from '@mui/icons-material/ShoppingCartCheckoutOutlined';
import SmsIcon from '@mui/icons-material/SmsOutlined';
import CheckIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import ClearIcon from '@mui/icons-material/DeleteSweepOutlined';
import BlockIcon from '@mui/icons-material/DoNotDisturbOnOutlined';
import { apiRequest, ConfirmDialog, DateTime, errorMessage, formatTime, PageHeader, type DataColumn } from '@act/ui-kit';
import { ProviderBanner, useProviderStatus } from '@act/ui-kit/src/ProviderBanner';
import { AdminOnlyNote, adminOnlyReason } from '@act/ui-kit/src/AdminOnlyNote';
import {
  SMS_CONTACT_STATUSES,
  type SmsContact,
  type SmsContactPage,
  type SmsIntegration,
} from '@act/contracts/src/sms-api';
import { isListKey, isStatsKey, listPageKey, SMS_KEYS } from '../shared/keys';
import { FilterSelect, SmsListTable } from '../shared/SmsListTable';
import { useDebounced, useServerList, useServerPaging } from '../shared/paging';
import { Badge, SearchField, SummaryCard, SummaryRow } from '../shared/ui';
import { ContactStatusBadge, contactStatusLabel } from '../shared/status';
import { useNotify } from '../shared/notify';
import { useRefetch } from '../shared/refetch';

const MONO = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 } as const;
/** A sender's id within a column of a table whose cells never wrap. */
const WRAPPED = { display: 'inline-block', maxWidth: 130, whiteSpace: 'normal', overflowWrap: 'anywhere' } as const;
/** The integration filter's value for contacts without one. */
const NO_INTEGRATION = 'none';

/**
 * /sms-contacts: contacts of the SMS side, their sequence status, and the manual purchase mark (spec section 2).
 * svc-sms pages, filters, searches and counts (GET /api/sms-contacts?page=&pageSize=&search=&status=&integration_id=
 * answers one page, its total and the four cards over every contact): the spec's plain list holds only the newest
 * SMS_LIST_LIMIT contacts, and at 50,000 filtering it here took ~1.2 s with wrong cards. See useServerList for
 * what shows while a page loads.
 */
export default function SmsContactsPage() {
  const notify = useNotify();
  const refetch = useRefetch();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('all');
  // Why a contact past its time is still pending, when the cause is Twilio's missing configuration.
  const twilio = useProviderStatus('twilio');
  const [integration, setIntegration] = useState('all');
  const [toMark, setToMark] = useState<SmsContact | null>(null);
  const [marking, setMarking] = useState(false);
  const [clearing, setClearing] = useState(false);
  // Why the server refused (403): on a production server only admins may clear every contact, while the button is
  // shown to everyone; said under the button once the server has said so.
  const [clearRefused, setClearRefused] = useState<string | null>(null);

  const searched = useDebounced(search.trim());
  const paging = useServerPaging([searched, status, integration]);
  const key = listPageKey(SMS_KEYS.contacts, {
    page: paging.page,
    pageSize: paging.pageSize,
    search: searched,
    status: status === 'all' ? undefined : status,
    integration_id: integration === 'all' ? undefined : integration,
  });
  const contacts = useServerList<SmsContactPage>(key, [searched, status, integration], search.trim() !== searched);
  const integrations = useSWR<SmsIntegration[]>(SMS_KEYS.integrations);
  const paginationProps = paging.paginationProps(contacts.data?.total);

  const integrationName = useMemo(
    () => new Map((integrations.data ?? []).map((i) => [i.id, i.name])),
    [integrations.data],
  );
  const nameOf = (c: SmsContact) =>
    c.integration_name ?? (c.integration_id !== null ? integrationName.get(c.integration_id) : undefined) ?? null;
  // The cards count no test delivery (their rows are listed, badged); clearing removes those too.
  const counts = contacts.summary ?? { total: 0, pending: 0, purchased: 0, sent: 0, tests: 0 };

  // After a change: every other page, filter or size cached so far is dropped first (it loads afresh when shown,
  // the page this one may move to when the list shrank included), then this page loads again.
  const reloadContacts = async () => {
    await refetch.forget((k: unknown) => isListKey(SMS_KEYS.contacts)(k) && k !== key, isStatsKey);
    await contacts.mutate();
  };

  const markPurchased = async () => {
    if (!toMark) return;
    setMarking(true);
    try {
      await apiRequest('POST', `${SMS_KEYS.contacts}/mark-purchased`, { contact_id: toMark.id });
      notify.success('Contact marked as purchased');
      setToMark(null);
      await reloadContacts();
    } catch (err) {
      notify.error(`Failed to mark contact as purchased: ${errorMessage(err)}`);
    } finally {
      setMarking(false);
    }
  };

  // The spec has this act at once; one stray click would clear every contact, so it asks first.
  const [confirmingClear, setConfirmingClear] = useState(false);
  const clearAll = async () => {
    setClearing(true);
    try {
      await apiRequest('POST', `${SMS_KEYS.contacts}/clear`);
      setClearRefused(null);
      notify.success('All SMS contacts cleared');
      setConfirmingClear(false);
      await reloadContacts();
    } catch (err) {
      notify.error(`Failed to clear contacts: ${errorMessage(err)}`);
      const refused = adminOnlyReason(err, 'Admin access required: on this server only administrators can clear all SMS contacts');
      if (refused) {
        setClearRefused(refused);
        setConfirmingClear(false);
      }
    } finally {
      setClearing(false);
    }
  };

  const filtersActive = searched !== '' || status !== 'all' || integration !== 'all';

  const columns: DataColumn<SmsContact>[] = [
    {
      key: 'phone',
      label: 'Phone',
      render: (c) => (
        <>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Link component={RouterLink} to={`/sms-contacts/${c.id}`} sx={MONO} data-testid="contact-link">
              {c.phone}
            </Link>
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
        </>
      ),
    },
    // Ids and funnels are the sender's, of any length: they wrap within their column (the table's cells do not),
    // so Status and the row's action stay on a laptop's screen.
    { key: 'contact_id', label: 'Contact ID', cellSx: MONO, render: (c) => <Box component="span" sx={WRAPPED}>{c.contact_id}</Box> },
    {
      key: 'integration',
      label: 'Integration / Funnel',
      render: (c) => (
        <>
          {nameOf(c) ? <Box component="span" sx={WRAPPED}>{nameOf(c)}</Box> : (
            <Typography variant="body2" color="textSecondary" component="span">
              No Integration
            </Typography>
          )}
          <Typography variant="caption" color="textSecondary" sx={{ ...WRAPPED, display: 'block', fontFamily: MONO.fontFamily }}>
            {c.funnel_id}
          </Typography>
        </>
      ),
    },
    {
      key: 'status',
      label: 'Status',
      render: (c) => (
        <>
          <ContactStatusBadge status={c.status} />
          {c.test && <Chip size="small" color="secondary" label="Test" sx={{ ml: 0.5 }} data-testid="test-badge" />}
          {/* A test delivery's contact keeps its spec status, but no step ever texts it: its row says so. */}
          {c.test && (
            <Typography variant="caption" color="textSecondary" data-testid="never-texted" sx={{ display: 'block', mt: 0.5, maxWidth: 150 }}>
              Never texted: a test delivery
            </Typography>
          )}
          {!c.test && c.status === 'pending' && twilio?.row_reason && Date.parse(c.remind_at) <= Date.now() && (
            <Typography
              variant="caption"
              color="warning.main"
              data-testid="waiting-reason"
              sx={{ display: 'block', mt: 0.5, maxWidth: 150 }}
            >
              {twilio.row_reason}
            </Typography>
          )}
          {c.held_until && (
            <Typography
              variant="caption"
              color="warning.main"
              data-testid="held-until"
              sx={{ display: 'block', mt: 0.5, whiteSpace: 'nowrap' }}
            >
              Held until {formatTime(c.held_until, { zone: true })} ({c.held_by === 'frequency_cap' ? 'frequency cap' : 'blackout'})
            </Typography>
          )}
        </>
      ),
    },
    // Dates stacked (the time under the day) so the row's Status and action stay on a laptop's screen.
    { key: 'remind_at', label: 'Remind At', cellSx: { whiteSpace: 'nowrap' }, render: (c) => <DateTime value={c.remind_at} zone stacked /> },
    { key: 'created', label: 'Created', cellSx: { whiteSpace: 'nowrap' }, render: (c) => <DateTime value={c.created_at} stacked /> },
    {
      key: 'actions',
      label: 'Actions',
      align: 'right',
      render: (c) =>
        c.status !== 'purchased' && (
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
        ),
    },
  ];

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
            onClick={() => setConfirmingClear(true)}
            disabled={clearing}
          >
            Clear All Contacts
          </Button>
        }
      />
      <ProviderBanner provider="twilio" />
      <AdminOnlyNote reason={clearRefused} sx={{ mb: 2 }} />
      <ConfirmDialog
        open={confirmingClear}
        title="Clear all SMS contacts?"
        description={`This deletes all ${counts.total + counts.tests} SMS contacts and stops their reminders. It cannot be undone.`}
        confirmLabel="Clear All Contacts"
        destructive
        loading={clearing}
        onConfirm={() => void clearAll()}
        onClose={() => setConfirmingClear(false)}
      />
      <SummaryRow>
        <SummaryCard
          label="Total"
          value={counts.total}
          icon={<PeopleIcon />}
          tone="primary"
          hint={counts.tests > 0 ? `${counts.tests} test ${counts.tests === 1 ? 'delivery' : 'deliveries'} listed, not counted` : undefined}
        />
        <SummaryCard label="Pending" value={counts.pending} icon={<HourglassIcon />} tone="warning" />
        <SummaryCard label="Purchased" value={counts.purchased} icon={<CartIcon />} tone="success" />
        <SummaryCard label="SMS Sent" value={counts.sent} icon={<SmsIcon />} tone="info" />
      </SummaryRow>
      <SmsListTable
        ariaLabel="SMS contacts"
        nowrap
        columns={columns}
        list={contacts}
        rowTestId="contact-row"
        errorTitle="Could not load SMS contacts"
        empty={{
          icon: <PeopleIcon />,
          title: filtersActive ? 'No contacts match these filters' : 'No SMS contacts yet',
          description: filtersActive
            ? 'Change the search or the filters to see more contacts.'
            : 'Contacts appear here when a funnel posts to the SMS webhook.',
        }}
        paginationProps={paginationProps}
        filters={
          <>
            <SearchField value={search} onChange={setSearch} placeholder="Phone, contact ID, funnel or name" />
            <FilterSelect
              label="Status"
              value={status}
              onChange={setStatus}
              options={[
                { value: 'all', label: 'All Statuses' },
                ...SMS_CONTACT_STATUSES.map((s) => ({ value: s, label: contactStatusLabel(s) })),
              ]}
            />
            <FilterSelect
              label="Integration"
              value={integration}
              onChange={setIntegration}
              options={[
                { value: 'all', label: 'All Integrations' },
                { value: NO_INTEGRATION, label: 'No Integration' },
                ...(integrations.data ?? []).map((i) => ({ value: String(i.id), label: i.name })),
              ]}
            />
          </>
        }
      />
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

/** HH:MM in the browser's time, as the rest of the page shows times. */
