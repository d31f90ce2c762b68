// The unsubscribe pages through the gateway: a recipient unsubscribes on the public page, the admin sees
// the entry in management, adds and removes an entry; a plain user is sent to /auth from management.
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, readStack, signIn } from '../../infra/e2e/browser';

const stack = readStack();
const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const RECIPIENT = `leaver.${tag}@example.com`;
const ADDED = `phoned.${tag}@example.com`;
const USERNAME = `plain${tag}`;

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  return context.newPage();
}

async function toast(page: Page, text: string): Promise<void> {
  await page.getByTestId('toast').filter({ hasText: text }).first().waitFor();
}

const entryRow = (page: Page, email: string): Locator =>
  page.getByRole('table', { name: 'Unsubscribed emails' }).getByRole('row').filter({ hasText: email });

it('unsubscribes through the public page without signing in; a second visit says already unsubscribed', async () => {
  const page = await newPage();
  await page.goto(`${stack.url}/unsubscribe?email=${encodeURIComponent(RECIPIENT)}`);
  const email = page.getByLabel('Email address');
  await email.waitFor();
  expect(await email.inputValue()).toBe(RECIPIENT);
  expect(await email.getAttribute('readonly')).not.toBeNull();
  // No sidebar on the public page.
  expect(await page.getByRole('navigation', { name: 'Main navigation' }).count()).toBe(0);
  await page.getByLabel('Reason (optional)').fill('Too many emails');
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await page.getByRole('heading', { name: 'You have been unsubscribed' }).waitFor();
  await page.getByText(RECIPIENT).waitFor();

  await page.reload();
  await page.getByRole('heading', { name: 'Already unsubscribed' }).waitFor();

  await page.goto(`${stack.url}/unsubscribe`);
  await page.getByText('No email address provided. Please check the link and try again.').waitFor();
  await page.context().close();
});

it('shows the entry to the admin, who adds and removes another one', async () => {
  const page = await newPage();
  await signIn(page, 'admin', stack.adminPassword, stack.url);
  await page.getByRole('link', { name: 'Unsubscribe Management' }).click();
  await page.getByRole('heading', { name: 'Unsubscribe Management', level: 1 }).waitFor();
  await entryRow(page, RECIPIENT).getByText('Too many emails').waitFor();

  // Nothing entered: the spec's message, nothing sent.
  await page.getByRole('button', { name: 'Unsubscribe email' }).click();
  await toast(page, 'Email required');
  await page.getByTestId('toast').getByText('Please enter an email address').waitFor();
  expect(await page.getByLabel('Email address').getAttribute('type')).toBe('email');

  await page.getByLabel('Email address').fill(ADDED);
  await page.getByRole('button', { name: 'Unsubscribe email' }).click();
  await toast(page, 'Email unsubscribed');
  await entryRow(page, ADDED).getByText('Manually added by admin').waitFor();

  await entryRow(page, ADDED)
    .getByRole('button', { name: `Remove ${ADDED}` })
    .click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await toast(page, 'Email removed');
  await entryRow(page, ADDED).waitFor({ state: 'detached' });
  await entryRow(page, RECIPIENT).waitFor();
  await page.context().close();
});

it('picks up a new unsubscribe by itself (the list is polled every 5 s)', async () => {
  const page = await newPage();
  await signIn(page, 'admin', stack.adminPassword, stack.url);
  await page.goto(`${stack.url}/unsubscribe-management`);
  await entryRow(page, RECIPIENT).waitFor();
  const late = `late.${tag}@example.com`;
  const res = await fetch(`${stack.url}/api/unsubscribe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: late, reason: 'From a reminder email' }),
  });
  expect(res.status).toBe(200);
  await entryRow(page, late).waitFor({ timeout: 15_000 });
  await page.context().close();
});

it('sends a plain user and a signed-out visitor from /unsubscribe-management to /auth', async () => {
  // A plain user, made by the admin through the API.
  const admin = await newPage();
  await signIn(admin, 'admin', stack.adminPassword, stack.url);
  const created = await admin.evaluate(async (username) => {
    const res = await fetch('/api/users', {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'secret12', role: 'user' }),
    });
    return res.status;
  }, USERNAME);
  expect(created).toBe(201);
  await admin.context().close();

  const page = await newPage();
  await signIn(page, USERNAME, 'secret12', stack.url);
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
  });
  await page.goto(`${stack.url}/unsubscribe-management`);
  // /auth sends a signed-in user on to /: the redirect is seen on the way.
  await page.waitForURL((u) => u.pathname !== '/unsubscribe-management');
  await page.waitForLoadState('networkidle');
  expect(visited).toContain('/auth');
  expect(await page.getByRole('heading', { name: 'Unsubscribe Management' }).count()).toBe(0);
  // The service refuses the list to non-admins whatever the UI does.
  const status = await page.evaluate(async () => (await fetch('/api/direct-unsubscribes')).status);
  expect(status).toBe(403);
  await page.context().close();

  const visitor = await newPage();
  await visitor.goto(`${stack.url}/unsubscribe-management`);
  await visitor.waitForURL((u) => u.pathname === '/auth');
  await visitor.getByRole('button', { name: 'Sign In' }).waitFor();
  await visitor.context().close();
});
