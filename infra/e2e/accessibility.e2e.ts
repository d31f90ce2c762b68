// Every screen, signed in as the admin and in public, checked with axe-core in Chromium at a desktop width and at a
// phone's (390 px): no serious or critical violation of the WCAG 2.x A/AA rules axe applies. Screens are
// taken as a user first sees them, data loaded.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, readStack, signIn } from './browser';

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const stack = readStack();

const SIGNED_IN = [
  '/',
  '/contacts',
  '/email-logs',
  '/webhooks',
  '/webhook-integrations',
  '/documentation',
  '/settings',
  '/resend-config',
  '/resend-templates',
  '/email-campaigns',
  '/sms-webhooks',
  '/sms-campaigns',
  '/sms-contacts',
  '/sms-stats',
  '/sms-logs',
  '/sms-webhook-events',
  '/twilio-settings',
  '/profile',
  '/users',
  '/audit-log',
  '/privacy-requests',
  '/unsubscribe-management',
  '/no-such-page',
];
const PUBLIC = ['/auth', '/unsubscribe'];
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
];

interface Found {
  page: string;
  viewport: string;
  rule: string;
  impact: string;
  targets: string[];
}

/**
 * Rows on every list, whatever ran before: colours and badges differ between an empty screen and a full one (a
 * badge colour failed only once a list had rows). Posted from the signed-in page (same origin, its cookie).
 */
async function seed(page: Page): Promise<void> {
  const tag = `a11y-${Date.now().toString(36)}`;
  const failed = await page.evaluate(async (t) => {
    const post = (path: string, body: unknown) =>
      fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => (r.ok ? null : `${path} ${r.status}`));
    const contact = { id: t, email: `${t}@example.com`, phone: '+14155550188', first_name: 'Ada' };
    return (
      await Promise.all([
        post('/api/sms-webhook-integrations', { name: `A11y ${t}`, funnel_id: t, reminder_delay: 600, active: true }),
        post('/api/webhook-integrations', { name: `A11y ${t}`, funnel_id: t, reminder_delay: 600 }),
      ]).then(async (a) => [
        ...a,
        await post('/api/webhook', { event: 'contact_created', funnel_id: t, contact }),
        await post('/api/sms/webhook', { event: 'contact_created', funnel_id: t, contact }),
        await post('/api/webhook', { event: 'purchase_created', funnel_id: t, contact: { id: t }, purchase: { amount: 5, currency: 'USD' } }),
        await post('/api/sms/webhook', { event: 'nonsense' }),
      ])
    ).filter((x) => x && !x.endsWith(' 400'));
  }, tag);
  expect(failed).toEqual([]);
}

async function audit(page: Page, path: string, viewport: string): Promise<Found[]> {
  await page.goto(`${stack.url}${path}`);
  await page.waitForLoadState('networkidle');
  // Lists and cards fill in after their first answer; spinners gone means the screen is as a user reads it. A bar
  // with a value (a rate, a share of revenue) is a figure, not a spinner: it stays.
  await page.waitForFunction(() => !document.querySelector('[role="progressbar"]:not([aria-valuenow])'), undefined, { timeout: 15_000 }).catch(() => undefined);
  // Evaluated, not added as an inline <script>: the app's CSP refuses inline scripts (DevTools' evaluate is exempt).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const results = (await page.evaluate(() =>
    (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<unknown> } }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    }),
  )) as { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ page: path, viewport, rule: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
}

describe('accessibility (axe-core, serious and critical)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const viewport of VIEWPORTS) {
    it(`every signed-in screen at ${viewport.name} width (${viewport.width} px)`, async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await signIn(page, 'admin', stack.adminPassword);
      if (viewport.name === 'desktop') await seed(page);
      const found: Found[] = [];
      for (const path of SIGNED_IN) found.push(...(await audit(page, path, viewport.name)));
      await context.close();
      expect(found).toEqual([]);
    }, 240_000);

    it(`the public screens at ${viewport.name} width`, async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const found: Found[] = [];
      for (const path of PUBLIC) found.push(...(await audit(page, path, viewport.name)));
      await context.close();
      expect(found).toEqual([]);
    }, 120_000);
  }
});
