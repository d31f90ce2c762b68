// Incentives in Chromium through the gateway: on an email campaign's page, upload a pool of 150 codes as a CSV file
// and see its count; a pool of 5 shows the under-100 warning; a step given a unique code from the pool says so; the
// same panel on an SMS campaign's card; an integration's shop for created codes, set by an admin, shown without its
// token; the Dashboard's revenue shows each step's codes redeemed, on both channels, from one Shopify order posted to
// the email integration (the SMS step's code marked through the relayed purchase). Screenshots at 1440x900 and
// 390x844 (.run/screenshots/incentives-*.png).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openedDialog, readStack, screenshotBoth, screenshotPath, signIn } from './browser';

const stack = readStack();
const tag = `inc-${Date.now().toString(36)}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ([m, u, b]) => {
      const r = await fetch(u as string, { method: m as string, headers: { 'content-type': 'application/json' }, body: b === undefined ? undefined : JSON.stringify(b) });
      const text = await r.text();
      return { status: r.status, body: text ? JSON.parse(text) : null };
    },
    [method, url, body] as const,
  );
}

const csv = (prefix: string, n: number) => `code\n${Array.from({ length: n }, (_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}`).join('\n')}\n`;

async function upload(page: Page, panel: ReturnType<Page['getByTestId']>, file: string, content: string) {
  await panel.getByRole('button', { name: 'Upload codes' }).click();
  const dialog = await openedDialog(page, 'Upload codes');
  await dialog.getByTestId('pool-file').setInputFiles({ name: file, mimeType: 'text/csv', buffer: Buffer.from(content) });
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('incentives in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('an email campaign page: a CSV pool uploaded shows its count, a small one warns, a step takes a unique code', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, 'admin', stack.adminPassword);
    const campaign = (await call(page, 'POST', '/api/email/campaigns', { name: `Incentives ${tag}` })).body;
    const template = (await call(page, 'POST', '/api/resend/templates', { campaign_id: campaign.id, name: 'First email', subject: 'Your cart', from_name: 'Shop', html_content: '<p>Code {{discountCode}}</p>', template_order: 1, delay_hours: 0 })).body;

    await page.goto(`${stack.url}/email-templates/${campaign.id}`);
    const panel = page.getByTestId('incentives-panel');
    await panel.waitFor();
    await upload(page, panel, `spring-${tag}.csv`, csv(`SP${tag}`, 150));
    const big = panel.getByTestId('code-pools').locator('div', { hasText: `spring-${tag}` }).first();
    await expect(big.getByTestId('pool-remaining').textContent()).resolves.toBe('150');
    await expect(big.textContent()).resolves.toContain('150 of 150 codes left');
    expect(await big.getByTestId('pool-warning').count()).toBe(0);

    await upload(page, panel, `last-${tag}.csv`, csv(`LA${tag}`, 5));
    const small = panel.getByTestId('code-pools').locator('div', { hasText: `last-${tag}` }).first();
    await expect(small.getByTestId('pool-remaining').textContent()).resolves.toBe('5');
    await expect(small.getByTestId('pool-warning').textContent()).resolves.toBe('Only 5 codes left: upload more before the pool runs out');

    // A bad line is refused with its line number, nothing stored.
    await panel.getByRole('button', { name: 'Upload codes' }).click();
    const bad = await openedDialog(page, 'Upload codes');
    await bad.getByTestId('pool-file').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('code\nGOOD1\nnot ok!\n') });
    await bad.getByRole('button', { name: 'Upload' }).click();
    await expect(bad.getByTestId('pool-upload-error').textContent()).resolves.toContain('Line 3: "not ok!"');
    await bad.getByRole('button', { name: 'Cancel' }).click();

    const step = panel.getByTestId(`incentive-step-${template.id}`);
    await expect(step.getByTestId('incentive-summary').textContent()).resolves.toBe('No code');
    await step.getByRole('button', { name: 'Change incentive' }).click();
    const dialog = await openedDialog(page, 'Incentive');
    await dialog.getByRole('combobox', { name: 'Code in the message' }).click();
    await page.getByRole('option', { name: 'A unique code from a pool' }).click();
    await dialog.getByRole('combobox', { name: 'Code pool' }).click();
    await page.getByRole('option', { name: `spring-${tag} (150 of 150 left)` }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect(step.getByTestId('incentive-summary').textContent()).resolves.toBe(`Unique code from "spring-${tag}"`);
    await expect(step.getByTestId('incentive-redemptions').textContent()).resolves.toBe('No codes given yet');
    const stored = await call(page, 'GET', `/api/email/templates/${template.id}/incentive`);
    expect(stored.body).toMatchObject({ kind: 'pool' });

    await panel.scrollIntoViewIfNeeded();
    await screenshotBoth(page, 'incentives-email');
    await context.close();
  });

  it("an integration's shop for created codes: set by an admin, shown without its token", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, 'admin', stack.adminPassword);
    const integration = (await call(page, 'POST', '/api/webhook-integrations', { name: `Shop ${tag}`, funnel_id: `shop-${tag}`, reminder_delay: 60 })).body;
    await page.goto(`${stack.url}/webhook-integrations`);
    const card = page.getByRole('article', { name: `Shop ${tag}` });
    const line = card.getByTestId('shop-codes');
    // The line reads "…" until the integration's shop settings arrive.
    await line.getByTestId('shop-codes-status').filter({ hasNotText: '…' }).waitFor();
    await expect(line.getByTestId('shop-codes-status').textContent()).resolves.toBe('None: codes from pools or fixed codes only');
    await line.getByRole('button', { name: 'Set shop' }).click();
    const dialog = await openedDialog(page, 'Shop for unique codes');
    await dialog.getByLabel('myshopify.com domain').fill('north-goods.myshopify.com');
    await dialog.getByLabel('Admin API access token').fill('shpat_e2e_secret_token');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await line.getByTestId('shop-codes-status').filter({ hasText: 'north-goods.myshopify.com' }).waitFor();
    await expect(line.getByTestId('shop-codes-status').textContent()).resolves.toBe('Shopify north-goods.myshopify.com (admin token set)');
    const stored = await call(page, 'GET', `/api/email/integrations/${integration.id}/shop`);
    expect(stored.body).toEqual({ platform: 'shopify', shop: 'north-goods.myshopify.com', has_key: true, has_secret: false });
    expect(JSON.stringify(stored.body)).not.toContain('shpat_e2e_secret_token');
    await card.scrollIntoViewIfNeeded();
    await screenshotBoth(page, 'incentives-shop');
    await context.close();
  });

  it('an SMS campaign card: the same panel, a pool uploaded and its count', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, 'admin', stack.adminPassword);
    const campaign = (await call(page, 'POST', '/api/sms-campaigns', { name: `Incentives ${tag}`, integration_id: null, active: true })).body;
    await call(page, 'POST', '/api/sms-templates', { campaign_id: campaign.id, name: 'First text', message: 'Code {discount_code}', sequence_order: 1, delay_minutes: 0, active: true });
    await page.goto(`${stack.url}/sms-campaigns`);
    const card = page.getByRole('article', { name: `Incentives ${tag}` });
    const panel = card.getByTestId('incentives-panel');
    await panel.waitFor();
    await upload(page, panel, `texts-${tag}.csv`, csv(`TX${tag}`, 120));
    const pool = panel.getByTestId('code-pools').locator('div', { hasText: `texts-${tag}` }).first();
    await expect(pool.getByTestId('pool-remaining').textContent()).resolves.toBe('120');
    await panel.scrollIntoViewIfNeeded();
    await screenshotBoth(page, 'incentives-sms');
    await context.close();
  });

  it('the Dashboard shows each step’s codes redeemed, discount and revenue, email and SMS, from one order posted to the email integration', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, 'admin', stack.adminPassword);
    const funnel = `red-${tag}`;
    const token = `tok-${tag}`;
    const shopper = `red.${tag}@example.com`;
    const phone = `+1555${String(Date.now()).slice(-7)}`;
    // One checkout, posted to both sides' integrations of the funnel, as a shop sending to both URLs does.
    const checkout = JSON.parse(readFileSync(path.join(__dirname, '../../packages/sources/src/shopify/fixtures/checkouts-create.json'), 'utf8'));
    Object.assign(checkout, { token, email: shopper, phone });
    checkout.customer = { ...checkout.customer, email: shopper, phone };
    checkout.billing_address = { ...checkout.billing_address, phone };
    const shopifyHeaders = (topic: string, id: string) => ({ 'content-type': 'application/json', 'X-Shopify-Topic': topic, 'X-Shopify-Webhook-Id': id });
    const post = (hook: string, body: unknown, headers: Record<string, string>) =>
      page.evaluate(
        async ([u, b, h]) => (await fetch(u as string, { method: 'POST', headers: h as Record<string, string>, body: JSON.stringify(b) })).status,
        [hook, body, headers] as const,
      );

    const emailCampaign = (await call(page, 'POST', '/api/email/campaigns', { name: `Redeemed ${tag}` })).body;
    const emailStep = (await call(page, 'POST', '/api/resend/templates', { campaign_id: emailCampaign.id, name: `Email offer ${tag}`, subject: 'Your cart', from_name: 'Shop', html_content: '<p>Code {{discountCode}}</p>', template_order: 1, delay_hours: 0 })).body;
    const emailIntegration = (await call(page, 'POST', '/api/webhook-integrations', { name: `Redeemed ${tag}`, funnel_id: funnel, reminder_delay: 600, campaign_id: emailCampaign.id })).body;
    const emailHook = new URL((await call(page, 'GET', '/api/webhook-integrations')).body.find((i: { id: number }) => i.id === emailIntegration.id).webhook_url).pathname;
    const smsCampaign = (await call(page, 'POST', '/api/sms-campaigns', { name: `Redeemed ${tag}`, integration_id: null, active: true })).body;
    const smsStep = (await call(page, 'POST', '/api/sms-templates', { campaign_id: smsCampaign.id, name: `Text offer ${tag}`, message: 'Code {discount_code}', sequence_order: 1, delay_minutes: 0, active: true })).body;
    const smsIntegration = (await call(page, 'POST', '/api/sms-webhook-integrations', { name: `Redeemed ${tag}`, funnel_id: funnel, reminder_delay: 600, active: true })).body;
    expect(await post(emailHook, checkout, shopifyHeaders('checkouts/create', `c-${tag}`))).toBe(200);
    expect(await post(new URL(smsIntegration.webhook_url).pathname, checkout, shopifyHeaders('checkouts/create', `cs-${tag}`))).toBe(200);
    const emailContact = (await call(page, 'GET', `/api/resend/templates/preview/contacts?q=${encodeURIComponent(shopper)}`)).body.contacts[0];
    const smsContact = (await call(page, 'GET', `/api/sms-templates/preview/contacts?q=${encodeURIComponent(phone)}`)).body.contacts[0];
    expect(emailContact).toBeDefined();
    expect(smsContact).toBeDefined();

    // The codes the steps gave: this stack sends nothing (no provider), so each grant is written as the sending
    // step's incentive giver writes it, beside one for another shopper of the same step who never bought.
    const code = { email: `EM-${tag}`.toUpperCase(), sms: `SM-${tag}`.toUpperCase() };
    const grant = (contactRef: number, stepKey: string, c: string, integrationId: number) => ({
      contact_ref: contactRef, step_key: stepKey, kind: 'pool', integration_id: integrationId, code: c, code_key: c.toUpperCase(), state: 'issued', note: null,
      created_at: new Date(), issued_at: new Date(), redeemed_at: null, discount_minor: null, currency: null, order_ref: null,
    });
    const client = await MongoClient.connect(stack.mongoUri!);
    try {
      await client.db(stack.databases!['svc-email']).collection('incentive_grants').insertMany([
        grant(emailContact.id, `email-template:${emailStep.id}`, code.email, emailIntegration.id),
        grant(9_000_000 + Math.floor(Math.random() * 1e5), `email-template:${emailStep.id}`, `${code.email}-X`, emailIntegration.id),
      ]);
      await client.db(stack.databases!['svc-sms']).collection('incentive_grants').insertMany([grant(smsContact.id, `sms-template:${smsStep.id}`, code.sms, smsIntegration.id)]);
    } finally {
      await client.close();
    }

    // The order, posted to the email integration only, used both codes: the SMS one is marked through the relay.
    const order = JSON.parse(readFileSync(path.join(__dirname, '../../packages/sources/src/shopify/fixtures/orders-create.json'), 'utf8'));
    Object.assign(order, { checkout_token: token, email: shopper, phone, discount_codes: [{ code: code.email.toLowerCase(), amount: '9.90', type: 'percentage' }, { code: code.sms, amount: '2.50', type: 'fixed_amount' }] });
    expect(await post(emailHook, order, shopifyHeaders('orders/create', `o-${tag}`))).toBe(200);

    await page.goto(`${stack.url}/`);
    const block = page.getByTestId('redemptions-by-step');
    await block.waitFor();
    const row = (stepKey: string) => block.locator(`tr[data-step="${stepKey}"]`);
    const cells = async (stepKey: string) => (await row(stepKey).locator('td').allTextContents()).map((t) => t.trim());
    // The SMS row appears once the relayed purchase is consumed there and the page has read it again.
    for (let i = 0; (await row(`sms-template:${smsStep.id}`).locator('td').nth(2).textContent().catch(() => null)) !== '1'; i++) {
      if (i > 30) throw new Error(`the SMS step's redemption did not show: ${JSON.stringify((await call(page, 'GET', '/api/sms/incentive-redemptions')).body)}`);
      await page.waitForTimeout(1_000);
      await page.reload();
      await block.waitFor();
    }
    const total = `CA$${Number(order.total_price).toFixed(2)}`;
    expect(await cells(`email-template:${emailStep.id}`)).toEqual([`Email offer ${tag}Email`, '2', '1', 'CA$9.90', total]);
    expect(await cells(`sms-template:${smsStep.id}`)).toEqual([`Text offer ${tag}SMS`, '1', '1', 'CA$2.50', total]);
    await row(`sms-template:${smsStep.id}`).scrollIntoViewIfNeeded();
    await block.screenshot({ path: screenshotPath('incentives-redemptions-1440.png') });
    // At a phone's width each step is a block of labelled figures; the page does not grow sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    const item = block.locator(`li[data-step="sms-template:${smsStep.id}"]`);
    await item.waitFor();
    expect((await item.locator('[data-figures]').textContent())!.trim()).toBe(`1 issued · 1 redeemed · discount CA$2.50 · revenue ${total}`);
    expect((await block.locator(`li[data-step="email-template:${emailStep.id}"] [data-figures]`).textContent())!.trim()).toBe(`2 issued · 1 redeemed · discount CA$9.90 · revenue ${total}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await item.scrollIntoViewIfNeeded();
    await block.screenshot({ path: screenshotPath('incentives-redemptions-390.png') });
    await context.close();
  });
});
