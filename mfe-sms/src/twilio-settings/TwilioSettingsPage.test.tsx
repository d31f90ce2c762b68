import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockApi, PLAIN_USER, renderWithProviders } from '@act/ui-kit/src/testing';
import TwilioSettingsPage from './TwilioSettingsPage';
import { change, choose, click, signedIn } from '../test/fixtures';

const config = {
  messaging_service_sid: '',
  phone_number: '',
  webhook_url: '',
  delivery_webhooks_enabled: false,
  blackout_enabled: true,
  blackout_start_hour: 22,
  blackout_end_hour: 8,
  blackout_timezone: 'America/New_York',
  frequency_cap_hours: null,
  configured: true,
};
const services = { services: [{ sid: 'MG00000000000000000000000000000001', friendlyName: 'Cart Reminders' }] };
const base = {
  ...signedIn,
  'GET /api/twilio/config': { json: config },
  'GET /api/twilio/messaging-services': { json: services },
};

// A long form: each interaction re-renders it, which jsdom does slowly.
jest.setTimeout(60_000);

async function openPage() {
  renderWithProviders(<TwilioSettingsPage />);
  await screen.findByRole('form', { name: 'Twilio configuration' });
}

describe('/twilio-settings (spec sections 2, 5, 8, 9)', () => {
  it('shows a plain user the settings read-only: the fields and Save disabled, and why', async () => {
    mockApi({ ...base, 'GET /api/user': { json: { ...PLAIN_USER, authenticated: true } } });
    await openPage();
    await screen.findByText('Only an admin can change the Twilio settings.');
    expect(screen.getByRole('button', { name: 'Save Configuration' })).toHaveProperty('disabled', true);
    // Disabled by its fieldset, as a browser does it (the input's own property stays false).
    expect(screen.getByRole('textbox', { name: 'Phone Number' }).matches(':disabled')).toBe(true);
    // Testing the connection changes nothing: still offered.
    expect(screen.getByRole('button', { name: 'Test Connection' })).toHaveProperty('disabled', false);
  });

  it('shows the title, both reference URLs on this origin, and the blackout defaults', async () => {
    mockApi(base);
    await openPage();
    expect(screen.getByRole('heading', { name: 'Twilio SMS Settings' })).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Funnel contact events' }) as HTMLInputElement).value).toBe(
      `${window.location.origin}/api/sms/webhook`,
    );
    expect((screen.getByRole('textbox', { name: 'Delivery status callbacks' }) as HTMLInputElement).value).toBe(
      `${window.location.origin}/api/twilio/webhooks`,
    );
    expect(screen.getByRole('combobox', { name: 'Start Hour' }).textContent).toBe('10 PM (22:00)');
    expect(screen.getByRole('combobox', { name: 'End Hour' }).textContent).toBe('8 AM (08:00)');
    expect(screen.getByRole('combobox', { name: 'Timezone' }).textContent).toBe('America/New_York');
    expect((screen.getByRole('textbox', { name: /^Test Message/ }) as HTMLInputElement).value).toBe(
      'This is a test message from your SMS system.',
    );
  });

  it('offers the eight timezones and hours 0 to 23', async () => {
    mockApi(base);
    await openPage();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Timezone' }));
    const tz = await screen.findAllByRole('option');
    expect(tz.map((o) => o.textContent)).toEqual([
      'America/New_York',
      'America/Chicago',
      'America/Denver',
      'America/Los_Angeles',
      'America/Phoenix',
      'America/Anchorage',
      'Pacific/Honolulu',
      'UTC',
    ]);
    fireEvent.keyDown(screen.getByRole('listbox'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Start Hour' }));
    const hours = await screen.findAllByRole('option');
    expect(hours).toHaveLength(24);
    expect(hours[0]!.textContent).toBe('12 AM (00:00)');
    expect(hours[23]!.textContent).toBe('11 PM (23:00)');
  });

  it('shows webhook_url only while delivery tracking is on, and checks it is a URL', async () => {
    const api = mockApi(base);
    await openPage();
    const tracking = screen.getByRole('switch', { name: 'Enable delivery status webhooks' }) as HTMLInputElement;
    expect(tracking.checked).toBe(false);
    expect(screen.queryByRole('textbox', { name: 'Webhook URL' })).toBeNull();
    await click(tracking);
    const url = await screen.findByRole('textbox', { name: 'Webhook URL' });
    await change(url, 'not a url');
    await click(screen.getByRole('button', { name: 'Save Configuration' }));
    expect(await screen.findByText('Must be a valid URL')).toBeTruthy();
    expect(api.callsTo('POST', '/api/twilio/config')).toHaveLength(0);
  });

  it('saves every field and says so', async () => {
    const saved = {
      ...config,
      messaging_service_sid: 'MG00000000000000000000000000000001',
      delivery_webhooks_enabled: true,
      webhook_url: 'https://hooks.example.com/twilio',
      blackout_start_hour: 21,
      frequency_cap_hours: 4,
    };
    const api = mockApi({
      ...base,
      'POST /api/twilio/config': { json: { ...saved, message: 'Twilio configuration saved successfully' } },
    });
    await openPage();
    await choose('Messaging Service', /Cart Reminders/);
    await click(screen.getByRole('switch', { name: 'Enable delivery status webhooks' }));
    await change(await screen.findByRole('textbox', { name: 'Webhook URL' }), 'https://hooks.example.com/twilio');
    await choose('Start Hour', '9 PM (21:00)');
    await change(screen.getByRole('spinbutton', { name: 'Hours between messages' }), '4');
    await click(screen.getByRole('button', { name: 'Save Configuration' }));
    expect(await screen.findByText('Twilio configuration saved successfully')).toBeTruthy();
    const { configured: _c, ...fields } = saved;
    expect(api.callsTo('POST', '/api/twilio/config')[0]!.body).toEqual(fields);
  });

  it("shows 'Failed to save configuration: {message}'", async () => {
    mockApi({
      ...base,
      'POST /api/twilio/config': {
        status: 400,
        json: { error: 'Blackout start hour must be a whole number from 0 to 23' },
      },
    });
    await openPage();
    await click(screen.getByRole('button', { name: 'Save Configuration' }));
    expect(
      await screen.findByText('Failed to save configuration: Blackout start hour must be a whole number from 0 to 23'),
    ).toBeTruthy();
  });

  it('tests the connection: success and failure texts', async () => {
    mockApi({
      ...base,
      'POST /api/twilio/test-connection': [
        { json: { success: true, message: 'Twilio connection test successful: Main (active)' } },
        { status: 502, json: { success: false, message: 'Authenticate', error: 'Authenticate' } },
      ],
    });
    await openPage();
    await click(screen.getByRole('button', { name: 'Test Connection' }));
    expect(await screen.findByText('Twilio connection test successful')).toBeTruthy();
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Test Connection' }) as HTMLButtonElement).disabled).toBe(false),
    );
    await click(screen.getByRole('button', { name: 'Test Connection' }));
    expect(await screen.findByText('Connection test failed: Authenticate')).toBeTruthy();
  });

  it('validates and sends the test SMS', async () => {
    const api = mockApi({
      ...base,
      'POST /api/twilio/test-sms': [
        { json: { success: true, message: 'Test SMS sent successfully', sid: 'SM1' } },
        { status: 400, json: { error: 'Twilio sender is not configured' } },
      ],
    });
    await openPage();
    const form = within(screen.getByRole('form', { name: 'Send Test SMS' }));
    await change(form.getByRole('textbox', { name: /^Test Message/ }), '');
    await click(form.getByRole('button', { name: 'Send Test SMS' }));
    expect(await form.findByText('Phone number is required')).toBeTruthy();
    expect(form.getByText('Message is required')).toBeTruthy();
    await change(form.getByRole('textbox', { name: /^Test Phone Number/ }), '12345');
    expect(await form.findByText('Invalid phone number format')).toBeTruthy();
    await change(form.getByRole('textbox', { name: /^Test Phone Number/ }), '+15551234567');
    await change(form.getByRole('textbox', { name: /^Test Message/ }), 'Hello');
    await click(form.getByRole('button', { name: 'Send Test SMS' }));
    expect(await screen.findByText('Test SMS sent successfully')).toBeTruthy();
    expect(api.callsTo('POST', '/api/twilio/test-sms')[0]!.body).toEqual({
      test_phone: '+15551234567',
      test_message: 'Hello',
    });
    await click(form.getByRole('button', { name: 'Send Test SMS' }));
    expect(await screen.findByText('Failed to send test SMS: Twilio sender is not configured')).toBeTruthy();
  });
});
