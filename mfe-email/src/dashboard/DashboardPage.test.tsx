import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import { SIGNED_IN, log, paged } from '../shared/testing';
import DashboardPage from './DashboardPage';

/** A one-row contacts page read for its total, `tests` of which are test deliveries. */
const counts = (total: number, tests = 0) => ({ json: { ...paged([], total).json, tests } });

const COUNTS = {
  'GET /api/contacts?page=1&pageSize=1': counts(12),
  'GET /api/contacts?page=1&pageSize=1&status=purchased': counts(3),
  'GET /api/contacts?page=1&pageSize=1&status=sent': counts(4),
};

function withData(extra = {}) {
  return mockApi({
    ...SIGNED_IN,
    ...COUNTS,
    'GET /api/email-logs?page=1&pageSize=3': paged([log(9), log(8), log(7)], 5),
    'GET /api/settings/reminder-delay': { json: {} },
    ...extra,
  });
}

async function openDialog() {
  fireEvent.click(await screen.findByRole('button', { name: 'Change Configuration' }));
  const dialog = await screen.findByRole('dialog', { name: 'Change Configuration' });
  return { dialog, input: within(dialog).getByLabelText(/Reminder Delay/) };
}

describe('Dashboard (spec §2, §5, §8)', () => {
  it('shows the three counts, the first 3 email logs and the delay (30 when the server gives none)', async () => {
    withData();
    renderWithProviders(<DashboardPage />);
    expect((await screen.findByLabelText('Total Contacts')).textContent).toBe('12');
    expect(screen.getByLabelText('Completed Purchases').textContent).toBe('3');
    expect(screen.getByLabelText('Abandoned Carts').textContent).toBe('4');
    const activity = await screen.findByRole('list', { name: 'Recent activity' });
    const items = within(activity).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0].textContent).toContain('person9@example.com');
    expect(items[0].textContent).toContain('Would Send');
    expect(items[0].textContent).toContain('Abandoned cart reminder would be sent to person9@example.com');
    expect(screen.getByTestId('reminder-delay-value').textContent).toBe('30 minutes');
    expect(screen.queryByText('No test data to clear. The database is empty.')).toBeNull();
  });

  it('counts no test delivery: each card is its total less the tests among it', async () => {
    withData({
      'GET /api/contacts?page=1&pageSize=1': counts(12, 2),
      'GET /api/contacts?page=1&pageSize=1&status=purchased': counts(3, 1),
    });
    renderWithProviders(<DashboardPage />);
    expect((await screen.findByLabelText('Total Contacts')).textContent).toBe('10');
    expect(screen.getByLabelText('Completed Purchases').textContent).toBe('2');
    expect(screen.getByLabelText('Abandoned Carts').textContent).toBe('4');
  });

  it("labels every recent entry 'Would Send' (section 2) and shows a suppression or a real send beside it", async () => {
    withData({
      'GET /api/email-logs?page=1&pageSize=3': paged(
        [
          { ...log(3), status: 'unsubscribed', message: 'Not sent: unsubscribed' },
          { ...log(2), status: 'sent', message: 'Sent' },
          log(1),
        ],
        3,
      ),
    });
    renderWithProviders(<DashboardPage />);
    const activity = await screen.findByRole('list', { name: 'Recent activity' });
    const items = within(activity).getAllByRole('listitem');
    expect(items.map((i) => i.textContent?.includes('Would Send'))).toEqual([true, true, true]);
    expect(within(activity).getAllByTestId('activity-outcome').map((c) => c.textContent)).toEqual(['Unsubscribed', 'Sent']);
  });

  it('empty: the activity text and the empty-database note', async () => {
    mockApi({
      ...SIGNED_IN,
      'GET /api/contacts?page=1&pageSize=1': counts(0),
      'GET /api/contacts?page=1&pageSize=1&status=purchased': counts(0),
      'GET /api/contacts?page=1&pageSize=1&status=sent': counts(0),
      'GET /api/email-logs?page=1&pageSize=3': paged([], 0),
      'GET /api/settings/reminder-delay': { json: { reminderDelay: 15 } },
    });
    renderWithProviders(<DashboardPage />);
    expect(await screen.findByText('No activity yet. Abandoned cart emails will appear here.')).toBeTruthy();
    expect(await screen.findByText('No test data to clear. The database is empty.')).toBeTruthy();
    expect(screen.getByTestId('reminder-delay-value').textContent).toBe('15 minutes');
  });

  it.each(['0', '721', '12.5', ''])("delay %p: 'Invalid value' toast and nothing sent", async (entry) => {
    const api = withData();
    renderWithProviders(<DashboardPage />);
    const { dialog, input } = await openDialog();
    fireEvent.change(input, { target: { value: entry } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const toast = await screen.findByTestId('toast');
    expect(toast.textContent).toContain('Invalid value');
    expect(toast.textContent).toContain('Reminder delay must be between 1 and 720 minutes');
    expect(api.callsTo('POST', '/api/settings/reminder-delay')).toHaveLength(0);
    expect(screen.getByRole('dialog', { name: 'Change Configuration' })).toBeTruthy();
  });

  it('a valid delay is saved, toasted and reloaded', async () => {
    const api = withData({
      'GET /api/settings/reminder-delay': [{ json: {} }, { json: { reminderDelay: 45 } }],
      'POST /api/settings/reminder-delay': { json: { success: true, reminderDelay: 45, message: 'x' } },
    });
    renderWithProviders(<DashboardPage />);
    const { dialog, input } = await openDialog();
    fireEvent.change(input, { target: { value: '45' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/settings/reminder-delay')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/settings/reminder-delay')[0].body).toEqual({ reminderDelay: 45 });
    const toast = await screen.findByTestId('toast');
    expect(toast.textContent).toContain('Configuration updated');
    expect(toast.textContent).toContain('Reminder delay set to 45 minutes.');
    await waitFor(() => expect(screen.getByTestId('reminder-delay-value').textContent).toBe('45 minutes'));
  });

  it("a refused save: 'Failed to update configuration'", async () => {
    withData({ 'POST /api/settings/reminder-delay': { status: 500, json: { error: 'disk full' } } });
    renderWithProviders(<DashboardPage />);
    const { dialog, input } = await openDialog();
    fireEvent.change(input, { target: { value: '60' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const toast = await screen.findByTestId('toast');
    expect(toast.textContent).toContain('Failed to update configuration');
    expect(toast.textContent).toContain('disk full');
  });

  it('Process Missed Emails: the call, the toast, then contacts and logs reloaded', async () => {
    const api = withData({
      'POST /api/test/check-abandoned-carts': { json: { success: true, message: 'ok', processed: 2 } },
    });
    renderWithProviders(<DashboardPage />);
    await screen.findByRole('list', { name: 'Recent activity' });
    expect(screen.getByText(/pending contacts whose reminder time has passed/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Process Missed Emails' }));
    const toast = await screen.findByTestId('toast');
    expect(toast.textContent).toContain('Emails Processed');
    expect(toast.textContent).toContain('Abandoned cart check has been triggered and emails have been processed.');
    expect(toast.textContent).toContain('2 reminders processed.');
    await waitFor(() => expect(api.callsTo('GET', '/api/email-logs?page=1&pageSize=3')).toHaveLength(2));
    expect(api.callsTo('GET', '/api/contacts?page=1&pageSize=1&status=sent')).toHaveLength(2);
  });

  it('Process Missed Emails with nothing due says so', async () => {
    withData({ 'POST /api/test/check-abandoned-carts': { json: { success: true, message: 'ok', processed: 0 } } });
    renderWithProviders(<DashboardPage />);
    await screen.findByRole('list', { name: 'Recent activity' });
    fireEvent.click(screen.getByRole('button', { name: 'Process Missed Emails' }));
    const toast = await screen.findByTestId('toast');
    expect(toast.textContent).toContain('No reminder was due.');
    expect(toast.textContent).not.toContain('reminders processed');
  });

  it("Process Missed Emails failure: 'Failed to process emails:' and the message", async () => {
    withData({ 'POST /api/test/check-abandoned-carts': { status: 500, json: { error: 'sweep broke' } } });
    renderWithProviders(<DashboardPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Process Missed Emails' }));
    expect((await screen.findByTestId('toast')).textContent).toContain('Failed to process emails: sweep broke');
  });

  it('Clear All Test Data asks first, then clears and reloads (the revenue panel too)', async () => {
    const api = withData({ 'POST /api/test/clear-data': { json: { success: true, message: 'Cleared 12 contacts' } } });
    const revenueLoads = () => api.calls.filter((c) => c.method === 'GET' && c.path.startsWith('/api/revenue/summary')).length;
    renderWithProviders(<DashboardPage />);
    await waitFor(() => expect(revenueLoads()).toBe(1));
    fireEvent.click(await screen.findByRole('button', { name: 'Clear All Test Data' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(
      'Are you sure you want to clear all test data? This will remove all contacts, email logs, and webhook events.',
    );
    expect(api.callsTo('POST', '/api/test/clear-data')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear All Test Data' }));
    expect((await screen.findByTestId('toast')).textContent).toContain('Data Cleared');
    expect(api.callsTo('POST', '/api/test/clear-data')).toHaveLength(1);
    await waitFor(() => expect(api.callsTo('GET', '/api/contacts?page=1&pageSize=1')).toHaveLength(2));
    await waitFor(() => expect(revenueLoads()).toBe(2));
  });

  it("Clear All Test Data failure: 'Failed to clear data:' and the message", async () => {
    withData({ 'POST /api/test/clear-data': { status: 503, text: '' } });
    renderWithProviders(<DashboardPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Clear All Test Data' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clear All Test Data' }));
    expect((await screen.findByTestId('toast')).textContent).toContain(
      'Failed to clear data: 503: Service Unavailable',
    );
  });

  it('a failed load shows the error card with the message', async () => {
    withData({ 'GET /api/contacts?page=1&pageSize=1': { status: 500, json: { error: 'db down' } } });
    renderWithProviders(<DashboardPage />);
    const card = await screen.findByRole('alert');
    expect(card.textContent).toContain('Error loading contacts');
    expect(card.textContent).toContain('db down');
  });
});
