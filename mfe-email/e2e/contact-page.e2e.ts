// One person's story end to end through the gateway: a funnel contact and its purchase posted to the webhook, the
// contact page opened from its Contacts row, its timeline (one gateway call asking both services) showing the
// delivery with its sender and verification and the purchase with its amount; the same person's SMS contact linked,
// its page telling the same story. At 1440x900 and 390x844.
import type { Browser, Page } from 'playwright-core';
import type { TimelinePage } from '@act/contracts/src/timeline';
import { launchBrowser, readStack, screenshotPath, signIn } from '../../infra/e2e/browser';

const { url, adminPassword } = readStack();
const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const funnel = `story-${tag}`;
const email = `story.${tag}@example.com`;

let browser: Browser;
let page: Page;

async function api<T>(method: string, p: string, body?: unknown): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ method, p, body }) => {
      const res = await fetch(p, {
        method,
        credentials: 'include',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    { method, p, body },
  ) as Promise<{ status: number; body: T }>;
}

async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A funnel's POST to the plain webhook: no session, like the sender's servers. */
async function deliver(path: string, body: unknown) {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
}

/**
 * Elements running past a phone's screen (tag, test id or text), none expected, once the layout has settled after
 * the resize (the shell's sidebar leaves with a transition).
 */
async function overflowing(): Promise<string[]> {
  const read = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('main *')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
        .map((el) => `${el.tagName} ${el.getAttribute('data-testid') ?? ''} ${(el.textContent ?? '').slice(0, 40)}`),
    );
  const end = Date.now() + 3_000;
  let found = await read();
  while (found.length > 0 && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    found = await read();
  }
  return found;
}

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await signIn(page, 'admin', adminPassword);
  // Both channels for the funnel; reminders far off, so the story is what is posted here.
  expect((await api('POST', '/api/webhook-integrations', { name: `Story ${tag}`, funnel_id: funnel, reminder_delay: 600 })).status).toBe(201);
  const campaign = await api<{ id: number }>('POST', '/api/sms-campaigns', { name: `Story ${tag}`, integration_id: null, active: true });
  expect(campaign.status).toBe(201);
  const sms = await api('POST', '/api/sms-webhook-integrations', { name: `Story SMS ${tag}`, funnel_id: funnel, sms_campaign_id: campaign.body.id, reminder_delay: 600, active: true });
  expect(sms.status).toBe(201);
});
afterAll(async () => {
  await browser?.close();
});

describe('the contact page', () => {
  it('opens from the Contacts row and shows the person\'s story across both channels, on a desktop and a phone', async () => {
    await deliver('/api/webhook', { event: 'contact_created', funnel_id: funnel, contact: { id: `c-${tag}`, email, phone: '+1 (555) 014-2233', first_name: 'Story' } });
    const emailId = await waitFor('the email contact', async () => (await api<{ id: number; email: string }[]>('GET', '/api/contacts')).body.find((c) => c.email === email)?.id);
    // The SMS side hears the contact over NATS: the page's call finds the same person there.
    await waitFor('the SMS contact', async () => (await api<TimelinePage>('GET', `/api/contacts/${emailId}/timeline`)).body.contacts.some((c) => c.side === 'sms'));
    await deliver('/api/webhook', { event: 'purchase_created', funnel_id: funnel, contact: { id: `c-${tag}`, email }, purchase: { amount: 149.5, currency: 'USD' } });

    await page.goto(`${url}/contacts`);
    const link = page.getByTestId('contact-link').filter({ hasText: email });
    await link.waitFor();
    const timelineCall = page.waitForResponse((r) => /\/api\/contacts\/\d+\/timeline$/.test(new URL(r.url()).pathname));
    await link.click();
    await page.waitForURL(/\/contacts\/\d+$/);
    const first = await timelineCall;
    expect(first.status()).toBe(200);
    const id = Number(new URL(page.url()).pathname.split('/').pop());

    // The ledger hears the purchase over NATS: reload until the page shows it.
    const story = await waitFor('the purchase on the timeline', async () => {
      const r = await api<TimelinePage>('GET', `/api/contacts/${id}/timeline`);
      return r.body.entries.some((e) => e.kind === 'purchase') && r.body;
    });
    expect(story.contact).toMatchObject({ side: 'email', id, email, integration_name: `Story ${tag}`, funnel_id: funnel, status: 'purchased' });
    expect(story.contacts.map((c) => c.side).sort()).toEqual(['email', 'sms']);
    expect(story.entries.map((e) => `${e.side}:${e.kind}`)).toEqual(expect.arrayContaining(['email:delivery', 'email:purchase']));
    // Newest first: the purchase's delivery before the contact's.
    const deliveries = story.entries.filter((e) => e.kind === 'delivery').map((e) => e.status);
    expect(deliveries).toEqual(['purchase_created', 'contact_created']);
    // A purchase both ledgers hold is shown once.
    expect(story.entries.filter((e) => e.kind === 'purchase')).toHaveLength(1);

    await page.reload();
    const entries = page.getByTestId('timeline-entry');
    await page.locator('[data-testid="timeline-entry"][data-kind="purchase"]').waitFor();
    expect(await entries.count()).toBe(story.entries.length);
    await expect(page.getByTestId('contact-identity').textContent()).resolves.toContain(email);
    const purchase = page.locator('[data-testid="timeline-entry"][data-kind="purchase"]');
    expect(await purchase.textContent()).toContain('$149.50');
    const delivery = page.locator('[data-testid="timeline-entry"][data-kind="delivery"]').last();
    expect(await delivery.textContent()).toContain('Delivery received: contact created');
    expect(await delivery.textContent()).toContain('From Generic · unsigned');
    await page.screenshot({ path: screenshotPath('contact-page-email-1440.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    // Nothing runs off a phone's screen.
    expect(await overflowing()).toEqual([]);
    await page.screenshot({ path: screenshotPath('contact-page-email-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });

    // The same person's SMS contact, linked from the page, tells the same story from its side.
    await page.getByTestId('other-contacts').getByRole('link').first().click();
    await page.waitForURL(/\/sms-contacts\/\d+$/);
    // The SMS remote's page, not the email page still on screen while its chunk loads.
    await page.getByTestId('contact-identity').filter({ hasText: '+15550142233' }).waitFor();
    await page.locator('[data-testid="timeline-entry"][data-kind="purchase"]').waitFor();
    const smsId = Number(new URL(page.url()).pathname.split('/').pop());
    const smsStory = (await api<TimelinePage>('GET', `/api/sms-contacts/${smsId}/timeline`)).body;
    expect(smsStory.entries.map((e) => `${e.key} ${e.at}`)).toEqual(story.entries.map((e) => `${e.key} ${e.at}`));
    expect(await page.getByTestId('timeline-entry').count()).toBe(story.entries.length);
    expect(await page.getByTestId('contact-identity').textContent()).toContain('+15550142233');
    await page.screenshot({ path: screenshotPath('contact-page-sms-1440.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await overflowing()).toEqual([]);
    await page.screenshot({ path: screenshotPath('contact-page-sms-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('is reached from the SMS Contacts row too, and answers a contact that does not exist with a card', async () => {
    await page.goto(`${url}/sms-contacts`);
    const link = page.getByTestId('contact-link').filter({ hasText: '+15550142233' });
    await link.first().click();
    await page.waitForURL(/\/sms-contacts\/\d+$/);
    await page.getByTestId('contact-identity').waitFor();
    await page.goto(`${url}/contacts/999999999`);
    await page.getByText('Could not load this contact').waitFor();
  });
});
