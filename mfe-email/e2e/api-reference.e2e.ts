// The Documentation page's "API reference" tab renders the gateway's OpenAPI document (Swagger UI, loaded
// only when the tab opens: the page itself fetches none of it), offline: every request stays on the stack's origin.
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, readStack, screenshotPath, signIn } from '../../infra/e2e/browser';

const { url, adminPassword } = readStack();

let browser: Browser;
let page: Page;
const scripts: { url: string; bytes: number }[] = [];
const foreign: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.on('request', (req) => {
    if (!req.url().startsWith(url) && !req.url().startsWith('data:')) foreign.push(req.url());
  });
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    void res.body().then(
      (b) => scripts.push({ url: res.url(), bytes: b.length }),
      () => undefined,
    );
  });
  await signIn(page, 'admin', adminPassword, url);
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

const scriptBytes = () => scripts.reduce((sum, s) => sum + s.bytes, 0);

it('shows every call of the API, the webhooks first among them, once its tab is opened', async () => {
  await page.goto(`${url}/documentation`);
  await page.getByRole('tab', { name: 'ClickFunnels Setup' }).waitFor();
  await page.waitForLoadState('networkidle');
  const before = scriptBytes();
  const loadedBefore = scripts.length;

  await page.getByRole('tab', { name: 'API reference' }).click();
  const panel = page.getByRole('tabpanel');
  // Swagger UI's operation rows: method and path.
  const webhook = panel.locator('.opblock-post', { has: page.locator('[data-path="/api/webhook"]') });
  await webhook.first().waitFor({ timeout: 30_000 });
  await expect(panel.getByText('Abandoned Cart Tracker API').first().isVisible()).resolves.toBe(true);
  for (const p of ['/api/sms/webhook', '/api/twilio/webhooks', '/api/resend/webhooks', '/api/unsubscribe/one-click', '/api/users/{id}'])
    expect(await panel.locator(`[data-path="${p}"]`).count()).toBeGreaterThan(0);

  // The renderer came with the click: hundreds of kilobytes of script the page had not loaded before.
  expect(scripts.length).toBeGreaterThan(loadedBefore);
  expect(scriptBytes() - before).toBeGreaterThan(500_000);

  // An operation opens with its signature headers.
  await webhook.first().locator('.opblock-summary').click();
  await webhook.first().getByText('X-Webhook-ClickFunnels-Signature').waitFor();
  await page.screenshot({ path: screenshotPath('documentation-api-reference-1440.png') });
  expect(foreign).toEqual([]);
}, 90_000);
