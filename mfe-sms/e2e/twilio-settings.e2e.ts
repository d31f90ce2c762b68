// /twilio-settings in Chromium through the gateway: the reference URLs, validation, saving and reading back,
// and the two provider actions (the test stack has no Twilio credentials, so they report the server's refusal).
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../infra/e2e/browser';
import { api, choose, expectToast, openSession, optionsOf, type Session } from './helpers';

describe('Twilio SMS settings', () => {
  let browser: Browser;
  let s: Session;

  beforeAll(async () => {
    browser = await launchBrowser();
    s = await openSession(browser);
  });
  afterAll(async () => {
    // Leave the shared stack with the spec's defaults for other tests.
    await api(s.page, 'POST', '/api/twilio/config', {
      phone_number: '',
      webhook_url: '',
      delivery_webhooks_enabled: true,
      blackout_enabled: true,
      blackout_start_hour: 22,
      blackout_end_hour: 8,
      blackout_timezone: 'America/New_York',
    }).catch(() => undefined);
    await browser?.close();
  });

  it('shows the sections, both inbound URLs on this origin, and the defaults', async () => {
    const { page, url } = s;
    await page.goto(`${url}/twilio-settings`);
    await page.getByRole('heading', { name: 'Twilio SMS Settings', exact: true }).waitFor();
    for (const section of [
      'Basic Configuration',
      'Delivery Tracking',
      'Webhook URLs',
      'Blackout Times',
      'Send Test SMS',
    ])
      await page.getByRole('region', { name: section }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Funnel contact events' }).inputValue()).toBe(
      `${url}/api/sms/webhook`,
    );
    expect(await page.getByRole('textbox', { name: 'Delivery status callbacks' }).inputValue()).toBe(
      `${url}/api/twilio/webhooks`,
    );
    // On by default (the spec says off; docs/delivery.md): logs follow Twilio's status callbacks.
    expect(await page.getByRole('switch', { name: 'Enable delivery status webhooks' }).isChecked()).toBe(true);
    // Empty: Twilio is given the callback URL above.
    expect(await page.getByRole('textbox', { name: 'Webhook URL', exact: true }).inputValue()).toBe('');
    expect(await page.getByRole('textbox', { name: 'Test Message' }).inputValue()).toBe(
      'This is a test message from your SMS system.',
    );
    expect(await optionsOf(page, 'Timezone')).toEqual([
      'America/New_York',
      'America/Chicago',
      'America/Denver',
      'America/Los_Angeles',
      'America/Phoenix',
      'America/Anchorage',
      'Pacific/Honolulu',
      'UTC',
    ]);
    expect(await optionsOf(page, 'End Hour')).toHaveLength(24);
  });

  it('checks the webhook URL only while delivery tracking is on, then saves and reads back every field', async () => {
    const { page, url } = s;
    await page.getByRole('switch', { name: 'Enable delivery status webhooks' }).check();
    const hook = page.getByRole('textbox', { name: 'Webhook URL', exact: true });
    await hook.fill('not a url');
    await page.getByRole('button', { name: 'Save Configuration' }).click();
    await page.getByText('Must be a valid URL').waitFor();

    await hook.fill('https://hooks.example.com/twilio-status');
    await page.getByRole('textbox', { name: 'Phone Number', exact: true }).fill('+15550001111');
    await choose(page, 'Start Hour', '9 PM (21:00)');
    await choose(page, 'End Hour', '7 AM (07:00)');
    await choose(page, 'Timezone', 'America/Chicago');
    await page.getByRole('button', { name: 'Save Configuration' }).click();
    await expectToast(page, 'Twilio configuration saved successfully');

    await page.goto(`${url}/twilio-settings`);
    expect(await page.getByRole('textbox', { name: 'Webhook URL', exact: true }).inputValue()).toBe(
      'https://hooks.example.com/twilio-status',
    );
    expect(await page.getByRole('textbox', { name: 'Phone Number', exact: true }).inputValue()).toBe('+15550001111');
    expect(await page.getByRole('combobox', { name: 'Start Hour' }).textContent()).toBe('9 PM (21:00)');
    expect(await page.getByRole('combobox', { name: 'End Hour' }).textContent()).toBe('7 AM (07:00)');
    expect(await page.getByRole('combobox', { name: 'Timezone' }).textContent()).toBe('America/Chicago');

    // Switching tracking off hides the field; an empty URL is accepted.
    await page.getByRole('switch', { name: 'Enable delivery status webhooks' }).uncheck();
    await page.getByRole('textbox', { name: 'Webhook URL', exact: true }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Save Configuration' }).click();
    await expectToast(page, 'Twilio configuration saved successfully');
  });

  it('Test Connection reports the failure with the server message', async () => {
    const { page } = s;
    await page.getByRole('button', { name: 'Test Connection' }).click();
    await expectToast(page, /Connection test failed: Twilio is not configured/);
  });

  it('Send Test SMS: required messages, phone format, then the server answer', async () => {
    const { page } = s;
    const form = page.getByRole('form', { name: 'Send Test SMS' });
    await form.getByRole('textbox', { name: 'Test Message' }).fill('');
    await form.getByRole('button', { name: 'Send Test SMS' }).click();
    await form.getByText('Phone number is required').waitFor();
    await form.getByText('Message is required').waitFor();
    await form.getByRole('textbox', { name: 'Test Phone Number' }).fill('+1 555');
    await form.getByText('Invalid phone number format').waitFor();
    await form.getByRole('textbox', { name: 'Test Phone Number' }).fill('+15551234567');
    await form.getByRole('textbox', { name: 'Test Message' }).fill('Hello from the browser test');
    await form.getByRole('button', { name: 'Send Test SMS' }).click();
    await expectToast(page, /Failed to send test SMS: Twilio is not configured/);
  });
});
