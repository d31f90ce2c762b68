import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { RevenuePurchasesPage, RevenueSummary } from '@act/contracts/src/revenue-api';
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
    const api = mockApi({ 'GET /api/sms/revenue/summary?': { json: summary }, 'GET /api/sms/revenue/purchases?': { json: { purchases: [], next: null } } });
    const last = () => api.calls.filter((c) => c.path.startsWith('/api/sms/revenue/summary')).at(-1)?.path;
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

  it('lists the newest recovered purchases with their contact page, the credited reminder and the recovered checkout, a page at a time', async () => {
    const row = (n: number, over: Partial<RevenuePurchasesPage['purchases'][number]> = {}): RevenuePurchasesPage['purchases'][number] => ({
      purchased_at: `2026-11-2${n}T10:00:00.000Z`,
      contact: { id: 40 + n, contact_id: `c${n}`, email: `shopper${n}@example.com`, phone: null },
      integration: { id: 4, name: 'Shop' },
      amount: 79.2,
      currency: 'EUR',
      credited: { channel: 'email', campaign_id: 3, template_id: 11, step: 1, variant: null, sent_at: `2026-11-2${n}T08:00:00.000Z` },
      recovered_from: null,
      ...over,
    });
    const first: RevenuePurchasesPage = { purchases: [row(7, { recovered_from: 'cs_test_a1b2' }), row(6, { contact: { id: null, contact_id: null, email: null, phone: '4155550199' }, credited: { channel: 'sms', campaign_id: null, template_id: 21, step: 2, variant: 'B', sent_at: '2026-11-26T08:00:00.000Z' } })], next: 'cursor-1' };
    const second: RevenuePurchasesPage = { purchases: [row(5)], next: null };
    const api = mockApi({
      'GET /api/revenue/summary?': { json: summary },
      'GET /api/revenue/purchases?model=last&integration_id=7&limit=10': { json: first },
      'GET /api/revenue/purchases?model=last&integration_id=7&limit=10&before=cursor-1': { json: second },
    });
    renderWithProviders(<RevenuePanel basePath="/api/revenue" integrationId={7} />);
    const list = await screen.findByTestId('revenue-purchases');
    await waitFor(() => expect(list.querySelectorAll('[data-testid="revenue-purchase-row"]')).toHaveLength(2));
    const [a, b] = [...list.querySelectorAll('[data-testid="revenue-purchase-row"]')] as HTMLElement[];
    expect(a.querySelector('a')?.getAttribute('href')).toBe('/contacts/47');
    expect(a.textContent).toContain('shopper7@example.com');
    expect(a.textContent).toContain('Shop');
    expect(a.textContent).toContain('€79.20');
    expect(a.textContent).toContain('Email · campaign 3 · template 11 · step 1');
    expect(a.querySelector('[data-testid="revenue-purchase-session"]')?.textContent).toBe('cs_test_a1b2');
    // Matched by phone only, not held on this side: no link.
    expect(b.querySelector('a')).toBeNull();
    expect(b.textContent).toContain('+4155550199');
    expect(b.textContent).toContain('SMS · template 21 · step 2 (variant B)');
    expect(screen.getByRole('button', { name: 'Newer' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Older' }));
    await waitFor(() => expect(list.querySelectorAll('[data-testid="revenue-purchase-row"]')).toHaveLength(1));
    expect(api.calls.at(-1)?.path).toBe('/api/revenue/purchases?model=last&integration_id=7&limit=10&before=cursor-1');
    expect(screen.getByRole('button', { name: 'Older' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Newer' }));
    await waitFor(() => expect(list.querySelectorAll('[data-testid="revenue-purchase-row"]')).toHaveLength(2));
  });

  it('says what failed', async () => {
    mockApi({ 'GET /api/revenue/summary?': { status: 400, json: { error: 'days must be between 1 and 366' } } });
    renderWithProviders(<RevenuePanel basePath="/api/revenue" />);
    await screen.findByText(/Could not load recovered revenue: days must be between 1 and 366/);
  });
});
