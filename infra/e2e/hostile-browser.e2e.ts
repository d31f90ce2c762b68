// Stored XSS: markup saved through the API in texts that pages show (integration name, SMS campaign
// name, SMS template message, user full name, webhook payload) must appear as literal text, and never run.
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, readStack, signIn } from './browser';
import { json, login, ok } from './hostile/client';
import { newTag } from './hostile/fixtures';

const stack = readStack();
const tag = newTag();
/** Each payload would set window.__xss if the page ever turned it into markup. */
const payload = {
  integration: `<img src=x onerror="window.__xss='integration'"> ${tag} integration`,
  smsCampaign: `<svg onload="window.__xss='sms-campaign'"></svg> ${tag} campaign`,
  smsTemplate: `<script>window.__xss='sms-template'</script> ${tag} message`,
  fullName: `<img src=x onerror="window.__xss='user'"> ${tag}`,
  // No double quotes: the page shows the delivery as received, where JSON escapes them.
  webhook: `<img src=x onerror=window.__xss='webhook'>${tag}`,
};

let browser: Browser;
let adminCookie: string;
const created: { integration?: number; smsCampaign?: number; user?: number } = {};

beforeAll(async () => {
  adminCookie = await login('admin', stack.adminPassword);
  const as = { cookie: adminCookie };
  const [integration, smsCampaign, user] = await Promise.all([
    ok<{ id: number }>(
      'POST',
      '/api/webhook-integrations',
      { name: payload.integration, funnel_id: `${tag}-f`, active: true },
      as,
    ),
    ok<{ id: number }>('POST', '/api/sms-campaigns', { name: payload.smsCampaign, active: false }, as),
    ok<{ id: number }>(
      'POST',
      '/api/users',
      { username: `${tag}-xss`, password: `Pw-${tag}`, role: 'user', full_name: payload.fullName },
      as,
    ),
  ]);
  Object.assign(created, { integration: integration.id, smsCampaign: smsCampaign.id, user: user.id });
  await ok(
    'POST',
    '/api/sms-templates',
    { campaign_id: smsCampaign.id, name: `${tag} template`, message: payload.smsTemplate },
    as,
  );
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  const as = { cookie: adminCookie };
  if (created.integration) {
    await json('POST', `/api/webhook-integrations/${created.integration}/clear-contacts`, undefined, as);
    await json('DELETE', `/api/webhook-integrations/${created.integration}`, undefined, as);
  }
  if (created.smsCampaign) await json('DELETE', `/api/sms-campaigns/${created.smsCampaign}`, undefined, as);
  if (created.user) await json('DELETE', `/api/users/${created.user}`, undefined, as);
});

/** The literal text is on the page, no injected element exists, and no payload ran. */
async function expectShownAsText(page: Page, text: string) {
  await page.getByText(text).first().waitFor({ timeout: 20_000 });
  // An <img src=x> fails to load at once; give its onerror the chance to run before looking.
  await page.waitForTimeout(300);
  const state = await page.evaluate(() => ({
    flag: (window as unknown as { __xss?: string }).__xss ?? null,
    injected:
      document.querySelectorAll('img[src="x"], svg[onload]').length +
      [...document.scripts].filter((s) => s.text.includes('__xss')).length,
  }));
  expect(state).toEqual({ flag: null, injected: 0 });
}

it('shows stored markup as text on /webhook-integrations, /sms-campaigns, /users and /webhooks', async () => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await signIn(page, 'admin', stack.adminPassword, stack.url);

  await page.goto(`${stack.url}/webhook-integrations`);
  await expectShownAsText(page, payload.integration);

  await page.goto(`${stack.url}/sms-campaigns`);
  await expectShownAsText(page, payload.smsCampaign);
  await expectShownAsText(page, payload.smsTemplate);

  await page.goto(`${stack.url}/users`);
  await expectShownAsText(page, payload.fullName);

  // Posted last, so it is the newest delivery; other test files may post many meanwhile, hence the page size.
  await ok('POST', '/api/webhook', {
    event: 'contact_created',
    funnel_id: `${tag}-f`,
    contact: { id: `${tag}-c`, email: `${tag}@example.com`, first_name: payload.webhook },
  });
  await page.goto(`${stack.url}/webhooks`);
  await page.getByRole('table', { name: 'Webhook events' }).getByRole('row').nth(1).waitFor();
  if (!(await page.getByText(payload.webhook).first().isVisible())) {
    await page.getByRole('combobox', { name: 'Rows per page' }).click();
    await page.getByRole('option', { name: '250' }).click();
  }
  await expectShownAsText(page, payload.webhook);
  await context.close();
}, 90_000);
