// The Privacy Requests page through the gateway in Chromium: a wrong address is refused inline, a right
// one is exported from both sides with a download, or erased on both sides after a confirmation; admins only.
import type { Browser } from 'playwright-core';
import { launchBrowser, openedDialog, readStack, screenshotPath, seedShopperOnBothSides, signIn } from '../../infra/e2e/browser';

let browser: Browser;
const stack = readStack();
const run = Date.now().toString(36);

beforeAll(async () => {
  browser = await launchBrowser();
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
  const seeded = await seedShopperOnBothSides(page, `privacy-${run}`, { id: `privacy-${run}`, email: address, phone });
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
  await page.screenshot({ path: screenshotPath('privacy-requests-1440.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath('privacy-requests-390.png'), fullPage: true });
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

it('erases one person on both sides after a confirmation that says it cannot be undone', async () => {
  const address = `erase.${run}@example.com`;
  const phone = `+1415777${String((Date.now() + 5) % 10_000).padStart(4, '0')}`;
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signIn(page, 'admin', stack.adminPassword);
  expect(await seedShopperOnBothSides(page, `erase-${run}`, { id: `erase-${run}`, email: address, phone })).toEqual([201, 201, 200, 200]);
  // The SMS side hears of the contact from its webhook; wait until both sides hold it, as an admin would see.
  await page.goto(`${stack.url}/privacy-requests`);
  await page.getByRole('heading', { name: 'Privacy Requests' }).waitFor();

  await page.getByLabel('Email address').fill(address);
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Erase data' }).click();
  const title = "Erase this person's data?";
  const dialog = await openedDialog(page, title);
  expect(await dialog.innerText()).toContain('This cannot be undone.');
  expect(await dialog.innerText()).toContain(address);
  await page.screenshot({ path: screenshotPath('privacy-erase-confirm-1440.png') });
  // Cancel leaves everything as it was: no request made.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const table = page.getByRole('table');
  expect(await table.locator('tbody tr').filter({ hasText: address }).count()).toBe(0);

  await page.getByRole('button', { name: 'Erase data' }).click();
  await dialog.getByRole('button', { name: 'Erase permanently' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const row = table.locator('tbody tr').filter({ hasText: 'Erased on both sides' }).first();
  await row.waitFor({ timeout: 30_000 });
  const text = await row.innerText();
  expect(text).toContain('Erase');
  expect(text).toMatch(/Erased \([0-9a-f]{12}\)/);
  expect(text).toContain('Erased: ');
  expect(text).toContain('1 contacts');
  // The list no longer shows the address or the number anywhere.
  expect(await table.innerText()).not.toContain(address);
  await page.screenshot({ path: screenshotPath('privacy-erase-1440.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath('privacy-erase-390.png'), fullPage: true });

  // An export of the same person now finds nothing on either side.
  await page.getByLabel('Email address').fill(address);
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Erase data' }).click();
  await openedDialog(page, title);
  await page.screenshot({ path: screenshotPath('privacy-erase-confirm-390.png') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Export data' }).click();
  const exportRow = table.locator('tbody tr').filter({ hasText: address });
  await exportRow.getByRole('link', { name: 'Download JSON' }).waitFor({ timeout: 30_000 });
  expect((await exportRow.innerText()).match(/Nothing held/g)?.length).toBe(2);
  await context.close();
});
