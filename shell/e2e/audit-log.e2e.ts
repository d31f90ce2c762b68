// The Audit Log page through the gateway in Chromium: changes made on svc-auth and svc-email appear with
// who and what, secrets left out; admins only, in the sidebar and on the server.
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, readStack, screenshotPath, signIn } from '../../infra/e2e/browser';

let browser: Browser;
const stack = readStack();
const run = Date.now().toString(36);

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A JSON call from the signed-in page itself (same origin, its cookie), as the app's own screens make them. */
async function api(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: { id: number } }> {
  return page.evaluate(
    async ([m, p, b]) => {
      const r = await fetch(p as string, { method: m as string, headers: { 'content-type': 'application/json' }, body: b === undefined ? undefined : JSON.stringify(b) });
      const text = await r.text();
      return { status: r.status, body: text ? JSON.parse(text) : null };
    },
    [method, path, body] as const,
  );
}

it('shows an admin the changes made on each service, filters them, and keeps a plain user out', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signIn(page, 'admin', stack.adminPassword);

  const user = await api(page, 'POST', '/api/users', { username: `audited${run}`, password: 'plain-secret-pw1', role: 'user' });
  expect(user.status).toBe(201);
  const integration = await api(page, 'POST', '/api/webhook-integrations', { name: `Audited ${run}`, funnel_id: `audit-${run}` });
  expect(integration.status).toBe(201);
  const secret = `whsec-audit-${run}-do-not-log`;
  expect((await api(page, 'PATCH', `/api/webhook-integrations/${integration.body.id}`, { webhook_secret: secret })).status).toBe(200);
  // A rename: the row shows the field's value before and after, and nothing of what did not change.
  expect((await api(page, 'PATCH', `/api/webhook-integrations/${integration.body.id}`, { name: `Renamed ${run}`, funnel_id: `audit-${run}` })).status).toBe(200);

  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Audit Log' }).click();
  await page.waitForURL((u) => u.pathname === '/audit-log');
  await page.getByRole('heading', { name: 'Audit Log' }).waitFor();
  const rows = page.getByRole('table').locator('tbody tr');
  // Records travel over NATS to svc-auth: the page is reloaded until the email side's one is there.
  const deadline = Date.now() + 20_000;
  // The rename is the email side's last record: once it is listed, the earlier ones are too.
  while (!(await rows.filter({ hasText: `webhook-integration #${integration.body.id}` }).filter({ hasText: `Renamed ${run}` }).count())) {
    if (Date.now() > deadline) throw new Error('the email side\'s audit record did not appear');
    await page.waitForTimeout(500);
    await page.reload();
    await page.getByRole('heading', { name: 'Audit Log' }).waitFor();
  }
  const secretRow = rows.filter({ hasText: 'webhook_secret' }).first();
  expect(await secretRow.innerText()).toContain('svc-email');
  expect(await secretRow.innerText()).toContain('webhook_secret: [not set] → [set]');
  const renameRow = rows.filter({ hasText: `name: Audited ${run} → Renamed ${run}` });
  expect(await renameRow.count()).toBe(1);
  expect(await renameRow.first().innerText()).not.toContain('funnel_id');
  expect(await page.content()).not.toContain(secret);
  expect(await rows.filter({ hasText: `user #${user.body.id}` }).filter({ hasText: 'svc-auth' }).count()).toBeGreaterThan(0);
  expect(await page.content()).not.toContain('plain-secret-pw1');
  await page.screenshot({ path: screenshotPath('audit-log-1440.png') });

  // Filtered on the server: only the email side's records.
  await page.getByLabel('Service').click();
  // Listened for before the click: the answer may come before a listener set up after it.
  const filtered = page.waitForResponse((r) => r.url().includes('/api/audit-log?') && r.url().includes('service=svc-email'));
  await page.getByRole('option', { name: 'svc-email' }).click();
  await filtered;
  await rows.first().waitFor();
  const services = await rows.locator('td:nth-child(3)').allInnerTexts();
  expect(services.length).toBeGreaterThan(0);
  expect(new Set(services)).toEqual(new Set(['svc-email']));
  expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/api/audit-log/export.csv?service=svc-email');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath('audit-log-390.png'), fullPage: true });
  await context.close();

  // A plain user: no sidebar entry, the page sends them away, the server refuses.
  const userContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const userPage = await userContext.newPage();
  await signIn(userPage, `audited${run}`, 'plain-secret-pw1');
  const nav = userPage.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('link', { name: 'Dashboard' }).waitFor();
  expect(await nav.getByRole('link', { name: 'Audit Log' }).count()).toBe(0);
  expect((await api(userPage, 'GET', '/api/audit-log')).status).toBe(403);
  await userPage.goto(`${stack.url}/audit-log`);
  await userPage.waitForURL((u) => u.pathname !== '/audit-log');
  await userContext.close();
});
