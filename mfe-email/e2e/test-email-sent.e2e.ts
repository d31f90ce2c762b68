// The test send's success path in Chromium (campaigns-templates.e2e.ts covers the error path): for this file svc-email is
// restarted with a Resend key and RESEND_BASE_URL pointing at a local fake of Resend's API, so the real SDK sends
// and the fake records what arrived. svc-email gets its usual settings back at the end.
import type { Browser, Page } from 'playwright-core';
import type { EmailCampaign, EmailTemplate } from '@act/contracts/src/email-api';
import { startFakeResend, type FakeResend } from '@act/testing';
import { launchBrowser, readStack, signIn, startProcess, stopProcess } from '../../infra/e2e/browser';

const { url, adminPassword } = readStack();
const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const TEMPLATE = `Welcome back ${tag}`;
const TO = `inbox.${tag}@example.com`;

let browser: Browser;
let page: Page;
let resend: FakeResend;
let campaignId = 0;

/** JSON call through the page's session, as the screens make them. */
async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        credentials: 'include',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.json();
    },
    { method, path, body },
  ) as Promise<T>;
}

async function restartEmail(env?: Record<string, string>): Promise<void> {
  await stopProcess('svc-email');
  await startProcess('svc-email', env);
}

beforeAll(async () => {
  resend = await startFakeResend();
  await restartEmail({
    RESEND_API_KEY: 're_e2e_key',
    RESEND_FROM: 'Cart Team <carts@example.com>',
    RESEND_BASE_URL: resend.url,
  });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await signIn(page, 'admin', adminPassword, url);
  const campaign = await api<EmailCampaign>('POST', '/api/email/campaigns', { name: `Test send ${tag}` });
  campaignId = campaign.id;
  const template = await api<EmailTemplate>('POST', '/api/resend/templates', {
    name: TEMPLATE,
    subject: `Your cart ${tag}`,
    html_content: '<p>Hi {{contactEmail}}, <a href="{{recoveryUrl}}">finish your order</a>.</p>',
    campaign_id: campaignId,
    type: 'abandoned_cart',
  });
  expect(template).toMatchObject({ name: TEMPLATE, campaign_id: campaignId });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await restartEmail();
  await resend?.close();
}, 120_000);

it('shows the configured Resend status and a successful connection test', async () => {
  await page.getByRole('link', { name: 'Resend Config' }).click();
  await page.getByRole('button', { name: 'Test Connection' }).click();
  const result = page.getByTestId('connection-result');
  await result.waitFor();
  expect(await result.innerText()).not.toMatch(/Connection failed/);
  expect(resend.requests.some((r) => r.method === 'GET' && r.path === '/domains')).toBe(true);
});

it('sends a test email through Resend and says so with the message id', async () => {
  await page.goto(`${url}/email-templates/${campaignId}`);
  await page.getByRole('button', { name: `Send test email: ${TEMPLATE}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Send Test Email' });
  await dialog.getByLabel('Email Address').fill(TO);
  await dialog.getByRole('button', { name: 'Send Test' }).click();
  const toast = page.getByTestId('toast').filter({ hasText: 'Test email sent' }).first();
  await toast.waitFor();

  const [sent] = resend.emailsTo(TO);
  // The address is the configured sender's, the display name the template's (a campaign template's default).
  expect(sent).toMatchObject({ from: '"Notification" <carts@example.com>', to: [TO] });
  expect(sent!.subject).toContain(`Your cart ${tag}`);
  expect(sent!.html).toContain('finish your order');
  expect(resend.emailsTo(TO)).toHaveLength(1);
  const text = await toast.innerText();
  expect(text).toContain(`Message ID: ${sent!.id}`);
  expect(text).toContain('Please check your inbox.');
  expect(await dialog.getByTestId('test-email-error').count()).toBe(0);
});

it("the email's one-click unsubscribe (RFC 8058) works through the gateway, without a session; a tampered link does not", async () => {
  const [sent] = resend.emailsTo(TO);
  expect(sent!.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  const link = /^<([^>]+)>/.exec(sent!.headers['List-Unsubscribe'] ?? '')?.[1];
  // The gateway's public URL: what a mail client reaches from outside.
  expect(link).toMatch(new RegExp(`^${url.replace(/[.]/g, '\\.')}/api/unsubscribe/one-click\\?token=`));
  const subscription = async () =>
    ((await (await fetch(`${url}/api/unsubscribe?email=${encodeURIComponent(TO)}`)).json()) as { status: string })
      .status;
  expect(await subscription()).toBe('subscribed');

  // What a mail client's button sends (RFC 8058 section 3.2): a form POST, no cookie, no Origin of the app.
  const oneClick = (target: string) =>
    fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
  const token = new URL(link!).searchParams.get('token')!;
  const [address, mac] = token.split('.');
  const forged = `${Buffer.from(`other.${tag}@example.com`).toString('base64url')}.${mac}`;
  const tampered = `${address}.${mac!.startsWith('A') ? 'B' : 'A'}${mac!.slice(1)}`;
  for (const bad of [tampered, forged]) {
    const res = await oneClick(`${url}/api/unsubscribe/one-click?token=${encodeURIComponent(bad)}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'Invalid unsubscribe link' });
  }
  expect(await subscription()).toBe('subscribed');
  // Opening the link (a scanner's GET) only leads to the confirm page.
  const get = await fetch(link!, { redirect: 'manual' });
  expect(get.status).toBe(302);
  expect(get.headers.get('location')).toBe(`${url}/unsubscribe?email=${encodeURIComponent(TO)}`);
  expect(await subscription()).toBe('subscribed');

  const res = await oneClick(link!);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({
    status: 'unsubscribed',
    message: 'You have been unsubscribed and will no longer receive these emails.',
  });
  expect(await subscription()).toBe('already-unsubscribed');
  // The admin's Unsubscribe Management list has it, with the one-click reason.
  await page.goto(`${url}/unsubscribe-management`);
  const row = page.getByRole('row').filter({ hasText: TO });
  await row.getByText('One-click unsubscribe from an email').waitFor();
});
