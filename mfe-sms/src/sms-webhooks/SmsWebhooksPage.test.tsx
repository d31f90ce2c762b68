import { screen, waitFor, within } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import SmsWebhooksPage from './SmsWebhooksPage';
import { change, choose, click, integration, signedIn } from '../test/fixtures';

const campaigns = [
  {
    id: 5,
    name: 'Cart Recovery',
    integration_id: null,
    active: true,
    created_at: '',
    integration_name: null,
    template_count: 2,
  },
];

describe('/sms-webhooks (spec sections 2, 5, 8)', () => {
  it("shows 'No SMS Integrations' when there are none", async () => {
    mockApi({ ...signedIn, 'GET /api/sms-webhook-integrations': { json: [] }, 'GET /api/sms-campaigns': { json: [] } });
    renderWithProviders(<SmsWebhooksPage />);
    expect(screen.getAllByTestId('integration-skeleton').length).toBeGreaterThan(0);
    expect(await screen.findByText('No SMS Integrations')).toBeTruthy();
  });

  it('shows each card with funnel, badge, campaign or No Campaign, delay in minutes', async () => {
    mockApi({
      ...signedIn,
      'GET /api/sms-webhook-integrations': {
        json: [
          integration(1, { name: 'Spring', reminder_delay: 45, campaign_name: 'Cart Recovery', sms_campaign_id: 5 }),
          integration(2, { name: 'Webinar', active: false }),
        ],
      },
      'GET /api/sms-campaigns': { json: campaigns },
    });
    renderWithProviders(<SmsWebhooksPage />);
    const spring = within(await screen.findByRole('article', { name: 'Spring' }));
    expect(spring.getByText('funnel-1')).toBeTruthy();
    expect(spring.getByText('Active')).toBeTruthy();
    expect(spring.getByText('Cart Recovery')).toBeTruthy();
    expect(spring.getByText('45 minutes')).toBeTruthy();
    const webinar = within(screen.getByRole('article', { name: 'Webinar' }));
    expect(webinar.getByText('Inactive')).toBeTruthy();
    expect(webinar.getByText('No Campaign')).toBeTruthy();
    // "How to connect" opens the documentation's steps for this SMS integration (its own URL filled in there).
    expect(webinar.getByRole('link', { name: 'How to connect Webinar' }).getAttribute('href')).toBe(
      '/documentation?integration=2&side=sms',
    );
  });

  it('validates with the spec messages, then creates with delay 30 for a non-numeric entry and active true', async () => {
    const api = mockApi({
      ...signedIn,
      'GET /api/sms-webhook-integrations': { json: [] },
      'GET /api/sms-campaigns': { json: campaigns },
      'POST /api/sms-webhook-integrations': { status: 201, json: integration(3) },
    });
    renderWithProviders(<SmsWebhooksPage />);
    await screen.findByText('No SMS Integrations');
    await click(screen.getAllByRole('button', { name: 'Add Integration' })[0]!);
    const dialog = within(await screen.findByRole('dialog', { name: 'Add SMS Integration' }));
    const delay = dialog.getByRole('spinbutton', { name: 'Reminder Delay' }) as HTMLInputElement;
    expect(delay.value).toBe('30');
    expect((dialog.getByRole('switch', { name: 'Active' }) as HTMLInputElement).checked).toBe(true);
    await change(delay, '0');
    await click(dialog.getByRole('button', { name: 'Create' }));
    expect(await dialog.findByText('Name is required')).toBeTruthy();
    expect(dialog.getByText('Funnel ID is required')).toBeTruthy();
    expect(dialog.getByText('Reminder delay must be at least 1 minute')).toBeTruthy();
    expect(api.callsTo('POST', '/api/sms-webhook-integrations')).toHaveLength(0);

    await change(dialog.getByRole('textbox', { name: /^Name/ }), 'Spring');
    await change(dialog.getByRole('textbox', { name: /^Funnel ID/ }), 'funnel-9');
    await change(delay, ''); // what a number input holds for a non-numeric entry
    await choose('Campaign', 'Cart Recovery');
    await choose('Campaign', 'No Campaign');
    await click(dialog.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('SMS webhook integration created successfully')).toBeTruthy();
    expect(api.callsTo('POST', '/api/sms-webhook-integrations')[0]!.body).toEqual({
      name: 'Spring',
      funnel_id: 'funnel-9',
      sms_campaign_id: null,
      reminder_delay: 30,
      active: true,
    });
  });

  it('"Email reminders too" creates the email integration of the same funnel after the SMS one, and says where its campaign is chosen', async () => {
    const api = mockApi({
      ...signedIn,
      'GET /api/sms-webhook-integrations': { json: [] },
      'GET /api/sms-campaigns': { json: campaigns },
      'POST /api/sms-webhook-integrations': { status: 201, json: integration(3) },
      'POST /api/webhook-integrations': { status: 201, json: { id: 8 } },
    });
    renderWithProviders(<SmsWebhooksPage />);
    await screen.findByText('No SMS Integrations');
    await click(screen.getAllByRole('button', { name: 'Add Integration' })[0]!);
    const dialog = within(await screen.findByRole('dialog', { name: 'Add SMS Integration' }));
    await change(dialog.getByRole('textbox', { name: /^Name/ }), 'Spring');
    await change(dialog.getByRole('textbox', { name: /^Funnel ID/ }), 'funnel-9');
    await choose('Campaign', 'Cart Recovery');
    await click(dialog.getByRole('switch', { name: /^Email reminders too/ }));
    await click(dialog.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Email integration Spring created: choose its email campaign on Webhook Integrations')).toBeTruthy();
    expect(api.callsTo('POST', '/api/sms-webhook-integrations')[0]!.body).toMatchObject({ funnel_id: 'funnel-9', sms_campaign_id: 5 });
    expect(api.callsTo('POST', '/api/webhook-integrations')[0]!.body).toEqual({ name: 'Spring', funnel_id: 'funnel-9', reminder_delay: 30 });
  });

  it('shows the server message, else the fallback, when saving fails', async () => {
    mockApi({
      ...signedIn,
      'GET /api/sms-webhook-integrations': { json: [integration(1, { name: 'Spring' })] },
      'GET /api/sms-campaigns': { json: campaigns },
      'PATCH /api/sms-webhook-integrations/1': [
        { status: 409, json: { error: 'An active SMS integration already uses funnel funnel-1' } },
        { status: 500, text: 'oops', contentType: 'text/plain' },
      ],
    });
    renderWithProviders(<SmsWebhooksPage />);
    await click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit SMS Integration' }));
    await click(dialog.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('An active SMS integration already uses funnel funnel-1')).toBeTruthy();
    await click(dialog.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Failed to save SMS webhook integration')).toBeTruthy();
  });

  it('asks before deleting, then deletes and says so', async () => {
    const api = mockApi({
      ...signedIn,
      'GET /api/sms-webhook-integrations': [{ json: [integration(1, { name: 'Spring' })] }, { json: [] }],
      'GET /api/sms-campaigns': { json: campaigns },
      'DELETE /api/sms-webhook-integrations/1': {
        json: { success: true, message: 'SMS webhook integration deleted successfully' },
      },
    });
    renderWithProviders(<SmsWebhooksPage />);
    await click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('Are you sure you want to delete this SMS webhook integration?')).toBeTruthy();
    await click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('SMS webhook integration deleted successfully')).toBeTruthy();
    expect(api.callsTo('DELETE', '/api/sms-webhook-integrations/1')).toHaveLength(1);
    await waitFor(() => expect(screen.getByText('No SMS Integrations')).toBeTruthy());
  });
});
