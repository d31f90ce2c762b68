// Browser helpers for e2e tests: Debian's Chromium driven by playwright-core (never a downloaded browser).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
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

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
  failOnCspViolations(browser);
  return browser;
}

/**
 * Every page of `browser` reports the gateway's Content-Security-Policy violations (the `securitypolicyviolation`
 * event of its documents; a sandboxed preview frame runs no script, so the email content it blocks on purpose is
 * not counted), and `close()` throws when there was any: a test whose page broke the policy fails in its afterAll.
 */
function failOnCspViolations(browser: Browser): void {
  const seen: string[] = [];
  const newContext = browser.newContext.bind(browser);
  // browser.newPage() goes through newContext too.
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) =>
        console.error(`[csp-violation] ${e.effectiveDirective} refused ${e.blockedURI || 'inline'} on ${location.pathname} (${e.sourceFile}:${e.lineNumber})`),
      ),
    );
    context.on('console', (msg) => {
      if (msg.text().startsWith('[csp-violation]')) seen.push(msg.text());
    });
    return context;
  };
  const close = browser.close.bind(browser);
  browser.close = async (options) => {
    await close(options);
    if (seen.length) throw new Error(`Content-Security-Policy violations:\n${[...new Set(seen)].join('\n')}`);
  };
}

/**
 * The page's requests, counted from now: `quiet()` resolves once none has been in flight for `quietMs`, and fails
 * after `timeoutMs` naming the requests still open, where Playwright's 'networkidle' only says it timed out.
 */
export function watchRequests(page: Page): { quiet(quietMs?: number, timeoutMs?: number): Promise<void> } {
  const open = new Map<Request, number>();
  let lastChange = Date.now();
  page.on('request', (r) => {
    open.set(r, Date.now());
    lastChange = Date.now();
  });
  const done = (r: Request) => {
    open.delete(r);
    lastChange = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    async quiet(quietMs = 500, timeoutMs = 40_000) {
      const deadline = Date.now() + timeoutMs;
      while (open.size > 0 || Date.now() - lastChange < quietMs) {
        if (Date.now() > deadline) {
          const now = Date.now();
          const pending = [...open].map(([r, at]) => `${r.method()} ${r.url()} (open ${((now - at) / 1000).toFixed(1)} s)`);
          throw new Error(`the page's network was not quiet within ${timeoutMs / 1000} s; open: ${pending.join(', ') || 'none (busy until the end)'}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
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

/**
 * One shopper on both sides, from the signed-in page: an integration of each side for `funnel`, then a delivery to
 * each funnel webhook. Returns the four statuses ([201, 201, 200, 200] when all went in).
 */
export function seedShopperOnBothSides(
  page: Page,
  funnel: string,
  shopper: { id: string; email: string; phone: string; first_name?: string },
): Promise<number[]> {
  return page.evaluate(
    async ([f, contact]) => {
      const post = (path: string, body: unknown) =>
        fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then((r) => r.status);
      return [
        await post('/api/webhook-integrations', { name: `Privacy ${f}`, funnel_id: f, reminder_delay: 600 }),
        await post('/api/sms-webhook-integrations', {
          name: `Privacy ${f}`,
          funnel_id: f,
          reminder_delay: 600,
          active: true,
        }),
        await post('/api/webhook', { event: 'contact_created', funnel_id: f, contact }),
        await post('/api/sms/webhook', { event: 'contact_created', funnel_id: f, contact }),
      ];
    },
    [funnel, { first_name: 'Pat', ...shopper }] as const,
  );
}

/** The dialog named `name` once its opening transition is over (a screenshot taken earlier shows it half faded in). */
export async function openedDialog(page: Page, name: string) {
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor();
  await page.waitForFunction((n) => {
    const el = [...document.querySelectorAll('[role="dialog"]')].find((d) => d.textContent?.includes(n));
    const faded = el?.closest('.MuiDialog-container') ?? el;
    return !!faded && getComputedStyle(faded).opacity === '1';
  }, name);
  return dialog;
}

/** Where browser tests leave the screenshots a reviewer opens. */
export const SCREENSHOTS = path.resolve(__dirname, '../../.run/screenshots');

/** The path of screenshot `file` in SCREENSHOTS (made on first use). */
export function screenshotPath(file: string): string {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return path.join(SCREENSHOTS, file);
}

/** The page as a desktop (1440x900) and a phone (390x844) show it, into <name>-<width>.png. */
export async function screenshotBoth(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: screenshotPath(`${name}-${width}.png`), fullPage: true });
  }
  if (before) await page.setViewportSize(before);
}
