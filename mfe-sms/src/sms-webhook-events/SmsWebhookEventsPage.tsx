import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Box, Button, Link } from '@mui/material';
import InboxIcon from '@mui/icons-material/InboxOutlined';
import PersonAddIcon from '@mui/icons-material/PersonAddAltOutlined';
import CartIcon from '@mui/icons-material/ShoppingCartCheckoutOutlined';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import ReplyIcon from '@mui/icons-material/ReplyOutlined';
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import { DateTime, PageHeader, type DataColumn } from '@act/ui-kit';
import { DeliveryChips, DeliveryFilters, type DeliveryFilterValues } from '@act/ui-kit/src/WebhookSigning';
import type { SmsWebhookEvent, SmsWebhookEventPage } from '@act/contracts/src/sms-api';
import { listPageKey, SMS_KEYS } from '../shared/keys';
import { EVENT_PAYLOAD_PREVIEW, truncate } from '../shared/format';
import { FilterSelect, SmsListTable } from '../shared/SmsListTable';
import { useDebounced, useServerList, useServerPaging } from '../shared/paging';
import { SearchField, SummaryCard, SummaryRow } from '../shared/ui';
import { EventTypeBadge, eventTypeLabel, KNOWN_EVENT_TYPES } from '../shared/status';
import { PayloadDialog } from './PayloadDialog';

/**
 * /sms-webhook-events: every inbound delivery (funnel and Twilio) as received (spec section 2). svc-sms pages,
 * filters, searches (type and payload) and counts every event per type:
 * GET /api/sms-webhook-events?page=&pageSize=&search=&type=&source=&verification=&outcome=.
 */

export default function SmsWebhookEventsPage() {
  const [search, setSearch] = useState('');
  const [type, setType] = useState('all');
  const [viewing, setViewing] = useState<SmsWebhookEvent | null>(null);
  const [delivery, setDelivery] = useState<DeliveryFilterValues>({});
  const searched = useDebounced(search.trim());
  const deliveryKey = JSON.stringify(delivery);
  const paging = useServerPaging([searched, type, deliveryKey]);
  const events = useServerList<SmsWebhookEventPage>(
    listPageKey(SMS_KEYS.events, {
      page: paging.page,
      pageSize: paging.pageSize,
      search: searched,
      type: type === 'all' ? undefined : type,
      source: delivery.source || undefined,
      verification: delivery.verification || undefined,
      outcome: delivery.outcome || undefined,
    }),
    [searched, type, deliveryKey],
    search.trim() !== searched,
  );
  const paginationProps = paging.paginationProps(events.data?.total);
  const total = events.summary?.total ?? 0;
  const counts: Record<string, number | undefined> = events.summary?.by_type ?? {};
  // Known types first, then any other type seen (handshake, invalid, ...), so every event can be filtered.
  const typeOptions = useMemo(
    () => [
      ...KNOWN_EVENT_TYPES,
      ...Object.keys(counts)
        .filter((t) => !KNOWN_EVENT_TYPES.includes(t))
        .sort(),
    ],
    [counts],
  );

  const filtersActive = searched !== '' || type !== 'all' || Object.values(delivery).some(Boolean);

  const columns: DataColumn<SmsWebhookEvent>[] = [
    { key: 'id', label: 'ID', cellSx: { color: 'text.secondary' }, render: (e) => e.id },
    { key: 'type', label: 'Type', render: (e) => <EventTypeBadge type={e.type} /> },
    {
      key: 'delivery',
      label: 'Delivery',
      testId: 'delivery-cell',
      render: (e) => (
        <>
          <DeliveryChips event={e} />
          {typeof e.contact_ref === 'number' && (
            <Link component={RouterLink} to={`/sms-contacts/${e.contact_ref}`} variant="body2" sx={{ display: 'inline-block', mt: 0.5 }} data-testid="event-contact-link">
              Contact page
            </Link>
          )}
        </>
      ),
    },
    {
      key: 'payload',
      label: 'Payload',
      cellSx: {
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
        fontSize: 12,
        color: 'text.secondary',
        maxWidth: 520,
        overflowWrap: 'anywhere',
      },
      testId: 'payload-cell',
      render: (e) => truncate(e.payload, EVENT_PAYLOAD_PREVIEW),
    },
    {
      key: 'received',
      label: 'Received',
      cellSx: { whiteSpace: 'nowrap' },
      render: (e) => <DateTime value={e.timestamp} />,
    },
    {
      key: 'actions',
      label: 'Actions',
      align: 'right',
      render: (e) => (
        <Button
          size="small"
          startIcon={<VisibilityIcon />}
          onClick={() => setViewing(e)}
          aria-label={`View event ${e.id}`}
        >
          View
        </Button>
      ),
    },
  ];

  return (
    <Box>
      <PageHeader title="SMS Webhook Events" subtitle="Funnel webhooks and Twilio callbacks exactly as they arrived." />
      <SummaryRow columns={5}>
        <SummaryCard label="Total" value={total} icon={<InboxIcon />} tone="primary" />
        <SummaryCard label="Contact" value={counts.contact ?? 0} icon={<PersonAddIcon />} tone="primary" />
        <SummaryCard label="Purchase" value={counts.purchase ?? 0} icon={<CartIcon />} tone="success" />
        <SummaryCard label="SMS Delivery" value={counts.sms_delivery ?? 0} icon={<DoneAllIcon />} tone="info" />
        <SummaryCard label="SMS Reply" value={counts.sms_reply ?? 0} icon={<ReplyIcon />} tone="secondary" />
      </SummaryRow>
      <SmsListTable
        ariaLabel="SMS webhook events"
        columns={columns}
        list={events}
        rowTestId="event-row"
        errorTitle="Could not load SMS webhook events"
        empty={{
          icon: <InboxIcon />,
          title: filtersActive ? 'No events match these filters' : 'No SMS webhook events yet',
          description: filtersActive
            ? 'Change the search or the type filter.'
            : 'Funnel webhooks and Twilio callbacks appear here as they arrive.',
        }}
        paginationProps={paginationProps}
        filters={
          <>
            <SearchField value={search} onChange={setSearch} placeholder="Search the payloads" />
            <FilterSelect
              label="Type"
              value={type}
              onChange={setType}
              options={[
                { value: 'all', label: 'All Types' },
                ...typeOptions.map((t) => ({ value: t, label: eventTypeLabel(t) })),
              ]}
            />
            <DeliveryFilters value={delivery} onChange={setDelivery} />
          </>
        }
      />
      <PayloadDialog event={viewing} onClose={() => setViewing(null)} />
    </Box>
  );
}
