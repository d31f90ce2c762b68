import { render, screen, waitFor, within } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import SmsStatsPage from './SmsStatsPage';
import { DuplicatePhones } from './IntegrationStatsCard';
import { choose, click, integrationStats, signedIn, statsResponse } from '../test/fixtures';

// MUI X Charts clones its state with structuredClone, which jsdom's window lacks (Node has it).
if (typeof globalThis.structuredClone === 'undefined') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const v8 = require('node:v8') as typeof import('node:v8');
  globalThis.structuredClone = <T,>(value: T): T => v8.deserialize(v8.serialize(value)) as T;
}

const TODAY = '/api/sms-stats-simple?date_range=today';

describe('/sms-stats (spec sections 2, 7, 8, 9)', () => {
  it('loads today for all integrations (integration_id left out) and rounds the delivery rate to a whole percent', async () => {
    const api = mockApi({
      ...signedIn,
      [`GET ${TODAY}`]: {
        json: statsResponse([
          integrationStats({ integration_id: 1, integration_name: 'Alpha', total_sms_sent: 3, delivered_count: 2 }),
          integrationStats({ integration_id: 2, integration_name: 'Beta', total_sms_sent: 8, delivered_count: 1 }),
          integrationStats({ integration_id: 3, integration_name: 'Gamma', total_sms_sent: 0, delivered_count: 0 }),
        ]),
      },
    });
    renderWithProviders(<SmsStatsPage />);
    const alpha = await screen.findByRole('article', { name: 'Alpha' });
    expect(api.callsTo('GET', TODAY)).toHaveLength(1);
    expect(within(alpha).getByTestId('delivery-rate').textContent).toBe('67%'); // 2/3 = 66.7
    expect(within(screen.getByRole('article', { name: 'Beta' })).getByTestId('delivery-rate').textContent).toBe('13%'); // 1/8 = 12.5
    expect(within(screen.getByRole('article', { name: 'Gamma' })).getByTestId('delivery-rate').textContent).toBe('0%');
    // Headline: 3 delivered of 11 sent = 27.3%.
    expect(within(screen.getByTestId('summary-Delivered')).getByText('27% delivery rate')).toBeTruthy();
    expect(within(screen.getByTestId('summary-Total SMS Sent')).getByText('11')).toBeTruthy();
    // One stated base for every percentage: the 11 sent, as the delivery rate's.
    expect(screen.getByTestId('breakdown-base').textContent).toBe('Percentages are of the 11 messages sent.');
    expect(screen.getByRole('progressbar', { name: 'Delivered' }).getAttribute('aria-valuenow')).toBe('27');
  });

  it("lists at most 5 duplicate phones, then '+N more'", async () => {
    const phones = Array.from({ length: 8 }, (_, i) => `+1555000000${i}`);
    render(<DuplicatePhones phones={phones} />);
    const list = screen.getByTestId('duplicate-phones');
    for (const p of phones.slice(0, 5)) expect(within(list).getByText(p)).toBeTruthy();
    expect(within(list).queryByText(phones[5]!)).toBeNull();
    expect(within(list).getByText('+3 more')).toBeTruthy();
  });

  it('sends the chosen range and integration, and Refresh loads again', async () => {
    const api = mockApi({
      ...signedIn,
      [`GET ${TODAY}`]: { json: statsResponse([integrationStats({ integration_id: 4, integration_name: 'Delta' })]) },
      'GET /api/sms-stats-simple?date_range=last_7_days': {
        json: statsResponse([integrationStats({ integration_id: 4, integration_name: 'Delta' })]),
      },
      'GET /api/sms-stats-simple?date_range=last_7_days&integration_id=4': {
        json: statsResponse([integrationStats({ integration_id: 4, integration_name: 'Delta' })]),
      },
    });
    renderWithProviders(<SmsStatsPage />);
    await screen.findByRole('article', { name: 'Delta' });
    await choose('Date Range', 'Last 7 days');
    await waitFor(() => expect(api.callsTo('GET', '/api/sms-stats-simple?date_range=last_7_days')).toHaveLength(1));
    await choose('Integration', 'Delta');
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/sms-stats-simple?date_range=last_7_days&integration_id=4')).toHaveLength(1),
    );
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Refresh' }) as HTMLButtonElement).disabled).toBe(false),
    );
    await click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/sms-stats-simple?date_range=last_7_days&integration_id=4')).toHaveLength(2),
    );
  });

  it("shows 'Error loading SMS statistics: {message}' with Retry, and the toast 'Failed to fetch SMS stats'", async () => {
    const api = mockApi({
      ...signedIn,
      [`GET ${TODAY}`]: [
        { status: 500, json: { error: 'Database unavailable' } },
        { json: statsResponse([integrationStats({ integration_name: 'Alpha' })]) },
      ],
    });
    renderWithProviders(<SmsStatsPage />);
    expect(await screen.findByText('Error loading SMS statistics: Database unavailable')).toBeTruthy();
    expect(screen.getByText('Failed to fetch SMS stats')).toBeTruthy();
    await click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('article', { name: 'Alpha' })).toBeTruthy();
    expect(api.callsTo('GET', TODAY)).toHaveLength(2);
    expect(screen.queryByText(/^Error loading SMS statistics/)).toBeNull();
  });
});
