import { screen, within } from '@testing-library/react';
import { mockApi, renderWithProviders } from '../testing';
import { RedemptionsByStep } from './RedemptionsByStep';

describe('RedemptionsByStep', () => {
  it('lists both sides’ steps by their template names: issued, redeemed, discount and revenue with their currencies', async () => {
    mockApi({
      'GET /api/email/incentive-redemptions': {
        json: [
          { step_key: 'email-template:4', given: 12, redeemed: 3, discount: [{ currency: 'EUR', minor: 1_500 }], revenue: [{ currency: 'EUR', minor: 24_990 }] },
          { step_key: 'email-template:77', given: 2, redeemed: 0, discount: [], revenue: [] },
        ],
      },
      'GET /api/sms/incentive-redemptions': {
        json: [{ step_key: 'sms-template:9', given: 5, redeemed: 1, discount: [{ currency: 'JPY', minor: 500 }], revenue: [{ currency: 'JPY', minor: 12_000 }] }],
      },
      'GET /api/resend/templates': { json: [{ id: 4, name: 'First reminder' }] },
      'GET /api/sms-templates': { json: [{ id: 9, name: 'Text nudge' }] },
    });
    renderWithProviders(<RedemptionsByStep />);
    const table = await screen.findByRole('table', { name: 'Codes redeemed per step' });
    const rows = within(table).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell').map((c) => c.textContent));
    expect(rows).toEqual([
      ['First reminderEmail', '12', '3', '€15.00', '€249.90'],
      // A step whose template is gone is named by its id.
      ['Template 77Email', '2', '0', '—', '—'],
      ['Text nudgeSMS', '5', '1', '¥500', '¥12,000'],
    ]);
  });

  it('says so when a side does not answer, and still shows the other side’s steps', async () => {
    mockApi({
      'GET /api/email/incentive-redemptions': { status: 500, json: { error: 'down' } },
      'GET /api/sms/incentive-redemptions': { json: [{ step_key: 'sms-template:9', given: 1, redeemed: 0, discount: [], revenue: [] }] },
      'GET /api/resend/templates': { json: [] },
      'GET /api/sms-templates': { json: [{ id: 9, name: 'Text nudge' }] },
    });
    renderWithProviders(<RedemptionsByStep />);
    await screen.findByText('The Email side’s codes could not be loaded.');
    expect((await screen.findByRole('table', { name: 'Codes redeemed per step' })).textContent).toContain('Text nudge');
  });
});
