// Stripe Checkout and WooCommerce in Chromium through the gateway: both connected from the UI (the
// integration form, then the secret and the sender on the card), the senders' signed samples posted (Stripe signed
// with the official library's generateTestHeaderString, WooCommerce with base64 HMAC-SHA256 of the body), the contacts
// with their carts on Contacts and the contact page, their reminders (simulated: no Resend key), then the purchases
// (Stripe's recovered session, WooCommerce's order turning paid) stopping them. A stack of its own (fresh-stack):
// a reminder "minute" is a second. Screenshots: .run/screenshots/senders31-*.png.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Stripe from 'stripe';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openedDialog, screenshotPath, signIn } from './browser';
import { startFreshStack, type FreshStack } from './fresh-stack';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const STRIPE_SECRET = 'whsec_firstStripeShop0123456789abcdef';
const WOO_SECRET = 'woo-secret-kettle-and-co-0123456789';

let stack: FreshStack;
let browser: Browser;
let page: Page;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- fixtures are edited field by field
const fixture = (source: string, name: string): Record<string, any> =>
  JSON.parse(readFileSync(path.resolve(__dirname, '../../packages/sources/src', source, 'fixtures', `${name}.json`), 'utf8'));

async function post(url: string, raw: string, headers: Record<string, string>) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** As Stripe signs: the official library's test header (t=, v1=) over the exact bytes posted. */
function postAsStripe(url: string, body: unknown) {
  const raw = JSON.stringify(body);
  return post(url, raw, { 'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload: raw, secret: STRIPE_SECRET }) });
}

/** As WooCommerce signs (class-wc-webhook.php): base64 HMAC-SHA256 of the body, the topic and delivery in headers. */
function postAsWooCommerce(url: string, body: unknown, topic: string, delivery: string) {
  const raw = JSON.stringify(body);
  const [resource, event] = topic.split('.');
  return post(url, raw, {
    'X-WC-Webhook-Source': 'https://kettle-and-co.example.com/',
    'X-WC-Webhook-Topic': topic,
    'X-WC-Webhook-Resource': resource!,
    'X-WC-Webhook-Event': event!,
    'X-WC-Webhook-ID': '31',
    'X-WC-Webhook-Delivery-ID': delivery,
    'X-WC-Webhook-Signature': createHmac('sha256', WOO_SECRET).update(raw).digest('base64'),
  });
}

async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const res = await fetch(url, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return res.json();
    },
    { method, url, body },
  ) as Promise<T>;
}

async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 45_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The page at both widths, nothing past a phone's edge, screenshots opened by the reviewer. */
async function shootBoth(name: string) {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.waitForLoadState('networkidle');
    await waitFor(`${name} at ${viewport.width} to fit`, () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 5_000);
    await page.screenshot({ path: screenshotPath(`senders31-${name}-${viewport.width}.png`), fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

/** One integration from the form (email only), then its secret and sender on its card. */
async function connect(name: string, funnel: string, secret: string, sender: string) {
  await page.goto(`${stack.url}/webhook-integrations`);
  await page.getByRole('button', { name: 'Add New Integration' }).click();
  const form = await openedDialog(page, 'New Integration');
  await form.getByLabel(/^Name/).fill(name);
  await form.getByLabel(/^Funnel ID/).fill(funnel);
  await form.getByLabel(/^Reminder Delay/).fill('3');
  await form.getByRole('button', { name: 'Create' }).click();
  const card = page.getByRole('article', { name }).first();
  await card.waitFor();
  await card.getByRole('button', { name: 'Set secret' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('signing-secret').fill(secret);
  await dialog.getByLabel('Sender').click();
  await page.getByRole('option', { name: sender }).click();
  await page.getByRole('listbox').waitFor({ state: 'hidden' });
  await dialog.getByRole('button', { name: 'Save secret' }).click();
  await card.getByText(`Secret set · ${sender}`).waitFor();
  const integration = (await api<{ funnel_id: string; webhook_url: string; id: number }[]>('GET', '/api/webhook-integrations')).find((i) => i.funnel_id === funnel)!;
  return integration;
}

interface Row {
  id: number;
  email: string;
  status: string;
  simulated?: boolean;
  cart: { total: number | null; currency: string | null; items: { name: string; quantity: number }[] } | null;
}
const contacts = () => api<{ items: Row[] }>('GET', '/api/contacts?page=1&pageSize=50').then((r) => r.items);
const contact = async (email: string) => (await contacts()).find((c) => c.email === email) ?? null;

beforeAll(async () => {
  stack = await startFreshStack({ REMINDER_DELAY_UNIT_MS: '1000', REMINDER_SWEEP_INTERVAL_MS: '2000' });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: DESKTOP, timezoneId: 'Europe/Paris', locale: 'en-GB' });
  await signIn(page, 'admin', stack.adminPassword, stack.url);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
}, 60_000);

it('Stripe and WooCommerce connected from the UI: signed carts become contacts with their carts, reminded, then stopped by their purchases', async () => {
  const stripe = await connect('Stripe shop', 'stripe-shop', STRIPE_SECRET, 'Stripe Checkout');
  const woo = await connect('Kettle & Co', 'kettle-and-co', WOO_SECRET, 'WooCommerce');
  await page.getByRole('article', { name: 'Kettle & Co' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('senders31-integrations-1440.png'), fullPage: true });

  // Stripe: the shopper's session expired (its recovery link valid for a day); WooCommerce: an order left pending.
  const expired = fixture('stripe', 'checkout-session-expired');
  expired.data.object.after_expiration.recovery.expires_at = Math.floor(Date.now() / 1000) + 86_400;
  const session = expired.data.object.id as string;
  expect(await postAsStripe(stripe.webhook_url, expired)).toMatchObject({ status: 200, body: { message: 'Contact created', contact_id: session } });
  const pending = fixture('woocommerce', 'order-created-pending');
  expect(await postAsWooCommerce(woo.webhook_url, pending, 'order.created', 'wc-delivery-1')).toMatchObject({ status: 200, body: { message: 'Contact created' } });
  // A signature that is not the shop's creates nothing.
  expect((await post(stripe.webhook_url, JSON.stringify(expired), { 'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload: JSON.stringify(expired), secret: 'whsec_not_the_shops_secret_000000' }) })).status).toBe(401);

  // Both carts kept: Stripe's total (no restricted key, so no line items), WooCommerce's items and total.
  const lea = await waitFor('Léa with her cart', () => contact('lea.martin@example.com'));
  // Cart amounts are integer minor units (contracts cart.ts).
  expect(lea.cart).toMatchObject({ total: 7920, currency: 'EUR' });
  const oliver = await waitFor('Oliver with his cart', () => contact('oliver.hughes@example.com'));
  expect(oliver.cart).toMatchObject({ total: 4890, currency: 'GBP', items: [{ name: 'Ceramic pour-over - White', quantity: 1 }, { name: 'Paper filters (100)', quantity: 2 }] });

  // Their reminders fall due (simulated: no Resend key on this stack).
  await waitFor('both reminders', async () => (await contacts()).filter((c) => c.status === 'sent').length === 2);

  await page.goto(`${stack.url}/contacts`);
  await page.getByTestId('contact-link').first().waitFor();
  const statuses = async () =>
    (await page.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => `${tr.querySelector('[data-testid="contact-link"]')?.textContent} ${tr.querySelector('[data-status]')?.textContent}`))).sort();
  expect(await statuses()).toEqual(['lea.martin@example.com Sent (simulated)', 'oliver.hughes@example.com Sent (simulated)']);
  await shootBoth('contacts-reminded');

  // Oliver's page: the cart's lines and the WooCommerce delivery, verified.
  await page.getByTestId('contact-link').filter({ hasText: 'oliver.hughes@example.com' }).click();
  await page.waitForURL(/\/contacts\/\d+$/);
  await page.getByText('Paper filters (100)').waitFor();
  expect(await page.locator('main').textContent()).toContain('£48.90');
  const oliverDelivery = page.locator('[data-testid="timeline-entry"][data-kind="delivery"]').first();
  expect(await oliverDelivery.textContent()).toMatch(/WooCommerce · signature verified/);
  await shootBoth('contact-woocommerce');

  // The purchases: Stripe's new session recovered the expired one; WooCommerce's order turns paid.
  const completed = fixture('stripe', 'checkout-session-completed-recovered');
  expect(completed.data.object.recovered_from).toBe(session);
  expect(await postAsStripe(stripe.webhook_url, completed)).toMatchObject({ status: 200, body: { message: 'Purchase recorded', matched: 1 } });
  const paid = fixture('woocommerce', 'order-updated-processing');
  expect(await postAsWooCommerce(woo.webhook_url, paid, 'order.updated', 'wc-delivery-2')).toMatchObject({ status: 200, body: { matched: 1 } });
  await waitFor('both purchased', async () => (await contacts()).every((c) => c.status === 'purchased'));

  await page.goto(`${stack.url}/contacts`);
  await page.getByTestId('contact-link').first().waitFor();
  expect(await statuses()).toEqual(['lea.martin@example.com Purchased', 'oliver.hughes@example.com Purchased']);
  await shootBoth('contacts-purchased');

  // Léa's page: the Stripe deliveries verified, her simulated reminder, the purchase with its amount.
  await page.getByTestId('contact-link').filter({ hasText: 'lea.martin@example.com' }).click();
  await page.waitForURL(/\/contacts\/\d+$/);
  await page.locator('[data-testid="timeline-entry"][data-kind="purchase"]').waitFor();
  const entries = await page.getByTestId('timeline-entry').evaluateAll((els) => els.map((el) => `${el.getAttribute('data-kind')}: ${el.textContent}`));
  // Newest first: the completed session, the refused forgery (stored, named, never applied), the expired session.
  expect(entries.filter((e) => e.startsWith('delivery'))).toEqual([
    expect.stringMatching(/Delivery received: purchase.*From Stripe · signature verified.*checkout\.session\.completed/),
    expect.stringMatching(/Delivery refused \(signature\).*signature refused/),
    expect.stringMatching(/Delivery received: contact created.*From Stripe · signature verified.*checkout\.session\.expired/),
  ]);
  // The purchase names the checkout it recovered (Stripe's recovered_from: Léa's expired session).
  expect(entries.find((e) => e.startsWith('purchase'))).toContain('€79.20');
  expect(entries.find((e) => e.startsWith('purchase'))).toContain(`recovered checkout ${session}`);
  expect(entries.filter((e) => e.startsWith('message'))).toEqual([expect.stringMatching(/simulated/i)]);
  await shootBoth('contact-stripe');
}, 300_000);
