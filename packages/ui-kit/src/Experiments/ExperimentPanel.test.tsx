import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { CampaignExperiment, CampaignResults, GroupResult } from '@act/contracts/src/experiments-api';
import { mockApi, renderWithProviders } from '../testing';
import { ExperimentPanel, incrementalText } from './ExperimentPanel';
import { incrementalTotalText } from './IncrementalRevenueLine';

const group = (id: string, recipients: number, purchasers: number, revenue: number, enough = true): GroupResult => ({
  id,
  recipients,
  delivered: null,
  clicked: null,
  purchasers,
  revenue,
  delivery_rate: null,
  click_rate: null,
  conversion_rate: enough ? { estimate: purchasers / recipients, lower: 0.01, upper: 0.3 } : null,
  revenue_per_recipient: enough ? { estimate: revenue / recipients, lower: 1, upper: 9 } : null,
  more_recipients_needed: enough ? 0 : 40,
  enough_data: enough,
});

const experiment: CampaignExperiment = {
  campaign_id: 3,
  holdout_percent: 20,
  auto_winner: true,
  winner_min_recipients: 100,
  steps: [{ template_id: 9, variants: [{ id: 'A', share: 50, subject: null, content: 'a', delay: null, incentive: null }, { id: 'B', share: 50, subject: null, content: 'b', delay: null, incentive: null }] }],
  winners: [],
};

const results: CampaignResults = {
  campaign_id: 3,
  channel: 'sms',
  window_days: 7,
  currency: 'USD',
  holdout_percent: 20,
  reminded: group('reminded', 480, 60, 3600),
  holdout: group('holdout', 120, 12, 600),
  incremental: {
    status: 'ok',
    conversion_lift: { estimate: 0.025, lower: -0.03, upper: 0.07 },
    revenue_per_contact_lift: { estimate: 2.5, lower: -0.7, upper: 5.7 },
    incremental_revenue: { estimate: 1200, lower: -336, upper: 2736 },
    reminded_contacts: 480,
  },
  steps: [{ template_id: 9, step: 1, variants: [group('A', 240, 12, 720), group('B', 240, 48, 2880)], winner: null, leader: 'B', probabilities: { A: 0, B: 1 }, more_recipients_per_variant: 0 }],
};

describe('ExperimentPanel', () => {
  it('shows the incremental revenue with its interval, the variants and who leads; the form sends the settings and shows the server’s refusal', async () => {
    const api = mockApi({
      'GET /api/sms-campaigns/3/experiment': { json: experiment },
      'GET /api/sms-campaigns/3/results': { json: results },
      'PUT /api/sms-campaigns/3/experiment': { status: 400, json: { error: 'Variant shares must add up to 100' } },
    });
    renderWithProviders(<ExperimentPanel base="/api/sms-campaigns" campaignId={3} campaignName="Spring" channel="sms" steps={[{ id: 9, name: 'First text' }]} />);
    expect((await screen.findByTestId('experiment-incremental')).textContent).toBe('Incremental revenue: $1,200.00 (95%: -$336.00 to $2,736.00) over 480 reminded contacts');
    expect(screen.getByTestId('experiment-winner').textContent).toBe('No winner yet: variant B leads (probability best 100.0%); 0 more recipients needed per variant');
    expect(screen.getByRole('table', { name: 'Variants of First text' }).textContent).toContain('Variant B');
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/api/sms-campaigns/3/results?format=csv');

    fireEvent.click(screen.getByRole('button', { name: 'Edit experiment' }));
    fireEvent.change(screen.getAllByLabelText('Share %')[0]!, { target: { value: '70' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByTestId('experiment-error')).textContent).toContain('Variant shares must add up to 100');
    await waitFor(() => expect(api.callsTo('PUT', '/api/sms-campaigns/3/experiment')).toHaveLength(1));
    expect(api.callsTo('PUT', '/api/sms-campaigns/3/experiment')[0]!.body).toMatchObject({ holdout_percent: 20, auto_winner: true, winner_min_recipients: 100, steps: [{ template_id: 9, variants: [{ id: 'A', share: 70 }, { id: 'B', share: 50 }] }] });
  });

  it("switches the channel's click counting, and gives a variant a unique code from a pool in place of the step's incentive", async () => {
    const api = mockApi({
      'GET /api/email/campaigns/3/experiment': { json: experiment },
      'GET /api/email/campaigns/3/results': { json: { ...results, channel: 'email' } },
      'GET /api/email/click-tracking': { json: { count_clicks_with: 'resend' } },
      'PUT /api/email/click-tracking': { json: { count_clicks_with: 'link' } },
      'GET /api/email/incentive-pools': { json: [{ id: 'a'.repeat(24), name: 'Spring', total: 500, remaining: 420, low: false }] },
      'PUT /api/email/campaigns/3/experiment': { json: experiment },
    });
    renderWithProviders(<ExperimentPanel base="/api/email/campaigns" campaignId={3} campaignName="Spring" channel="email" steps={[{ id: 9, name: 'First email' }]} />);
    await screen.findByTestId('experiment-incremental');
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Count clicks with' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Our link' }));
    await waitFor(() => expect(api.callsTo('PUT', '/api/email/click-tracking')).toHaveLength(1));
    expect(api.callsTo('PUT', '/api/email/click-tracking')[0]!.body).toEqual({ count_clicks_with: 'link' });

    fireEvent.click(screen.getByRole('button', { name: 'Edit experiment' }));
    fireEvent.mouseDown(screen.getAllByRole('combobox', { name: 'Incentive' })[1]!);
    fireEvent.click(await screen.findByRole('option', { name: 'A unique code from a pool' }));
    expect(await screen.findByRole('combobox', { name: 'Code pool' })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Code pool' }).textContent).toBe('Spring (420 of 500 left)'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PUT', '/api/email/campaigns/3/experiment')).toHaveLength(1));
    expect(api.callsTo('PUT', '/api/email/campaigns/3/experiment')[0]!.body).toMatchObject({
      steps: [{ template_id: 9, variants: [{ id: 'A', incentive: null }, { id: 'B', incentive: { kind: 'pool', pool_id: 'a'.repeat(24) } }] }],
    });
  });

  it('says how many more recipients are needed below the minimum sample', () => {
    expect(incrementalText({ status: 'not_enough_data', reminded_more_needed: 0, holdout_more_needed: 35 }, 'USD')).toBe('Below the minimum sample (holdout: 35 more recipients needed)');
    expect(incrementalText({ status: 'not_enough_data', reminded_more_needed: null, holdout_more_needed: null }, null)).toBe('Below the minimum sample (reminded: no purchase yet; holdout: no purchase yet)');
    expect(incrementalTotalText({ currency: 'USD', status: 'not_enough_data', campaigns: 2, more_recipients_needed: 120 })).toBe('below the minimum sample (120 more recipients needed; 2 campaigns with a holdout)');
    expect(incrementalTotalText({ currency: 'USD', status: 'ok', campaigns: 1, incremental_revenue: { estimate: 10, lower: 2, upper: 18 } })).toBe('$10.00 (95%: $2.00 to $18.00; 1 campaign with a holdout)');
  });
});
