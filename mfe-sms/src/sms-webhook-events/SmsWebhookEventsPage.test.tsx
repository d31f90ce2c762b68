import { screen, waitFor, within } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import type { SmsWebhookEvent } from '@act/contracts/src/sms-api';
import SmsWebhookEventsPage from './SmsWebhookEventsPage';
import { change, choose, click, event, pagedList, queriesTo, searchHits, signedIn } from '../test/fixtures';

const bigPayload = JSON.stringify({
  event: 'contact_created',
  funnel_id: 'f-1',
  contact: { id: 'c-1', phone: '+15551230000', note: 'x'.repeat(200) },
});
const events = [
  event(1, { type: 'contact', payload: bigPayload }),
  event(2, { type: 'purchase', payload: '{"event":"purchase_created"}' }),
  event(3, { type: 'sms_delivery', payload: '{"MessageStatus":"delivered"}' }),
  event(4, { type: 'sms_reply', payload: '{"Body":"STOP"}' }),
  event(5, { type: 'handshake', payload: '{"event":"handshake"}' }),
];

/** svc-sms's paged webhook events: type filter, search on type and payload, a count per type over every event. */
const eventsServer = (rows: readonly SmsWebhookEvent[]) =>
  pagedList(() => rows, {
    matches: (e, q) => (!q.get('type') || e.type === q.get('type')) && searchHits(q, [e.type, e.payload]),
    summary: (all) => {
      const byType: Record<string, number> = {};
      for (const e of all) byType[e.type] = (byType[e.type] ?? 0) + 1;
      return { total: all.length, by_type: byType };
    },
  });
const routes = { ...signedIn, 'GET /api/sms-webhook-events?': eventsServer(events) };

describe('/sms-webhook-events (spec sections 2, 4, 9)', () => {
  it('counts per type, gives unknown types a generic badge and previews payloads at 100 characters', async () => {
    mockApi(routes);
    renderWithProviders(<SmsWebhookEventsPage />);
    await screen.findAllByTestId('event-row');
    const card = (label: string) => within(screen.getByTestId(`summary-${label}`));
    expect(card('Total').getByText('5')).toBeTruthy();
    for (const label of ['Contact', 'Purchase', 'SMS Delivery', 'SMS Reply'])
      expect(card(label).getByText('1')).toBeTruthy();
    expect(screen.getByText(`${bigPayload.slice(0, 100)}...`)).toBeTruthy();
    expect(screen.getByText('handshake').closest('.MuiChip-outlined')).toBeTruthy();
  });

  it('filters by type and searches the payloads, on the server', async () => {
    const api = mockApi(routes);
    renderWithProviders(<SmsWebhookEventsPage />);
    await screen.findAllByTestId('event-row');
    await choose('Type', 'SMS Reply');
    await waitFor(() => expect(screen.getAllByTestId('event-row')).toHaveLength(1));
    expect(screen.getByText('{"Body":"STOP"}')).toBeTruthy();
    // A type seen among the events but without a card of its own can be filtered too.
    await choose('Type', 'handshake');
    await waitFor(() => expect(screen.getAllByTestId('event-row')).toHaveLength(1));
    await choose('Type', 'All Types');
    await change(screen.getByLabelText('Search'), 'delivered');
    await waitFor(() => expect(screen.getAllByTestId('event-row')).toHaveLength(1));
    expect(queriesTo(api.calls, '/api/sms-webhook-events').map((q) => q.toString())).toEqual([
      'page=1&pageSize=50',
      'page=1&pageSize=50&type=sms_reply',
      'page=1&pageSize=50&type=handshake',
      'page=1&pageSize=50&search=delivered',
    ]);
  });

  it('shows the total over every event, with pages beyond the first', async () => {
    mockApi({
      ...signedIn,
      'GET /api/sms-webhook-events?': {
        json: {
          items: events,
          total: 52_000,
          page: 1,
          pageSize: 50,
          summary: { total: 52_000, by_type: { contact: 40_000, sms_reply: 12_000 } },
        },
      },
    });
    renderWithProviders(<SmsWebhookEventsPage />);
    await screen.findAllByTestId('event-row');
    expect(within(screen.getByTestId('summary-Total')).getByText('52000')).toBeTruthy();
    expect(within(screen.getByTestId('summary-Contact')).getByText('40000')).toBeTruthy();
    expect(within(screen.getByTestId('summary-Purchase')).getByText('0')).toBeTruthy();
    expect(within(screen.getByTestId('summary-SMS Reply')).getByText('12000')).toBeTruthy();
    expect(screen.getByText('Showing 1 to 50 of 52000 results')).toBeTruthy();
  });

  it('View shows the whole payload pretty-printed', async () => {
    mockApi(routes);
    renderWithProviders(<SmsWebhookEventsPage />);
    await screen.findAllByTestId('event-row');
    await click(screen.getByRole('button', { name: 'View event 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Webhook Event #1' });
    expect(within(dialog).getByTestId('payload-json').textContent).toBe(
      JSON.stringify(JSON.parse(bigPayload), null, 2),
    );
  });
});
