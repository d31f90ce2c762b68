import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import { SIGNED_IN, paged } from '../shared/testing';
import SettingsPage from './SettingsPage';

const TIMING = { quiet_hours_enabled: false, quiet_start_hour: 22, quiet_end_hour: 8, frequency_cap_hours: null };

function api(extra = {}, counts = { contacts: 0, logs: 0 }) {
  return mockApi({
    ...SIGNED_IN,
    'GET /api/settings/reminder-delay': { json: { reminderDelay: 30 } },
    'GET /api/settings/timing': { json: TIMING },
    'GET /api/contacts?page=1&pageSize=1': paged([], counts.contacts),
    'GET /api/email-logs?page=1&pageSize=3': paged([], counts.logs),
    ...extra,
  });
}

describe('/settings (spec §2, §5, §8)', () => {
  it("an invalid delay gives 'Invalid value' and sends nothing; a valid one is saved", async () => {
    const calls = api({
      'POST /api/settings/reminder-delay': { json: { success: true, reminderDelay: 120, message: '' } },
    });
    renderWithProviders(<SettingsPage />);
    expect(screen.getByRole('heading', { name: 'Abandoned Cart Configuration' })).toBeTruthy();
    const input = (await screen.findByLabelText(/Reminder Delay/)) as HTMLInputElement;
    expect(input.value).toBe('30');
    fireEvent.change(input, { target: { value: '800' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Configuration' }));
    const toast = await screen.findByTestId('toast');
    expect(toast.textContent).toContain('Invalid value');
    expect(toast.textContent).toContain('Reminder delay must be between 1 and 720 minutes');
    expect(calls.callsTo('POST', '/api/settings/reminder-delay')).toHaveLength(0);

    fireEvent.change(input, { target: { value: '120' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Configuration' }));
    await waitFor(() => expect(calls.callsTo('POST', '/api/settings/reminder-delay')).toHaveLength(1));
    expect(calls.callsTo('POST', '/api/settings/reminder-delay')[0].body).toEqual({ reminderDelay: 120 });
    await waitFor(() =>
      expect(screen.getByTestId('toast').textContent).toContain('Reminder delay set to 120 minutes.'),
    );
  });

  it('Admin Tools: the empty note when there are no contacts and no logs, and Clear All Test Data', async () => {
    const calls = api({ 'POST /api/test/clear-data': { json: { success: true, message: 'done' } } });
    renderWithProviders(<SettingsPage />);
    expect(await screen.findByText('No test data to clear. The database is empty.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear All Test Data' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clear All Test Data' }));
    expect((await screen.findByTestId('toast')).textContent).toContain('Data Cleared');
    expect(calls.callsTo('POST', '/api/test/clear-data')).toHaveLength(1);
  });

  it('quiet hours and frequency cap: a cap out of range is refused on the form; a valid one is saved with the hours', async () => {
    const saved = { quiet_hours_enabled: true, quiet_start_hour: 21, quiet_end_hour: 8, frequency_cap_hours: 6 };
    const calls = api({ 'PUT /api/settings/timing': { json: saved } });
    renderWithProviders(<SettingsPage />);
    const form = await screen.findByRole('form', { name: 'Quiet hours and frequency cap' });
    fireEvent.click(within(form).getByRole('switch', { name: 'Enable email quiet hours' }));
    fireEvent.mouseDown(within(form).getByRole('combobox', { name: 'Quiet from' }));
    fireEvent.click(await screen.findByRole('option', { name: '21:00' }));
    const cap = within(form).getByRole('spinbutton', { name: 'Frequency cap (hours between messages)' });
    fireEvent.change(cap, { target: { value: '500' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save Timing' }));
    expect(await within(form).findByText('Frequency cap must be a whole number of hours from 1 to 168, or empty for off')).toBeTruthy();
    expect(calls.callsTo('PUT', '/api/settings/timing')).toHaveLength(0);
    fireEvent.change(cap, { target: { value: '6' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save Timing' }));
    await waitFor(() => expect(calls.callsTo('PUT', '/api/settings/timing')).toHaveLength(1));
    expect(calls.callsTo('PUT', '/api/settings/timing')[0].body).toEqual(saved);
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toContain('Quiet hours and frequency cap saved.'));
  });

  it('no empty note while there is data', async () => {
    api({}, { contacts: 0, logs: 2 });
    renderWithProviders(<SettingsPage />);
    await screen.findByRole('button', { name: 'Clear All Test Data' });
    await waitFor(() => expect(screen.queryByText('No test data to clear. The database is empty.')).toBeNull());
  });
});
