import { screen, waitFor, within } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import type { SmsCampaign, SmsTemplate } from '@act/contracts/src/sms-api';
import SmsCampaignsPage from './SmsCampaignsPage';
import { change, choose, click, integration, signedIn } from '../test/fixtures';

jest.setTimeout(60_000);

const campaign = (id: number, over: Partial<SmsCampaign> = {}): SmsCampaign => ({
  id,
  name: `Campaign ${id}`,
  integration_id: null,
  active: true,
  created_at: '',
  integration_name: null,
  template_count: 0,
  on_cart_change: 'continue',
  priority: 0,
  ...over,
});
const template = (id: number, over: Partial<SmsTemplate> = {}): SmsTemplate => ({
  id,
  campaign_id: 1,
  name: `Template ${id}`,
  message: `Message ${id}`,
  sequence_order: id,
  delay_minutes: 0,
  active: true,
  created_at: '',
  ...over,
});

const withData = (campaigns: SmsCampaign[], templates: SmsTemplate[]) => ({
  ...signedIn,
  'GET /api/sms-campaigns': { json: campaigns },
  'GET /api/sms-templates': { json: templates },
  'GET /api/sms-webhook-integrations': { json: [integration(3, { name: 'Spring' })] },
});

describe('/sms-campaigns (spec sections 2, 5, 8)', () => {
  it("shows 'No SMS campaigns yet' when there are none", async () => {
    mockApi(withData([], []));
    renderWithProviders(<SmsCampaignsPage />);
    expect(await screen.findByText('No SMS campaigns yet')).toBeTruthy();
  });

  it('lists templates by sequence order with #order, delay only above 0, preview and active dot', async () => {
    mockApi(
      withData(
        [
          campaign(1, { name: 'Recovery', integration_name: 'Spring', integration_id: 3, template_count: 3 }),
          campaign(2, { name: 'Loose', active: false }),
        ],
        [
          template(10, { sequence_order: 3, name: 'Third', delay_minutes: 120, active: false }),
          template(11, { sequence_order: 1, name: 'First' }),
          template(12, { sequence_order: 2, name: 'Second', delay_minutes: 15 }),
        ],
      ),
    );
    renderWithProviders(<SmsCampaignsPage />);
    const recovery = within(await screen.findByRole('article', { name: 'Recovery' }));
    expect(recovery.getByText('Spring')).toBeTruthy();
    expect(recovery.getByText('3 templates')).toBeTruthy();
    const rows = within(recovery.getByRole('list', { name: 'Templates of Recovery' })).getAllByRole('listitem');
    expect(rows.map((r) => within(r).getByText(/^#\d+$/).textContent)).toEqual(['#1', '#2', '#3']);
    expect(within(rows[0]!).queryByText(/min delay$/)).toBeNull();
    expect(within(rows[1]!).getByText('15 min delay')).toBeTruthy();
    expect(within(rows[2]!).getByText('120 min delay')).toBeTruthy();
    expect(within(rows[2]!).getByRole('img', { name: 'Inactive' })).toBeTruthy();
    expect(within(rows[0]!).getByRole('img', { name: 'Active' })).toBeTruthy();
    const loose = within(screen.getByRole('article', { name: 'Loose' }));
    expect(loose.getByText('No Integration')).toBeTruthy();
    expect(loose.getByText('Inactive')).toBeTruthy();
  });

  it('creates a campaign: name required, No Integration sent as null, integration as a number', async () => {
    const api = mockApi({
      ...withData([], []),
      'POST /api/sms-campaigns': [
        { status: 201, json: campaign(1) },
        { status: 400, json: { error: 'Integration not found' } },
      ],
    });
    renderWithProviders(<SmsCampaignsPage />);
    await screen.findByText('No SMS campaigns yet');
    await click(screen.getAllByRole('button', { name: 'New Campaign' })[0]!);
    let dialog = within(await screen.findByRole('dialog', { name: 'New SMS Campaign' }));
    await click(dialog.getByRole('button', { name: 'Create' }));
    expect(await dialog.findByText('Campaign name is required')).toBeTruthy();
    await change(dialog.getByRole('textbox', { name: /^Campaign Name/ }), 'Recovery');
    await click(dialog.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Campaign created successfully')).toBeTruthy();
    expect(api.callsTo('POST', '/api/sms-campaigns')[0]!.body).toEqual({
      name: 'Recovery',
      integration_id: null,
      active: true,
      on_cart_change: 'continue',
      priority: 0,
    });

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await click(screen.getAllByRole('button', { name: 'New Campaign' })[0]!);
    dialog = within(await screen.findByRole('dialog', { name: 'New SMS Campaign' }));
    await change(dialog.getByRole('textbox', { name: /^Campaign Name/ }), 'Linked');
    await choose('Integration', 'Spring');
    await choose('When the cart changes', 'Restart from the first step');
    await change(dialog.getByRole('spinbutton', { name: 'Priority' }), '5');
    await click(dialog.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Failed to create campaign: Integration not found')).toBeTruthy();
    expect(api.callsTo('POST', '/api/sms-campaigns')[1]!.body).toEqual({
      name: 'Linked',
      integration_id: 3,
      active: true,
      on_cart_change: 'restart',
      priority: 5,
    });
  });

  it("asks 'Are you sure?' and deletes the campaign with its templates", async () => {
    const api = mockApi({
      ...withData([campaign(1, { name: 'Recovery', template_count: 1 })], [template(1)]),
      'DELETE /api/sms-campaigns/1': [
        { status: 500, json: { error: 'Database unavailable' } },
        {
          json: {
            success: true,
            message: 'Campaign and associated templates deleted successfully',
            templates_deleted: 1,
          },
        },
      ],
    });
    renderWithProviders(<SmsCampaignsPage />);
    await click(await screen.findByRole('button', { name: 'Delete campaign Recovery' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Are you sure?' }));
    await click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete campaign: Database unavailable')).toBeTruthy();
    await click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Campaign and associated templates deleted successfully')).toBeTruthy();
    expect(api.callsTo('DELETE', '/api/sms-campaigns/1')).toHaveLength(2);
  });

  it('opens a template for editing on click, and Add Template proposes the next order', async () => {
    mockApi(
      withData(
        [campaign(1, { name: 'Recovery', template_count: 2 })],
        [template(1, { name: 'First' }), template(2, { name: 'Second', sequence_order: 4 })],
      ),
    );
    renderWithProviders(<SmsCampaignsPage />);
    await click(await screen.findByRole('button', { name: /^Edit template #1 First\b/ }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Edit SMS Template' }));
    expect((dialog.getByRole('textbox', { name: /^Template Name/ }) as HTMLInputElement).value).toBe('First');
    await click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await click(screen.getByRole('button', { name: 'Add Template' }));
    dialog = within(await screen.findByRole('dialog', { name: 'New SMS Template' }));
    expect((dialog.getByRole('spinbutton', { name: 'Sequence Order' }) as HTMLInputElement).value).toBe('5');
  });

  it('Test SMS: validates the phone, sends testPhone, and reports both outcomes', async () => {
    const api = mockApi({
      ...withData([campaign(1, { name: 'Recovery', template_count: 1 })], [template(7, { name: 'First' })]),
      'POST /api/sms-templates/7/test': [
        { json: { success: true, message: 'Test SMS sent successfully', sid: 'SM1' } },
        { status: 400, json: { error: 'Twilio is not configured' } },
      ],
    });
    renderWithProviders(<SmsCampaignsPage />);
    await click(await screen.findByRole('button', { name: 'Test First' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Send Test SMS' }));
    await click(dialog.getByRole('button', { name: 'Send Test' }));
    expect(await dialog.findByText('Phone number is required')).toBeTruthy();
    await change(dialog.getByRole('textbox', { name: /^Phone Number/ }), '555-12');
    expect(await dialog.findByText('Invalid phone number format')).toBeTruthy();
    await change(dialog.getByRole('textbox', { name: /^Phone Number/ }), '+15551234567');
    await click(dialog.getByRole('button', { name: 'Send Test' }));
    expect(await screen.findByText('Test SMS sent successfully')).toBeTruthy();
    expect(api.callsTo('POST', '/api/sms-templates/7/test')[0]!.body).toEqual({ testPhone: '+15551234567' });

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await click(screen.getByRole('button', { name: 'Test First' }));
    const again = within(await screen.findByRole('dialog', { name: 'Send Test SMS' }));
    await change(again.getByRole('textbox', { name: /^Phone Number/ }), '15551234567');
    await click(again.getByRole('button', { name: 'Send Test' }));
    expect(await screen.findByText('Failed to send test SMS: Twilio is not configured')).toBeTruthy();
  });
});
