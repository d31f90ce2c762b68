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
  campaigns: [
    { ...credit('email', 7, 0, 0, 2, 120), template_id: null, step: null, reminded: 8, recovery_rate: 0.25 },
    { ...credit('sms', 7, 0, 0, 1, 5), template_id: null, step: null, reminded: 3, recovery_rate: 0.3333 },
    { ...credit('sms', 10, 0, 0, 0, 0), template_id: null, step: null, reminded: 4, recovery_rate: 0, revenue: [] },
  ],
  // Best first, as the API sends them.
  templates: [credit('sms', 7, 71, 1, 1, 5), credit('email', 7, 72, 2, 1, 100), credit('email', 7, 73, 1, 1, 20), credit('email', 8, 81, 1, 0, 0)],
} as unknown as RevenueSummary;

describe('RevenueFigure', () => {
  it("reads an integration's row and its campaign's best step on this side; a currency with nothing recovered is left out", () => {
    expect(integrationFigures(summary, 4, 'email', 7)).toEqual({ revenue: [{ currency: 'USD', amount: 120 }], recovered: 2, rate: 0.5, best: summary.templates[1] });
    expect(integrationFigures(summary, 4, 'sms', 7).best).toBe(summary.templates[0]);
    expect(integrationFigures(summary, 5, 'email', null)).toEqual({ revenue: [], recovered: 0, rate: null, best: null });
    expect(campaignFigures(summary, 7, 'email')).toEqual({ revenue: [{ currency: 'USD', amount: 120 }], recovered: 2, rate: 0.25, best: summary.templates[1] });
    expect(campaignFigures(summary, 9, 'sms')).toEqual({ revenue: [], recovered: 0, rate: null, best: null });
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
    // A campaign's rate: over the contacts it reminded; 0% when it reminded some and recovered none, a dash with nobody reminded.
    rerender(<RevenueFigure of="Texts" figures={campaignFigures(summary, 7, 'sms')} />);
    expect(screen.getByTestId('revenue-figure-rate').textContent).toBe('33.3%');
    rerender(<RevenueFigure of="Texts" figures={campaignFigures(summary, 10, 'sms')} />);
    expect(screen.getByTestId('revenue-figure-rate').textContent).toBe('0%');
    rerender(<RevenueFigure of="Shop" figures={campaignFigures(summary, 9, 'sms')} />);
    expect(screen.getByTestId('revenue-figure-rate').textContent).toBe('—');
    expect(screen.getByTestId('revenue-figure-best').textContent).toBe('—');
    rerender(<RevenueFigure of="Shop" figures={campaignFigures(summary, 9, 'sms')} showRate={false} />);
    expect(screen.queryByTestId('revenue-figure-rate')).toBeNull();
  });
});
