// Recovered revenue on the integration cards and campaign pages of both sides, in Chromium through the
// gateway: a campaign and an integration on each side, an email to one contact and a text to another (published
// as the services publish them), their purchases and an organic one; then each card and campaign page shows its
// figures from the page's one summary. Screenshots at 1440x900 and 390x844 (.run/screenshots/revenue-cards-*.png).
import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, readStack, screenshotPath, signIn } from './browser';

const stack = readStack();
const tag = `revc-${Date.now().toString(36)}`;
const name = `Cards ${tag}`;
const DAY = 86_400_000;

async function publish(subject: string, payload: Record<string, unknown>): Promise<void> {
  const nc = await connect({ servers: stack.natsUrl ?? 'nats://127.0.0.1:4222' });
  try {
    await nc.jetstream().publish(`${stack.natsPrefix ?? ''}${subject}`, JSON.stringify({ eventId: randomUUID(), occurredAt: new Date().toISOString(), ...payload }));
  } finally {
    await nc.close();
  }
}

async function api<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  const r = await page.evaluate(
    async ([m, u, b]) => {
      const res = await fetch(u as string, { method: m as string, headers: { 'content-type': 'application/json' }, body: b === undefined ? undefined : JSON.stringify(b) });
      return { ok: res.ok, status: res.status, text: await res.text() };
    },
    [method, url, body] as const,
  );
  if (!r.ok) throw new Error(`${method} ${url}: ${r.status} ${r.text}`);
  return (r.text ? JSON.parse(r.text) : null) as T;
}

interface Seeded {
  emailCampaign: number;
  smsCampaign: number;
}

async function seed(page: Page): Promise<Seeded> {
  const emailCampaign = (await api<{ id: number }>(page, 'POST', '/api/email/campaigns', { name: `Mail ${tag}` })).id;
  await api(page, 'POST', '/api/webhook-integrations', { name, funnel_id: tag, reminder_delay: 600, campaign_id: emailCampaign });
  const smsCampaign = (await api<{ id: number }>(page, 'POST', '/api/sms-campaigns', { name: `Texts ${tag}` })).id;
  await api(page, 'POST', '/api/sms-webhook-integrations', { name, funnel_id: tag, reminder_delay: 600, active: true, sms_campaign_id: smsCampaign });
  for (const id of ['a', 'b', 'c']) await api(page, 'POST', '/api/webhook', { event: 'contact_created', funnel_id: tag, contact: { id: `${tag}-${id}`, email: `${tag}-${id}@example.com` } });
  await publish('send.email.sent', { source: 'svc-email', channel: 'email', funnelId: tag, contactId: `${tag}-a`, email: `${tag}-a@example.com`, phone: null, integrationId: null, campaignId: emailCampaign, templateId: 11, step: 1, messageId: null, sendId: `${tag}-mail`, sentAt: new Date(Date.now() - 2 * DAY).toISOString() });
  // The email campaign also reminds a fourth contact, who does not buy: its recovery rate is 1 of 2.
  await publish('send.email.sent', { source: 'svc-email', channel: 'email', funnelId: tag, contactId: `${tag}-d`, email: `${tag}-d@example.com`, phone: null, integrationId: null, campaignId: emailCampaign, templateId: 11, step: 1, messageId: null, sendId: `${tag}-mail-d`, sentAt: new Date(Date.now() - 2 * DAY).toISOString() });
  await publish('send.sms.sent', { source: 'svc-sms', channel: 'sms', funnelId: tag, contactId: `${tag}-b`, email: null, phone: '+14155550177', integrationId: null, campaignId: smsCampaign, templateId: 21, step: 2, messageId: `SM${tag}`, sentAt: new Date(Date.now() - DAY).toISOString() });
  // The purchases come after the reminders in time; in arrival order either way is linked (the ledger's tests).
  await api(page, 'POST', '/api/webhook', { event: 'purchase_created', funnel_id: tag, contact: { id: `${tag}-a` }, purchase: { amount: 120, currency: 'USD' } });
  await api(page, 'POST', '/api/sms/webhook', { event_type: 'purchase_created', funnel_id: tag, contact_id: `${tag}-b`, amount: 80, currency: 'EUR' });
  await api(page, 'POST', '/api/webhook', { event: 'purchase_created', funnel_id: tag, contact: { id: `${tag}-c` }, purchase: { amount: 30, currency: 'USD' } });
  return { emailCampaign, smsCampaign };
}

/** The figure block inside `scope` once it shows `revenue` (the ledgers fill from NATS: the page is reloaded until then). */
async function figureOf(page: Page, scope: () => Locator, revenue: string): Promise<Locator> {
  for (let i = 0; ; i++) {
    const figure = scope().getByTestId('revenue-figure');
    const text = await figure.getByTestId('revenue-figure-revenue').textContent({ timeout: 15_000 }).catch(() => null);
    if (text === revenue || i >= 20) {
      expect(text).toBe(revenue);
      return figure;
    }
    await page.waitForTimeout(1_000);
    await page.reload();
  }
}

const texts = async (figure: Locator, ids: string[]) => Promise.all(ids.map((id) => figure.getByTestId(`revenue-figure-${id}`).textContent()));

describe('recovered revenue on cards and campaign pages', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('integration cards and campaign pages of both sides show revenue, recovery rate and the best template/step', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, 'admin', stack.adminPassword);
    const { emailCampaign } = await seed(page);
    // Both summaries asked once per page, whatever the number of cards.
    const summaries: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/revenue/summary')) summaries.push(r.url());
    });
    const card = () => page.getByRole('article', { name, exact: true });

    await page.goto(`${stack.url}/webhook-integrations`);
    let figure = await figureOf(page, card, '€80.00 · $120.00');
    // The funnel's two purchases after a reminder (an email and a text), of three contacts reminded; the organic one not.
    expect(await texts(figure, ['rate', 'recovered', 'best'])).toEqual(['66.7%', '2', 'Template 11, step 1']);
    await card().scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('revenue-cards-email-integrations-1440.png') });
    expect(new Set(summaries).size).toBe(1);
    expect(summaries.every((u) => u.endsWith('/api/revenue/summary?days=30'))).toBe(true);

    summaries.length = 0;
    await page.goto(`${stack.url}/sms-webhooks`);
    // SMS data only: the text's purchase, of the one contact texted; the email's purchase is the email side's.
    figure = await figureOf(page, card, '€80.00');
    expect(await texts(figure, ['rate', 'recovered', 'best'])).toEqual(['100%', '1', 'Template 21, step 2']);
    await card().scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('revenue-cards-sms-integrations-1440.png') });
    expect(new Set(summaries).size).toBe(1);

    // Campaign pages: only what that campaign's reminders brought back, and its recovery rate over the contacts it
    // reminded (the email campaign: two contacts, one bought).
    await page.goto(`${stack.url}/email-templates/${emailCampaign}`);
    figure = await figureOf(page, () => page.locator('main'), '$120.00');
    expect(await texts(figure, ['rate', 'recovered', 'best'])).toEqual(['50%', '1', 'Template 11, step 1']);
    await page.screenshot({ path: screenshotPath('revenue-cards-email-campaign-1440.png') });

    await page.goto(`${stack.url}/sms-campaigns`);
    const campaignCard = () => page.getByRole('article', { name: `Texts ${tag}`, exact: true });
    figure = await figureOf(page, campaignCard, '€80.00');
    expect(await texts(figure, ['rate', 'recovered', 'best'])).toEqual(['100%', '1', 'Template 21, step 2']);
    await campaignCard().scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('revenue-cards-sms-campaigns-1440.png') });

    // Phone width: the same figures, nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${stack.url}/webhook-integrations`);
    figure = await figureOf(page, card, '€80.00 · $120.00');
    await card().screenshot({ path: screenshotPath('revenue-cards-email-integration-390.png') });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.goto(`${stack.url}/sms-campaigns`);
    figure = await figureOf(page, campaignCard, '€80.00');
    await campaignCard().screenshot({ path: screenshotPath('revenue-cards-sms-campaign-390.png') });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  }, 240_000);
});
