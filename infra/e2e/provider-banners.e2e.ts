// Work that waits is told, and figures are true, in Chromium through the gateway: with Twilio not configured (the
// stack has no account SID) SMS Contacts, SMS Logs and SMS Campaigns say so at the top with the waiting count the API
// gives and a waiting contact's row says why; with live sending off and no Resend key the Dashboard and Email
// Campaigns say so, the revenue panel says in one line that emails are simulated, and a contact whose reminder was
// only logged reads "Sent (simulated)" (on a stack of its own whose reminder minute is a second). At 1440x900 and
// 390x844 (.run/screenshots/banners-*.png).
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, readStack, screenshotPath, signIn } from './browser';
import { startFreshStack, type FreshStack } from './fresh-stack';

const stack = readStack();
const tag = `ban-${Date.now().toString(36)}`;

async function post(page: Page, url: string, body: unknown): Promise<unknown> {
  return page.evaluate(
    async ([u, b]) => {
      const r = await fetch(u as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
      const text = await r.text();
      if (!r.ok) throw new Error(`${u as string} ${r.status} ${text}`);
      return text ? (JSON.parse(text) as unknown) : null;
    },
    [url, body] as const,
  );
}

const getJson = (page: Page, url: string) => page.evaluate(async (u) => (await (await fetch(u)).json()) as unknown, url);

describe('provider banners and simulated reminders', () => {
  let browser: Browser;
  // The waiting SMS step and the logged reminder come one "minute" after their contact: on a stack of its own where a
  // minute is a second (the shared stack's minute is a real one, a minute of waiting for each run).
  let fresh: FreshStack;
  beforeAll(async () => {
    [browser, fresh] = await Promise.all([
      launchBrowser(),
      startFreshStack({ REMINDER_DELAY_UNIT_MS: '1000', REMINDER_SWEEP_INTERVAL_MS: '2000', SMS_DELAY_UNIT_MS: '1000', SMS_DUE_SCAN_MS: '1000' }),
    ]);
  }, 180_000);
  afterAll(async () => {
    await fresh?.stop();
    await browser?.close();
  }, 60_000);

  it('SMS pages say Twilio waits, the Dashboard says emails are simulated, at 1440x900 and 390x844', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, 'admin', fresh.adminPassword, fresh.url);
    const funnel = tag;
    // The shortest delay (one minute): the SMS step then falls due and waits for Twilio, the email is only logged.
    const campaign = (await post(page, '/api/sms-campaigns', { name: `Banner ${funnel}`, integration_id: null, active: true })) as { id: number };
    await post(page, '/api/sms-templates', { campaign_id: campaign.id, name: 'Step 1', message: 'Hi {first_name}', sequence_order: 1, delay_minutes: 0, active: true });
    await post(page, '/api/sms-webhook-integrations', { name: `Banner ${funnel}`, funnel_id: funnel, sms_campaign_id: campaign.id, reminder_delay: 1, active: true });
    await post(page, '/api/sms/webhook', { event: 'contact_created', funnel_id: funnel, contact: { id: `${funnel}-s`, phone: '+15552090001', first_name: 'Ann' } });
    await post(page, '/api/webhook-integrations', { name: `Banner ${funnel}`, funnel_id: funnel, reminder_delay: 1 });
    await post(page, '/api/webhook', { event: 'contact_created', funnel_id: funnel, contact: { id: `${funnel}-e`, email: `${funnel}-e@shop.test` } });

    let twilio = (await getJson(page, '/api/sms/provider-status')) as { waiting: number; message: string };
    for (let i = 0; i < 100 && twilio.waiting === 0; i++) {
      await page.waitForTimeout(1_000);
      twilio = (await getJson(page, '/api/sms/provider-status')) as { waiting: number; message: string };
    }
    expect(twilio.waiting).toBeGreaterThan(0);
    expect(twilio.message).toMatch(/^Twilio is not configured: \d+ SMS steps? (is|are) waiting\. Set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN and restart svc-sms\.$/);

    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`${fresh.url}/sms-contacts`);
      const banner = page.getByTestId('provider-banner-twilio');
      await banner.waitFor();
      expect(await banner.textContent()).toMatch(/Twilio is not configured: \d+ SMS steps? (is|are) waiting\. Set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN and restart svc-sms\./);
      const reason = page.getByTestId('waiting-reason').first();
      await reason.waitFor();
      expect(await reason.textContent()).toBe('Waiting: Twilio is not configured');
      await page.screenshot({ path: screenshotPath(`banners-sms-contacts-${width}.png`), fullPage: true });
      for (const path of ['/sms-logs', '/sms-campaigns']) {
        await page.goto(`${fresh.url}${path}`);
        await page.getByTestId('provider-banner-twilio').waitFor();
      }
      await page.screenshot({ path: screenshotPath(`banners-sms-campaigns-${width}.png`), fullPage: true });

      // The email side: live sending off, no Resend key. Once the reminder is logged (the API says so), the contact
      // reads simulated. A check right after each reload would find the list not yet drawn, every time.
      type Row = { contact_id: string; status: string; simulated?: boolean };
      const logged = async () => ((await getJson(page, '/api/contacts?page=1')) as { items: Row[] }).items.some((c) => c.contact_id === `${funnel}-e` && c.status === 'sent' && c.simulated === true);
      for (let i = 0; i < 60 && !(await logged()); i++) await page.waitForTimeout(1_000);
      await page.goto(`${fresh.url}/contacts`);
      await page.getByText('Sent (simulated)').first().waitFor({ timeout: 15_000 });
      await page.screenshot({ path: screenshotPath(`banners-contacts-${width}.png`), fullPage: true });

      await page.goto(`${fresh.url}/`);
      const resend = page.getByTestId('provider-banner-resend');
      await resend.waitFor();
      expect(await resend.textContent()).toContain('Resend is not configured: reminders are only logged (live sending is off)');
      const line = page.getByTestId('revenue-simulated');
      await line.waitFor();
      expect(await line.textContent()).toMatch(/^Emails are simulated: live sending is off, so no reminder reached a shopper and none is credited\./);
      await page.screenshot({ path: screenshotPath(`banners-dashboard-${width}.png`), fullPage: true });
      await page.goto(`${fresh.url}/email-campaigns`);
      await page.getByTestId('provider-banner-resend').waitFor();
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
    await context.close();
  }, 300_000);

  it('Resend in the app: a key and from-address stored from the page are sealed, shown only by date and last four, and said to be in use', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, 'admin', stack.adminPassword);
    const secret = `SealedE2e${tag.replace(/[^a-z0-9]/gi, '')}`;
    const key = `re_${secret}_K7q2`;
    const from = `Shop <orders-${secret}@shop.example>`;
    try {
      await page.goto(`${stack.url}/resend-config`);
      const card = page.getByTestId('stored-credentials');
      await card.getByLabel('New API key').fill(key);
      await card.getByLabel('New from address').fill(from);
      await card.getByRole('button', { name: 'Save' }).click();
      // The stack sets no RESEND_API_KEY or RESEND_FROM: the stored values are the ones in force, and the page says so.
      await card.getByTestId('stored-api-key').filter({ hasText: /^API key: Set on .+ \(ending K7q2\)$/ }).waitFor();
      expect(await card.getByTestId('stored-from').textContent()).toMatch(/^From address: Set on .+ \(ending ple>\)$/);
      const status = page.getByTestId('config-status');
      await status.getByText(/^In use: stored in the app \(Set on .+ \(ending K7q2\)\)$/).waitFor();
      expect(await status.getByText('Configured', { exact: true }).count()).toBe(1);
      // Write-only: the fields are empty again, and neither value is on the page or in any answer it read.
      expect(await card.getByLabel('New API key').inputValue()).toBe('');
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await page.reload();
        await card.getByTestId('stored-api-key').filter({ hasText: 'ending K7q2' }).waitFor();
        expect(await page.content()).not.toContain(secret);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.screenshot({ path: screenshotPath(`banners-resend-stored-${width}.png`), fullPage: true });
      }
      for (const url of ['/api/resend/config', '/api/resend/status']) expect(JSON.stringify(await getJson(page, url))).not.toContain(secret);
    } finally {
      // The stack is shared: clear them (null clears), so later tests see Resend unconfigured again.
      await post(page, '/api/resend/config', { apiKey: null, from: null });
      await context.close();
    }
  });
});
