// The list screens at a phone's size (390x844) in Chromium: an empty table's message is on screen (centred
// across a 900 px table, "No contacts found." would sit off to the right), each table row is a card as wide as
// the screen so its last cells and their actions are on screen without any sideways scroll, the page itself never
// scrolls sideways, and the Twilio callback URL is shown whole. Screenshots of each screen at 1440x900 and 390x844
// go to .run/screenshots.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser, readStack, screenshotPath, signIn } from './browser';

const stack = readStack();
const PHONE = { width: 390, height: 844 };
const tag = `narrow-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

let browser: Browser;
let context: BrowserContext;
let page: Page;

/** A signed-in JSON POST from the page (same origin, its cookie), as the screens make them. */
async function post<T>(url: string, body: unknown): Promise<T> {
  return page.evaluate(
    async ({ url, body }) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return res.json();
    },
    { url, body },
  ) as Promise<T>;
}

async function choose(label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  await page.getByRole('listbox').waitFor({ state: 'detached' });
}

/** Inside the viewport as it is now (no scrolling of the page or the table). */
async function expectOnScreen(what: string, locator: Locator) {
  const box = (await locator.boundingBox())!;
  const { width, height } = page.viewportSize()!;
  const inside = box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height;
  expect([what, box, inside]).toEqual([what, box, true]);
}

/** The page itself is as wide as the viewport: wide content scrolls inside its own container. */
async function expectNoPageScroll() {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

/** `table`'s container does not scroll sideways (its rows are cards), and `target` is on screen once the page is scrolled down to it, where it is clickable. */
async function expectReachable(table: Locator, target: Locator) {
  const scroller = table.locator('xpath=ancestor::div[contains(@class, "MuiTableContainer-root")][1]');
  const sizes = await scroller.evaluate((el) => ({ client: el.clientWidth, scroll: el.scrollWidth }));
  expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
  expect(await target.isVisible()).toBe(true);
  await target.scrollIntoViewIfNeeded();
  await expectOnScreen('target scrolled into view', target);
  const card = (await scroller.boundingBox())!;
  const box = (await target.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(card.x + card.width + 1);
  await expectNoPageScroll();
}

/** The empty list's `text` is on screen and the table `table` has nothing hidden to its side. */
async function expectEmptyTextInView(text: string, table: string) {
  const empty = page.getByText(text, { exact: true });
  await empty.waitFor();
  await expectOnScreen(text, empty);
  await expectReachable(page.getByRole('table', { name: table }), empty);
}

async function shoot(name: string) {
  await page.screenshot({ path: screenshotPath(`${name}-${page.viewportSize()!.width}.png`), fullPage: true });
}

beforeAll(async () => {
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: PHONE });
  page = await context.newPage();
  await signIn(page, 'admin', stack.adminPassword, stack.url);
  // An email integration with no contacts (its filter gives a really empty list), and an SMS contact with its
  // integration, so the SMS table has a row and an action.
  await post('/api/webhook-integrations', { name: `Empty ${tag}`, funnel_id: `${tag}-email`, reminder_delay: 600 });
  await post('/api/sms-webhook-integrations', {
    name: `Phone ${tag}`,
    funnel_id: tag,
    reminder_delay: 600,
    active: true,
  });
  await post('/api/sms/webhook', {
    event: 'contact_created',
    funnel_id: tag,
    contact: { id: tag, phone: '+14155550142', first_name: 'Nora' },
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

it('Contacts: the empty list says so on screen at 390 px, with nothing hidden to its side', async () => {
  await page.goto(`${stack.url}/contacts`);
  await choose('Integration', `Empty ${tag}`);
  await expectEmptyTextInView('No contacts found.', 'Contacts');
  await shoot('narrow-contacts-empty');
});

it('Email Templates and Email Campaigns: the empty text on screen at 390 px, the row actions on the row’s card', async () => {
  const name = `Narrow ${tag}`;
  const campaign = await post<{ id: number }>('/api/email/campaigns', { name, type: 'abandoned_cart', active: true });
  await page.goto(`${stack.url}/email-templates/${campaign.id}`);
  await expectEmptyTextInView(
    'No templates found. Create your first template using the button above.',
    'Email templates',
  );
  await shoot('narrow-email-templates-empty');

  await page.goto(`${stack.url}/email-campaigns`);
  await expectReachable(
    page.getByRole('table', { name: 'Email campaigns' }),
    page.getByRole('button', { name: `Delete ${name}` }),
  );
  await shoot('narrow-email-campaigns');
});

it('SMS Contacts: the row’s Mark Purchased is on its card on screen, and works', async () => {
  await page.goto(`${stack.url}/sms-contacts`);
  await page.getByRole('textbox', { name: 'Search' }).fill(tag);
  const row = page.getByTestId('contact-row').filter({ hasText: tag });
  await row.waitFor();
  const action = row.getByRole('button', { name: 'Mark Purchased' });
  await expectReachable(page.getByRole('table').first(), action);
  await shoot('narrow-sms-contacts');
  await action.click();
  const dialog = page.getByRole('dialog', { name: 'Mark Contact as Purchased' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
});

it('SMS Logs and Twilio settings: no sideways page scroll; the callback URL is shown whole', async () => {
  await page.goto(`${stack.url}/sms-logs`);
  await page.getByRole('heading', { name: 'SMS Logs', exact: true }).waitFor();
  await page.waitForFunction(() => !document.querySelector('[role="progressbar"]'));
  await expectNoPageScroll();

  await page.goto(`${stack.url}/twilio-settings`);
  const callback = page.getByRole('textbox', { name: 'Delivery status callbacks' });
  await callback.waitFor();
  expect(await callback.inputValue()).toBe(`${stack.url}/api/twilio/webhooks`);
  // Every character laid out inside the field: it wraps rather than scrolling the text out of sight.
  expect(await callback.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect(await callback.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
  await expectNoPageScroll();
});

it("Webhook Events: a refused delivery's reason stays on its card at 390 px", async () => {
  // An integration that takes Stripe's signatures only; a delivery without one is refused with the reason shown.
  const integration = await post<{ id: number }>('/api/webhook-integrations', { name: `Signed ${tag}`, funnel_id: `${tag}-signed`, reminder_delay: 600 });
  const signed = await page.evaluate(async (id) => {
    const res = await fetch(`/api/webhook-integrations/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhook_secret: 'whsec_narrow0123456789abcdefghijkl', webhook_source: 'stripe' }),
    });
    return (await res.json()) as { webhook_url: string };
  }, integration.id);
  const event = readFileSync(path.join(__dirname, '../../packages/sources/src/stripe/fixtures/checkout-session-expired.json'), 'utf8');
  const refused = await page.evaluate(
    async ({ url, body }) => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status,
    { url: new URL(signed.webhook_url).pathname, body: event },
  );
  expect(refused).toBe(401);
  await page.goto(`${stack.url}/webhooks`);
  const reason = page.getByTestId('delivery-cell').getByText(/^Rejected: Missing signature/).first();
  await reason.waitFor();
  await expectReachable(page.getByRole('table').first(), reason);
  await shoot('narrow-webhook-events');
});

it('screenshots of the five screens at 1440x900 and 390x844', async () => {
  for (const viewport of [{ width: 1440, height: 900 }, PHONE]) {
    await page.setViewportSize(viewport);
    for (const screen of ['/contacts', '/email-logs', '/sms-contacts', '/sms-logs', '/twilio-settings']) {
      await page.goto(`${stack.url}${screen}`);
      await page.waitForLoadState('networkidle');
      await page.waitForFunction(() => !document.querySelector('[role="progressbar"]'), undefined, { timeout: 15_000 });
      await shoot(`narrow${screen.replace('/', '-')}`);
      if (viewport.width === PHONE.width) await expectNoPageScroll();
    }
  }
  await page.setViewportSize(PHONE);
});
