import { screen, within } from '@testing-library/react';
import type { RevenueSummary } from '@act/contracts/src/revenue-api';
import { renderWithProviders } from '../testing';
import { campaignFigures, integrationFigures, RevenueFigure } from './RevenueFigure';

const credit = (channel: 'email' | 'sms', campaign_id: number, template_id: number, step: number, recovered: number, amount: number) => ({
  channel,
  campaign_id,
  template_id,
  step,
  recovered,
  revenue: [{ currency: 'USD', amount }],
});

const summary = {
  integrations: [
    { funnel_id: 'f', integration_id: 4, name: 'Shop', purchases: 3, recovered: 2, reminded: 4, recovery_rate: 0.5, revenue: [{ currency: 'EUR', recovered: 0, organic: 9 }, { currency: 'USD', recovered: 120, organic: 30 }] },
  ],
  campaigns: [{ ...credit('email', 7, 0, 0, 2, 120), template_id: null, step: null }, { ...credit('sms', 7, 0, 0, 1, 5), template_id: null, step: null }],
  // Best first, as the API sends them.
  templates: [credit('sms', 7, 71, 1, 1, 5), credit('email', 7, 72, 2, 1, 100), credit('email', 7, 73, 1, 1, 20), credit('email', 8, 81, 1, 0, 0)],
} as unknown as RevenueSummary;

describe('RevenueFigure', () => {
  it("reads an integration's row and its campaign's best step on this side; a currency with nothing recovered is left out", () => {
    expect(integrationFigures(summary, 4, 'email', 7)).toEqual({ revenue: [{ currency: 'USD', amount: 120 }], recovered: 2, rate: 0.5, best: summary.templates[1] });
    expect(integrationFigures(summary, 4, 'sms', 7).best).toBe(summary.templates[0]);
    expect(integrationFigures(summary, 5, 'email', null)).toEqual({ revenue: [], recovered: 0, rate: null, best: null });
    expect(campaignFigures(summary, 7, 'email')).toEqual({ revenue: [{ currency: 'USD', amount: 120 }], recovered: 2, best: summary.templates[1] });
    expect(campaignFigures(summary, 9, 'sms')).toEqual({ revenue: [], recovered: 0, best: null });
  });

  it('shows the figures, a template by its name where the page knows it, and placeholders while loading', () => {
    const { rerender } = renderWithProviders(<RevenueFigure of="Shop" figures={undefined} showRate />);
    const region = screen.getByRole('region', { name: 'Recovered revenue of Shop' });
    expect(within(region).queryByTestId('revenue-figure-revenue')).toBeNull();
    rerender(<RevenueFigure of="Shop" figures={integrationFigures(summary, 4, 'email', 7)} showRate templateName={(t) => (t.template_id === 72 ? 'Second nudge' : null)} />);
    expect(screen.getByTestId('revenue-figure-revenue').textContent).toBe('$120.00');
    expect(screen.getByTestId('revenue-figure-rate').textContent).toBe('50%');
    expect(screen.getByTestId('revenue-figure-recovered').textContent).toBe('2');
    expect(screen.getByTestId('revenue-figure-best').textContent).toBe('Second nudge');
    rerender(<RevenueFigure of="Shop" figures={campaignFigures(summary, 9, 'sms')} />);
    expect(screen.queryByTestId('revenue-figure-rate')).toBeNull();
    expect(screen.getByTestId('revenue-figure-best').textContent).toBe('—');
  });
});
