// The SMS screens with messages really going out: svc-sms is restarted against a local fake Twilio (the SDK's
// real HTTP calls, redirected) with short delays, so the logs, delivery callbacks, opt-out marker, duplicate
// listing, delivery rate and provider actions can be seen in Chromium. It restarts a process of the shared
// stack, so it runs in the fault phase (one file at a time) and puts svc-sms back as it was afterwards.
import twilio from 'twilio';
import type { Browser } from 'playwright-core';
import type { SmsCampaign, SmsIntegration, SmsLogPage } from '@act/contracts/src/sms-api';
import { launchBrowser, screenshotBoth, startProcess, stopProcess } from '../../infra/e2e/browser';
import { startFakeTwilio, type FakeTwilio } from '@act/testing';
import { api, choose, expectToast, openSession, postSmsWebhook, uid, type Session } from './helpers';

jest.setTimeout(120_000);

async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('SMS screens with live sending (fake Twilio)', () => {
  let browser: Browser;
  let s: Session;
  let fake: FakeTwilio;
  const id = uid();
  const funnel = `e2e-live-${id}`;
  const phone = `+1555${String(Date.now()).slice(-7)}`;
  const tollFree = '+18005550123';
  const firstMessage = 'Hi {first_name}, your cart is waiting and it would be a shame to lose it: {checkout_url}';
  let integration: SmsIntegration;
  /** The SMS Logs "Sent" figure before the campaign below sends. */
  let sentBefore: number;

  /** Posts a Twilio callback signed the way Twilio signs it (the service checks the signature). */
  async function twilioCallback(params: Record<string, string>) {
    const target = `${s.url}/api/twilio/webhooks`;
    const res = await fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(fake.authToken, target, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    expect(res.status).toBe(200);
  }

  beforeAll(async () => {
    fake = await startFakeTwilio();
    await stopProcess('svc-sms');
    await startProcess('svc-sms', {
      TWILIO_ACCOUNT_SID: fake.accountSid,
      TWILIO_AUTH_TOKEN: fake.authToken,
      TWILIO_BASE_URL: fake.url,
      // One "minute" of reminder_delay and delay_minutes lasts 100 ms here.
      SMS_DELAY_UNIT_MS: '100',
      SMS_DUE_SCAN_MS: '300',
    });
    browser = await launchBrowser();
    s = await openSession(browser);
  });
  afterAll(async () => {
    await browser?.close();
    await stopProcess('svc-sms');
    await startProcess('svc-sms');
    await fake?.stop();
  });

  it('settings: credentials present, a messaging service chosen, connection and test SMS succeed', async () => {
    const { page, url } = s;
    await page.goto(`${url}/twilio-settings`);
    await page.getByText('Credentials configured').waitFor();
    await choose(page, 'Messaging Service', /^Cart Reminders/);
    // Outside the blackout window whatever the hour, so the sequence below sends at once.
    await page.getByRole('switch', { name: 'Enable blackout window' }).uncheck();
    await page.getByRole('button', { name: 'Save Configuration' }).click();
    await expectToast(page, 'Twilio configuration saved successfully');

    await page.getByRole('button', { name: 'Test Connection' }).click();
    await expectToast(page, 'Twilio connection test successful');

    const form = page.getByRole('form', { name: 'Send Test SMS' });
    await form.getByRole('textbox', { name: 'Test Phone Number' }).fill('+15551230000');
    await form.getByRole('button', { name: 'Send Test SMS' }).click();
    await expectToast(page, 'Test SMS sent successfully');
    const sent = fake.messages.find((m) => m.to === '+15551230000');
    expect(sent?.body).toBe('This is a test message from your SMS system.');
    expect(sent?.messagingServiceSid).toBe('MG00000000000000000000000000000001');
  });

  it('a funnel contact gets the campaign in order; the logs show it, truncated', async () => {
    const { page, url } = s;
    sentBefore = (await api<SmsLogPage>(page, 'GET', '/api/sms-logs?page=1&pageSize=25')).summary.sent;
    const campaign = await api<SmsCampaign>(page, 'POST', '/api/sms-campaigns', {
      name: `Live ${id}`,
      integration_id: null,
      active: true,
    });
    await api(page, 'POST', '/api/sms-templates', {
      campaign_id: campaign.id,
      name: 'One',
      message: firstMessage,
      sequence_order: 1,
      delay_minutes: 0,
      active: true,
    });
    await api(page, 'POST', '/api/sms-templates', {
      campaign_id: campaign.id,
      name: 'Two',
      message: 'Last call: {checkout_url}',
      sequence_order: 2,
      delay_minutes: 1,
      active: true,
    });
    integration = await api<SmsIntegration>(page, 'POST', '/api/sms-webhook-integrations', {
      name: `Live ${id}`,
      funnel_id: funnel,
      sms_campaign_id: campaign.id,
      reminder_delay: 1,
      active: true,
    });

    const checkout = 'https://shop.example.com/c/1';
    expect(
      (
        await postSmsWebhook({
          event: 'contact_created',
          funnel_id: funnel,
          contact: { id: `a-${id}`, phone, first_name: 'Ann', checkout_url: checkout },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await postSmsWebhook({
          event: 'contact_created',
          funnel_id: funnel,
          contact: { id: `t-${id}`, phone: tollFree },
        })
      ).status,
    ).toBe(200);
    const toPhone = await until('two messages to the contact', () => {
      const m = fake.messages.filter((x) => x.to === phone);
      return m.length >= 2 ? m : undefined;
    });
    expect(toPhone.map((m) => m.body)).toEqual([
      `Hi Ann, your cart is waiting and it would be a shame to lose it: ${checkout}`,
      `Last call: ${checkout}`,
    ]);
    expect(fake.messages.some((m) => m.to === tollFree)).toBe(false);

    await page.goto(`${url}/sms-logs`);
    await page.getByRole('textbox', { name: 'Search' }).fill(phone);
    const rows = page.getByTestId('log-row');
    await rows.nth(1).waitFor();
    const first = `Hi Ann, your cart is waiting and it would be a shame to lose it: ${checkout}`;
    await rows.getByText(`${first.slice(0, 50)}...`).waitFor();
    await page.getByRole('textbox', { name: 'Search' }).fill(tollFree);
    const blocked = rows.filter({ hasText: tollFree });
    await blocked.getByText('Toll-free Blocked').waitFor();
    // The error column shows 30 characters and '...' (the full text is in the tooltip).
    const error = await blocked.getByTestId('log-error').textContent();
    expect(error).toMatch(/^Toll-free .{20}\.\.\.$/);
  });

  it('the Sent card counts the texts Twilio accepted while they wait for their status callback', async () => {
    const { page, url } = s;
    await page.goto(`${url}/sms-logs`);
    await page.getByRole('textbox', { name: 'Search' }).fill(phone);
    const rows = page.getByTestId('log-row');
    await rows.nth(1).waitFor();
    // Both texts are still Queued (no callback yet), the toll-free one was blocked: Sent grew by the two.
    expect(await rows.getByText('Queued', { exact: true }).count()).toBe(2);
    expect(await page.getByTestId('summary-Sent').textContent()).toBe(`Sent${sentBefore + 2}Accepted by Twilio`);
    await screenshotBoth(page, 'sms-logs-sent-card');
  });

  it('a signed delivery callback marks the message delivered; the stats show the rate', async () => {
    const { page, url } = s;
    const [first] = fake.messages.filter((m) => m.to === phone);
    await twilioCallback({
      MessageSid: first!.sid,
      MessageStatus: 'delivered',
      AccountSid: fake.accountSid,
      To: phone,
    });

    await page.goto(`${url}/sms-logs`);
    await page.getByRole('textbox', { name: 'Search' }).fill(first!.sid);
    await page.getByTestId('log-row').getByText('Delivered', { exact: true }).waitFor();

    await page.goto(`${url}/sms-webhook-events`);
    await choose(page, 'Type', 'SMS Delivery');
    await page
      .getByTestId('event-row')
      .filter({ hasText: first!.sid })
      .getByText('SMS Delivery', { exact: true })
      .waitFor();

    await page.goto(`${url}/sms-stats`);
    const card = page.getByRole('article', { name: integration.name });
    await card.waitFor();
    expect(await card.getByTestId('delivery-rate').textContent()).toBe('50%'); // 1 delivered of 2 sent
  });

  it('a second contact on the same phone is blocked as a duplicate and listed in the stats', async () => {
    const { page, url } = s;
    expect(
      (await postSmsWebhook({ event: 'contact_created', funnel_id: funnel, contact: { id: `b-${id}`, phone } })).status,
    ).toBe(200);
    await page.goto(`${url}/sms-contacts`);
    await page.getByRole('textbox', { name: 'Search' }).fill(`b-${id}`);
    await page.getByTestId('contact-row').getByText('Duplicate Blocked').waitFor({ timeout: 20_000 });

    await page.goto(`${url}/sms-stats`);
    await page
      .getByRole('article', { name: integration.name })
      .getByTestId('duplicate-phones')
      .getByText(phone)
      .waitFor();
  });

  it('STOP from the phone marks the contact opted out', async () => {
    const { page, url } = s;
    await twilioCallback({
      From: phone,
      To: '+15550009999',
      Body: 'STOP',
      MessageSid: `SMreply${id}`,
      AccountSid: fake.accountSid,
    });
    await page.goto(`${url}/sms-contacts`);
    await page.getByRole('textbox', { name: 'Search' }).fill(`a-${id}`);
    await page.getByTestId('contact-row').getByText('Opted out').waitFor();
  });

  it('a step due in the blackout is held: the contact and its one log row say until when, nothing is sent', async () => {
    const { page, url } = s;
    // From this UTC hour to two hours on: now is inside the window whatever the minute.
    const now = new Date();
    const endHour = (now.getUTCHours() + 2) % 24;
    const window = { blackout_start_hour: now.getUTCHours(), blackout_end_hour: endHour, blackout_timezone: 'UTC' };
    await api(page, 'POST', '/api/twilio/config', { blackout_enabled: true, ...window });
    try {
      // A burst may reuse the settings it read for SMS_RULES_CACHE_MS (250 ms): let that pass.
      await new Promise((r) => setTimeout(r, 500));
      const held = `+1555${String(Date.now() + 11).slice(-7)}`;
      const contact = { id: `h-${id}`, phone: held, first_name: 'Hal', checkout_url: 'https://shop.example.com/c/2' };
      expect((await postSmsWebhook({ event: 'contact_created', funnel_id: funnel, contact })).status).toBe(200);
      const ends = new Date(now);
      ends.setUTCHours(endHour, 0, 0, 0);
      if (ends <= now) ends.setUTCDate(ends.getUTCDate() + 1);
      // The time on the viewer's clock with its zone named, as the shared formatter writes a scheduled time.
      const hhmm = await page.evaluate(
        (iso) => new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(new Date(iso)),
        ends.toISOString(),
      );
      const text = `Held until ${hhmm} (blackout)`;

      await page.goto(`${url}/sms-contacts`);
      await page.getByRole('textbox', { name: 'Search' }).fill(contact.id);
      await page.getByTestId('contact-row').filter({ hasText: contact.id }).getByText(text).waitFor({ timeout: 20_000 });
      await screenshotBoth(page, 'sms-contacts-held');

      await page.goto(`${url}/sms-logs`);
      await page.getByRole('textbox', { name: 'Search' }).fill(held);
      const row = page.getByTestId('log-row');
      await row.getByText('Held (blackout)', { exact: true }).waitFor();
      await row.getByText(text).waitFor();
      expect(await row.count()).toBe(1);
      expect(fake.messages.some((m) => m.to === held)).toBe(false);
    } finally {
      await api(page, 'POST', '/api/twilio/config', { blackout_enabled: false });
    }
  });

  it("'Clear All Contacts' asks first, then empties the list", async () => {
    const { page, url } = s;
    await page.goto(`${url}/sms-contacts`);
    await page.getByTestId('contact-row').first().waitFor();
    await page.getByRole('button', { name: 'Clear All Contacts' }).click();
    const dialog = page.getByRole('dialog', { name: 'Clear all SMS contacts?' });
    await dialog.getByRole('button', { name: 'Clear All Contacts' }).click();
    await expectToast(page, 'All SMS contacts cleared');
    await page.getByText('No SMS contacts yet').waitFor();
    // The confirmation closes (after its exit transition).
    await dialog.waitFor({ state: 'hidden' });
  });
});
