// Browser helpers for e2e tests: Debian's Chromium driven by playwright-core (never a downloaded browser).
import { chromium, type Browser, type Page } from 'playwright-core';
import { readStack } from './stack';

export { killProcess, readStack, startProcess, stopProcess } from './stack';
export type { DependencyName, ProcessName, StackInfo } from './stack';

// Without the networking flags Chromium keeps calling Google hosts, which this machine's closed network refuses.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/** Signs in through the /auth form and waits until the app has left /auth. */
export async function signIn(page: Page, username: string, password: string, baseUrl = readStack().url): Promise<void> {
  await page.goto(`${baseUrl}/auth`);
  // Prefix match: MUI appends ' *' to required fields' labels.
  await page.getByLabel(/^Username/).fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname !== '/auth');
}
