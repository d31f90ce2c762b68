// The Privacy Requests page through the gateway in Chromium (issue 18): a wrong address is refused inline, a right
// one is exported from both sides with a download; admins only.
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { launchBrowser, readStack, signIn } from '../../infra/e2e/browser';

let browser: Browser;
const stack = readStack();
const run = Date.now().toString(36);
const SHOTS = `${process.cwd()}/.run/screenshots`;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

it('exports one person from both sides and offers the document; keeps a plain user out', async () => {
  const address = `shopper.${run}@example.com`;
  const phone = `+1415888${String(Date.now() % 10_000).padStart(4, '0')}`;
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signIn(page, 'admin', stack.adminPassword);
  // The person on both sides: an integration of each for a funnel of this run, then a delivery to each webhook.
  const seeded = await page.evaluate(
    async ([funnel, email, ph]) => {
      const post = (path: string, body: unknown) => fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.status);
      const contact = { id: funnel, email, phone: ph, first_name: 'Pat' };
      return [
        await post('/api/webhook-integrations', { name: `Privacy ${funnel}`, funnel_id: funnel, reminder_delay: 600 }),
        await post('/api/sms-webhook-integrations', { name: `Privacy ${funnel}`, funnel_id: funnel, reminder_delay: 600, active: true }),
        await post('/api/webhook', { event: 'contact_created', funnel_id: funnel, contact }),
        await post('/api/sms/webhook', { event: 'contact_created', funnel_id: funnel, contact }),
      ];
    },
    [`privacy-${run}`, address, phone] as const,
  );
  expect(seeded).toEqual([201, 201, 200, 200]);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Privacy Requests' }).click();
  await page.getByRole('heading', { name: 'Privacy Requests' }).waitFor();

  await page.getByLabel('Email address').fill('not-an-address');
  await page.getByRole('button', { name: 'Export data' }).click();
  await page.getByRole('alert').filter({ hasText: 'Enter a valid email address' }).waitFor();

  await page.getByLabel('Email address').fill(address);
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Export data' }).click();
  const row = page.getByRole('table').locator('tbody tr').filter({ hasText: address });
  await row.getByRole('link', { name: 'Download JSON' }).waitFor({ timeout: 30_000 });
  expect(await row.innerText()).toContain('1 contacts');
  const href = await row.getByRole('link', { name: 'Download JSON' }).getAttribute('href');
  const doc = await page.evaluate(async (h) => (await fetch(h!)).json(), href);
  expect(doc.data['svc-email'].contacts.map((c: { email: string }) => c.email)).toEqual([address]);
  expect(doc.data['svc-sms'].contacts.map((c: { phone: string }) => c.phone)).toEqual([phone]);
  await page.screenshot({ path: `${SHOTS}/privacy-requests-1440.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/privacy-requests-390.png`, fullPage: true });
  await context.close();

  const user = `priv${run}`;
  const adminCtx = await browser.newContext();
  const adminPage = await adminCtx.newPage();
  await signIn(adminPage, 'admin', stack.adminPassword);
  const made = await adminPage.evaluate(
    async (u) => (await fetch('/api/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: u, password: 'plain-user-pw1', role: 'user' }) })).status,
    user,
  );
  expect(made).toBe(201);
  await adminCtx.close();
  const userCtx = await browser.newContext();
  const userPage = await userCtx.newPage();
  await signIn(userPage, user, 'plain-user-pw1');
  const nav = userPage.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('link', { name: 'Dashboard' }).waitFor();
  expect(await nav.getByRole('link', { name: 'Privacy Requests' }).count()).toBe(0);
  expect(await userPage.evaluate(async () => (await fetch('/api/privacy-requests')).status)).toBe(403);
  await userCtx.close();
});
