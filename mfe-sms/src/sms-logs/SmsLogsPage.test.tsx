import { screen, waitFor, within } from '@testing-library/react';
import { formatTime } from '@act/ui-kit';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import { smsLogStatusGroup, type SmsLog } from '@act/contracts/src/sms-api';
import SmsLogsPage from './SmsLogsPage';
import { change, choose, log, pagedList, queriesTo, searchHits, signedIn } from '../test/fixtures';

const longMessage = 'M'.repeat(50) + 'TAIL-OF-THE-MESSAGE';
const longError = 'E'.repeat(30) + 'TAIL-OF-THE-ERROR';
const logs = [
  log(1, { status: 'sent', message: longMessage }),
  log(2, { status: 'delivered', message: 'm'.repeat(50) }),
  log(3, { status: 'failed', error_message: longError }),
  log(4, { status: 'undelivered', error_message: 'e'.repeat(30) }),
  log(5, { status: 'pending' }),
  log(6, { status: 'queued' }),
  log(7, { status: 'queued' }),
  log(8, { status: 'skipped_duplicate' }),
];

/** svc-sms's paged logs: the status filter is a group (failed + undelivered, pending + queued). */
const logsServer = (rows: readonly SmsLog[]) =>
  pagedList(() => rows, {
    matches: (l, q) =>
      (!q.get('status') || smsLogStatusGroup(l.status) === q.get('status')) &&
      searchHits(q, [l.phone, l.contact_id, l.message, l.message_sid, l.error_message]),
    summary: (all) => ({
      total: all.length,
      sent: all.filter((l) => smsLogStatusGroup(l.status) === 'sent').length,
      delivered: all.filter((l) => smsLogStatusGroup(l.status) === 'delivered').length,
      failed: all.filter((l) => smsLogStatusGroup(l.status) === 'failed').length,
      pending: all.filter((l) => smsLogStatusGroup(l.status) === 'queued').length,
    }),
  });

describe('/sms-logs (spec sections 2, 4, 9)', () => {
  it('shows a step held by the blackout as held, with the time it goes out', async () => {
    const until = '2026-11-26T07:30:00.000Z';
    mockApi({
      ...signedIn,
      'GET /api/sms-logs?': {
        json: {
          items: [log(9, { status: 'held_blackout', message: 'Held by the blackout window: nothing sent yet', held_until: until, template_id: null })],
          total: 1,
          page: 1,
          pageSize: 50,
          summary: { total: 1, sent: 0, delivered: 0, failed: 0, pending: 0 },
        },
      },
    });
    renderWithProviders(<SmsLogsPage />);
    const row = within((await screen.findAllByTestId('log-row'))[0]!);
    expect(row.getByText('Held (blackout)')).toBeTruthy();
    expect(row.getByText(`Held until ${formatTime(until, { zone: true })} (blackout)`)).toBeTruthy();
  });

  it("shows the server's five cards, counted over every log rather than the page", async () => {
    mockApi({
      ...signedIn,
      'GET /api/sms-logs?': {
        json: {
          items: logs,
          total: 61_000,
          page: 1,
          pageSize: 50,
          summary: { total: 61_000, sent: 30_000, delivered: 20_000, failed: 7_000, pending: 4_000 },
        },
      },
    });
    renderWithProviders(<SmsLogsPage />);
    await screen.findAllByTestId('log-row');
    const card = (label: string) => within(screen.getByTestId(`summary-${label}`));
    expect(card('Total').getByText('61000')).toBeTruthy();
    expect(card('Sent').getByText('30000')).toBeTruthy();
    expect(card('Delivered').getByText('20000')).toBeTruthy();
    expect(card('Failed').getByText('7000')).toBeTruthy();
    expect(card('Pending').getByText('4000')).toBeTruthy();
    expect(screen.getByText('Showing 1 to 50 of 61000 results')).toBeTruthy();
  });

  it('shows the five cards, the message cut at 50 and the error at 30 characters', async () => {
    mockApi({ ...signedIn, 'GET /api/sms-logs?': logsServer(logs) });
    renderWithProviders(<SmsLogsPage />);
    await screen.findAllByTestId('log-row');
    const card = (label: string) => within(screen.getByTestId(`summary-${label}`));
    expect(card('Total').getByText('8')).toBeTruthy();
    expect(card('Sent').getByText('1')).toBeTruthy();
    expect(card('Delivered').getByText('1')).toBeTruthy();
    expect(card('Failed').getByText('2')).toBeTruthy();
    expect(card('Pending').getByText('3')).toBeTruthy();

    expect(screen.getByText(`${'M'.repeat(50)}...`)).toBeTruthy();
    expect(screen.queryByText(longMessage)).toBeNull();
    expect(screen.getByText('m'.repeat(50))).toBeTruthy();
    expect(screen.getByText(`${'E'.repeat(30)}...`)).toBeTruthy();
    expect(screen.getByText('e'.repeat(30))).toBeTruthy();
    // Undelivered is shown as Failed.
    expect(screen.getAllByText('Failed').length).toBeGreaterThanOrEqual(3);
  });

  it('filters by status group and by search, on the server', async () => {
    const api = mockApi({ ...signedIn, 'GET /api/sms-logs?': logsServer(logs) });
    renderWithProviders(<SmsLogsPage />);
    await screen.findAllByTestId('log-row');
    await choose('Status', 'Pending');
    await waitFor(() => expect(screen.getAllByTestId('log-row')).toHaveLength(3));
    await choose('Status', 'Failed');
    await waitFor(() => expect(screen.getAllByTestId('log-row')).toHaveLength(2));
    expect(screen.getByText('Showing 1 to 2 of 2 results')).toBeTruthy();
    await change(screen.getByLabelText('Search'), 'TAIL-OF-THE-ERROR');
    await waitFor(() => expect(screen.getAllByTestId('log-row')).toHaveLength(1));
    expect(queriesTo(api.calls, '/api/sms-logs').map((q) => q.toString())).toEqual([
      'page=1&pageSize=50',
      'page=1&pageSize=50&status=queued',
      'page=1&pageSize=50&status=failed',
      'page=1&pageSize=50&search=TAIL-OF-THE-ERROR&status=failed',
    ]);
    // The cards stay over every log whatever the filters.
    expect(within(screen.getByTestId('summary-Total')).getByText('8')).toBeTruthy();
    await change(screen.getByLabelText('Search'), 'no such text');
    expect(await screen.findByText('No messages match these filters')).toBeTruthy();
  });
});
