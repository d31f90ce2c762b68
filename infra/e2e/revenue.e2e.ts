// Recovered revenue in Chromium through the gateway: purchases posted to both webhooks, reminders as the
// services publish them (send.email.sent / send.sms.sent on the stack's NATS), then the Dashboard's and SMS
// Statistics' revenue panels filtered to this test's integration, their CSV, and screenshots at desktop and phone
// widths (.run/screenshots/revenue-*.png).
import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, readStack, screenshotPath, signIn } from './browser';

const stack = readStack();
const tag = `rev-${Date.now().toString(36)}`;
const name = `Revenue ${tag}`;
const DAY = 86_400_000;

async function publish(subject: string, payload: Record<string, unknown>): Promise<void> {
  const nc = await connect({ servers: stack.natsUrl ?? 'nats://127.0.0.1:4222' });
  try {
    await nc.jetstream().publish(`${stack.natsPrefix ?? ''}${subject}`, JSON.stringify({ eventId: randomUUID(), occurredAt: new Date().toISOString(), ...payload }));
  } finally {
    await nc.close();
  }
}

/** Both integrations, three contacts, an email to one and a text to another, then three purchases (one organic). */
async function seed(page: Page): Promise<void> {
  const post = (p: string, body: unknown) =>
    page.evaluate(
      async ([url, b]) => {
        const r = await fetch(url as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
        return r.ok ? null : `${url as string} ${r.status} ${await r.text()}`;
      },
      [p, body] as const,
    );
  const problems = [
    await post('/api/webhook-integrations', { name, funnel_id: tag, reminder_delay: 600 }),
    await post('/api/sms-webhook-integrations', { name, funnel_id: tag, reminder_delay: 600, active: true }),
  ];
  for (const id of ['a', 'b', 'c']) problems.push(await post('/api/webhook', { event: 'contact_created', funnel_id: tag, contact: { id: `${tag}-${id}`, email: `${tag}-${id}@example.com` } }));
  // Campaign ids no campaign of the stack has: with 1 and 2, a campaign another test created first (revenue-cards'
  // email campaign on a fresh stack) showed this test's revenue too.
  await publish('send.email.sent', { source: 'svc-email', channel: 'email', funnelId: tag, contactId: `${tag}-a`, email: `${tag}-a@example.com`, phone: null, integrationId: null, campaignId: 990_001, templateId: 11, step: 1, messageId: null, sendId: `${tag}-mail`, sentAt: new Date(Date.now() - 2 * DAY).toISOString() });
  await publish('send.sms.sent', { source: 'svc-sms', channel: 'sms', funnelId: tag, contactId: `${tag}-b`, email: null, phone: '+14155550199', integrationId: null, campaignId: 990_002, templateId: 21, step: 2, messageId: `SM${tag}`, sentAt: new Date(Date.now() - DAY).toISOString() });
  // Let the ledgers take the reminders first, as in life (a late one would be linked all the same).
  await page.waitForTimeout(1_500);
  problems.push(await post('/api/webhook', { event: 'purchase_created', funnel_id: tag, contact: { id: `${tag}-a` }, purchase: { amount: 120, currency: 'USD' } }));
  problems.push(await post('/api/sms/webhook', { event_type: 'purchase_created', funnel_id: tag, contact_id: `${tag}-b`, amount: 80, currency: 'EUR' }));
  problems.push(await post('/api/webhook', { event: 'purchase_created', funnel_id: tag, contact: { id: `${tag}-c` }, purchase: { amount: 30, currency: 'USD' } }));
  expect(problems.filter(Boolean)).toEqual([]);
}

async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label }).first().click();
  await page.getByRole('option', { name: option }).click();
}

/**
 * The Dashboard counts both channels: the email (a) and the text (b) each recovered one, c is organic. SMS Statistics
 * counts SMS data only: the email-recovered purchase is not its own. The published sends made no log on either side,
 * so no contact of the cohort was really reminded: the funnel and the rate say so.
 */
const FIGURES = {
  dashboard: { count: '2 of 3', recovered: '€80.00 · $120.00' },
  sms: { count: '1 of 2', recovered: '€80.00' },
} as const;

async function expectFigures(page: Page, side: keyof typeof FIGURES = 'dashboard'): Promise<void> {
  const panel = page.getByTestId('revenue-panel');
  const want = FIGURES[side];
  // The ledgers fill from NATS within a moment; the panel refetches on focus, so reload until they have.
  for (let i = 0; ; i++) {
    const text = await panel.getByTestId('revenue-recovered-count').textContent({ timeout: 10_000 }).catch(() => null);
    if (text === want.count || i >= 20) {
      expect(text).toBe(want.count);
      break;
    }
    await page.waitForTimeout(1_000);
    await page.getByRole('button', { name: '7 days' }).click();
    await page.getByRole('button', { name: '30 days' }).click();
  }
  expect(await panel.getByTestId('revenue-recovered').textContent()).toBe(want.recovered);
  expect(await panel.getByTestId('revenue-organic').textContent()).toBe('$30.00');
  expect(await panel.getByTestId('revenue-rate').textContent()).toBe('—');
  expect(await panel.getByTestId('funnel-reminded').textContent()).toBe('0');
  expect(await panel.getByTestId('funnel-purchased').textContent()).toBe('0');
}

/**
 * The list of recovered purchases under the figures: newest first, the text's purchase (b, posted last) then the
 * email's (a), each with its contact's page, the integration, the amount and the credited reminder; c is organic.
 */
async function expectPurchaseRows(page: Page): Promise<void> {
  const rows = page.getByTestId('revenue-purchases').getByTestId('revenue-purchase-row');
  await rows.nth(1).waitFor({ timeout: 20_000 });
  const texts = await rows.allTextContents();
  expect(texts).toHaveLength(2);
  expect(texts[0]).toContain(`${tag}-b`);
  expect(texts[0]).toContain(name);
  expect(texts[0]).toContain('€80.00');
  expect(texts[0]).toContain('SMS · campaign 990002 · template 21 · step 2');
  // The purchases named their buyers by the sender's contact id only.
  expect(texts[1]).toContain(`${tag}-a`);
  expect(texts[1]).toContain('$120.00');
  expect(texts[1]).toContain('Email · campaign 990001 · template 11 · step 1');
  for (const i of [0, 1]) expect(await rows.nth(i).getByRole('link').getAttribute('href')).toMatch(/^\/contacts\/\d+$/);
}

describe('recovered revenue in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('Dashboard and SMS Statistics show the seeded figures, and the CSV holds the same rows', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, 'admin', stack.adminPassword);
    await seed(page);

    await page.goto(`${stack.url}/`);
    await page.getByTestId('revenue-panel').waitFor();
    await choose(page, 'Integration', name);
    await expectFigures(page);
    expect(await page.getByTestId('funnel-contacts').textContent()).toBe('3');
    expect(await page.getByTestId('funnel-clicked').textContent()).toBe('0');
    await page.getByTestId('revenue-chart').locator('svg').first().waitFor();
    await expectPurchaseRows(page);
    await page.screenshot({ path: screenshotPath('revenue-dashboard-1440.png'), fullPage: true });
    await page.getByTestId('revenue-purchases').screenshot({ path: screenshotPath('revenue-purchases-1440.png') });
    // Each row's contact opens that contact's page.
    await page.getByTestId('revenue-purchase-row').nth(1).getByRole('link').click();
    await page.waitForURL(/\/contacts\/\d+$/);
    await page.getByText(`${tag}-a@example.com`).first().waitFor();
    await page.goBack();
    await page.getByTestId('revenue-panel').waitFor();
    await choose(page, 'Integration', name);

    // The CSV behind "Export CSV → Per integration" holds the table's row, one line per currency.
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const href = await page.getByRole('menuitem', { name: 'Per integration' }).getAttribute('href');
    await page.keyboard.press('Escape');
    const csv = await page.evaluate(async (u) => (await fetch(u!)).text(), href);
    const rows = csv.trim().split('\r\n');
    expect(rows[0]).toBe('integration_id,name,funnel_id,purchases,recovered,reminded,recovery_rate,currency,recovered_revenue,organic_revenue');
    expect(rows.slice(1).map((r) => r.split(',').slice(1).join(','))).toEqual([`${name},${tag},3,2,2,1,EUR,80,0`, `${name},${tag},3,2,2,1,USD,120,30`]);

    await page.goto(`${stack.url}/sms-stats`);
    await page.getByTestId('revenue-panel').waitFor();
    await choose(page, 'Integration', name);
    await expectFigures(page, 'sms');
    expect(await page.getByTestId('funnel-clicked').textContent()).toBe('Not reported');
    await page.screenshot({ path: screenshotPath('revenue-sms-stats-1440.png'), fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${stack.url}/`);
    await page.getByTestId('revenue-panel').waitFor();
    await choose(page, 'Integration', name);
    await expectFigures(page);
    await page.getByTestId('revenue-panel').screenshot({ path: screenshotPath('revenue-dashboard-390.png') });
    await expectPurchaseRows(page);
    await page.getByTestId('revenue-purchases').screenshot({ path: screenshotPath('revenue-purchases-390.png') });
    // Nothing wider than the phone's screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  }, 180_000);
});
