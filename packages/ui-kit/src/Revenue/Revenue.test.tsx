import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { RevenueSummary } from '@act/contracts/src/revenue-api';
import { mockApi, renderWithProviders } from '../testing';
import { RevenuePanel } from '.';

// MUI X Charts clones its state with structuredClone, which jsdom's window lacks (Node has it).
if (typeof globalThis.structuredClone === 'undefined') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const v8 = require('node:v8') as typeof import('node:v8');
  globalThis.structuredClone = <T,>(value: T): T => v8.deserialize(v8.serialize(value)) as T;
}

const summary: RevenueSummary = {
  from: '2026-11-01',
  to: '2026-11-02',
  model: 'last',
  window_days: 7,
  totals: { purchases: 3, recovered: 2, organic: 1, by_channel: { email: 1, sms: 1 }, revenue: [{ currency: 'EUR', recovered: 80, organic: 0 }, { currency: 'USD', recovered: 120, organic: 30 }] },
  series: [
    { date: '2026-11-01', recovered: 0, organic: 0, email: 0, sms: 0, revenue: [] },
    { date: '2026-11-02', recovered: 2, organic: 1, email: 1, sms: 1, revenue: [{ currency: 'USD', email: 120, sms: 0, organic: 30 }] },
  ],
  integrations: [{ funnel_id: 'f', integration_id: 4, name: 'Shop', purchases: 3, recovered: 2, reminded: 4, recovery_rate: 0.5, revenue: [{ currency: 'USD', recovered: 120, organic: 30 }] }],
  campaigns: [],
  templates: [{ channel: 'sms', campaign_id: 2, template_id: 21, step: 2, recovered: 1, reminded: null, recovery_rate: null, revenue: [{ currency: 'EUR', amount: 80 }] }],
  funnel: { contacts: 10, reminded: 4, clicked: null, purchased: 3 },
  simulated: { recovered: 0, by_channel: { email: 0, sms: 0 }, revenue: [] },
  sending_simulated: false,
  channel: null,
};

describe('RevenuePanel', () => {
  it('shows the figures per currency and the funnel, and asks again for another period, model and integration', async () => {
    const api = mockApi({ 'GET /api/sms/revenue/summary?': { json: summary } });
    const last = () => api.calls.filter((c) => c.path.startsWith('/api/sms/revenue')).at(-1)?.path;
    renderWithProviders(<RevenuePanel basePath="/api/sms/revenue" integrations={[{ id: 4, name: 'Shop' }]} />);
    expect((await screen.findByTestId('revenue-recovered')).textContent).toBe('€80.00 · $120.00');
    expect((screen.getByTestId('revenue-recovered-count')).textContent).toBe('2 of 3');
    expect((screen.getByTestId('revenue-rate')).textContent).toBe('75%');
    expect((screen.getByTestId('revenue-organic')).textContent).toBe('$30.00');
    screen.getByText('Best: SMS template 21, step 2');
    expect((screen.getByTestId('funnel-clicked')).textContent).toBe('Not reported');
    expect(last()).toBe('/api/sms/revenue/summary?days=30&model=last');

    fireEvent.click(screen.getByRole('button', { name: '90 days' }));
    await waitFor(() => expect(last()).toBe('/api/sms/revenue/summary?days=90&model=last'));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Credit' }));
    fireEvent.click(await screen.findByRole('option', { name: 'First touch' }));
    await waitFor(() => expect(last()).toBe('/api/sms/revenue/summary?days=90&model=first'));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Integration' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Shop' }));
    await waitFor(() => expect(last()).toBe('/api/sms/revenue/summary?days=90&model=first&integration_id=4'));
  });

  it('links each CSV export to the same query', async () => {
    mockApi({ 'GET /api/revenue/summary?': { json: summary } });
    renderWithProviders(<RevenuePanel basePath="/api/revenue" integrationId={7} />);
    await screen.findByTestId('revenue-recovered');
    expect(screen.queryByRole('combobox', { name: 'Integration' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect((await screen.findByRole('menuitem', { name: 'Per template / step' })).getAttribute('href')).toBe('/api/revenue/summary?days=30&model=last&integration_id=7&format=csv&table=templates');
  });

  it('says what failed', async () => {
    mockApi({ 'GET /api/revenue/summary?': { status: 400, json: { error: 'days must be between 1 and 366' } } });
    renderWithProviders(<RevenuePanel basePath="/api/revenue" />);
    await screen.findByText(/Could not load recovered revenue: days must be between 1 and 366/);
  });
});
