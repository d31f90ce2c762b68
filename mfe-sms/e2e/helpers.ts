// Shared steps of the mfe-sms browser tests. Every test file signs in once and works with names made unique
// per run, because all browser tests share one stack (and its database) and run two files at a time.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { readStack, signIn } from '../../infra/e2e/browser';

export interface Session {
  url: string;
  context: BrowserContext;
  page: Page;
}

export async function openSession(browser: Browser): Promise<Session> {
  const { url, adminPassword } = readStack();
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const page = await context.newPage();
  await signIn(page, 'admin', adminPassword, url);
  return { url, context, page };
}

/** A short id unique to this run, for names and funnel ids. */
export function uid(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Waits for the one visible toast to say `text` (title or description). */
export async function expectToast(page: Page, text: string | RegExp): Promise<void> {
  await page.getByTestId('toast').filter({ hasText: text }).waitFor();
}

/** A signed-in API call through the page's cookies (for setting up data a test is not about). */
export async function api<T = unknown>(page: Page, method: string, path: string, data?: unknown): Promise<T> {
  const res = await page.request.fetch(`${readStack().url}${path}`, { method, data });
  const text = await res.text();
  if (!res.ok()) throw new Error(`${method} ${path}: ${res.status()} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** The public funnel webhook of the SMS side, called like a funnel would (no session). */
export async function postSmsWebhook(body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${readStack().url}/api/sms/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Picks an option of an MUI select (a combobox) by its label; `scope` narrows the label lookup (a dialog). */
export async function choose(
  page: Page,
  label: string | RegExp,
  option: string | RegExp,
  scope: Locator | Page = page,
) {
  await scope.getByRole('combobox', { name: label }).click();
  await page
    .getByRole('listbox')
    .getByRole('option', { name: option, exact: typeof option === 'string' })
    .click();
  await page.getByRole('listbox').waitFor({ state: 'detached' });
}

/** The options an MUI select offers, in order (the list is closed again afterwards). */
export async function optionsOf(page: Page, label: string | RegExp): Promise<string[]> {
  await page.getByRole('combobox', { name: label }).click();
  const texts = await page.getByRole('listbox').getByRole('option').allTextContents();
  await page.keyboard.press('Escape');
  await page.getByRole('listbox').waitFor({ state: 'detached' });
  return texts;
}

