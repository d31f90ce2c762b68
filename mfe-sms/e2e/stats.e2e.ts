// /sms-stats in Chromium through the gateway: filters drive the query, the figures and chart render.
import type { Browser } from 'playwright-core';
import type { SmsIntegration } from '@act/contracts/src/sms-api';
import { launchBrowser } from '../../infra/e2e/browser';
import { api, choose, openSession, optionsOf, uid, type Session } from './helpers';

describe('SMS statistics', () => {
  let browser: Browser;
  let s: Session;
  let integration: SmsIntegration;

  beforeAll(async () => {
    browser = await launchBrowser();
    s = await openSession(browser);
    const id = uid();
    integration = await api<SmsIntegration>(s.page, 'POST', '/api/sms-webhook-integrations', {
      name: `E2E Stats ${id}`,
      funnel_id: `e2e-stats-${id}`,
      reminder_delay: 30,
      active: true,
    });
  });
  afterAll(async () => {
    if (integration)
      await api(s.page, 'DELETE', `/api/sms-webhook-integrations/${integration.id}`).catch(() => undefined);
    await browser?.close();
  });

  it('loads today for all integrations with headline cards, breakdowns and the chart', async () => {
    const { page, url } = s;
    const first = page.waitForRequest((r) => r.url().endsWith('/api/sms-stats-simple?date_range=today'));
    await page.goto(`${url}/sms-stats`);
    await first;
    await page.getByRole('heading', { name: 'SMS Statistics', exact: true }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Date Range' }).textContent()).toBe('Today');
    expect(await page.getByRole('combobox', { name: 'Integration' }).textContent()).toBe('All Integrations');
    for (const label of ['Total SMS Sent', 'Delivered', 'Unique Phones', 'Purchases Recorded'])
      await page.getByTestId(`summary-${label}`).waitFor();
    await page.getByRole('heading', { name: 'Status breakdown', exact: true }).waitFor();
    await page.getByTestId('stats-chart').locator('svg').first().waitFor();
    const card = page.getByRole('article', { name: integration.name });
    await card.getByTestId('delivery-rate').waitFor();
    expect(await card.getByTestId('delivery-rate').textContent()).toBe('0%');
    expect(await optionsOf(page, 'Date Range')).toEqual([
      'Today',
      'Yesterday',
      'Last 7 days',
      'Last 28 days',
      'Last 90 days',
    ]);
  });

  it('sends the chosen range and integration, and Refresh asks again', async () => {
    const { page } = s;
    const week = `/api/sms-stats-simple?date_range=last_7_days`;
    let request = page.waitForRequest((r) => r.url().endsWith(week));
    await choose(page, 'Date Range', 'Last 7 days');
    await request;
    const one = `${week}&integration_id=${integration.id}`;
    request = page.waitForRequest((r) => r.url().endsWith(one));
    await choose(page, 'Integration', integration.name);
    await request;
    await page.getByRole('article', { name: integration.name }).waitFor();
    request = page.waitForRequest((r) => r.url().endsWith(one));
    await page.getByRole('button', { name: 'Refresh' }).click();
    await request;
    expect(await page.getByText(/^Error loading SMS statistics/).count()).toBe(0);
  });
});
