// A service down: the gateway answers 503 for its routes at once, the other side keeps working, and its pages
// show the error in Chromium. A remote down (the gateway pointing MFE_SMS_MANIFEST nowhere): its routes show
// the shell's error card while the email pages work.
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signIn } from '../browser';
import { startProcess, stopProcess } from '../stack';
import { adminCookie, api, expectStatus, runTag, stack, stopwatch } from './helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function signedInPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await signIn(page, 'admin', stack.adminPassword, stack.url);
  return page;
}

const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true }).first().waitFor();

const SIDES = {
  'svc-sms': {
    calls: [
      ['GET', '/api/sms-campaigns'],
      ['GET', '/api/sms-logs'],
      ['GET', '/api/twilio/config'],
      ['POST', '/api/sms/webhook'],
    ],
    deadPage: '/sms-logs',
    other: {
      calls: [
        ['GET', '/api/contacts?page=1'],
        ['POST', '/api/webhook'],
      ],
      page: '/contacts',
      heading: 'Contacts',
    },
  },
  'svc-email': {
    calls: [
      ['GET', '/api/contacts?page=1'],
      ['GET', '/api/email-logs'],
      ['GET', '/api/webhook-integrations'],
      ['POST', '/api/webhook'],
    ],
    deadPage: '/email-logs',
    other: {
      calls: [
        ['GET', '/api/sms-campaigns'],
        ['POST', '/api/sms/webhook'],
      ],
      page: '/sms-campaigns',
      heading: 'SMS Campaigns',
    },
  },
} as const;

describe.each(Object.keys(SIDES) as (keyof typeof SIDES)[])('%s down', (service) => {
  it('its routes answer 503 within 1 s, the other side works, its page shows the error', async () => {
    const done = stopwatch(`${service} down`);
    const side = SIDES[service];
    const cookie = await adminCookie();
    const tag = runTag();
    const webhookBody = {
      event: 'contact_created',
      funnel_id: `down-${tag}`,
      contact: { id: `d-${tag}`, email: `d.${tag}@example.com`, phone: '+15557770101' },
    };
    const body = (method: string) => (method === 'POST' ? webhookBody : undefined);
    await stopProcess(service);
    try {
      const slowest = { ms: 0, what: '' };
      for (const [method, path] of side.calls) {
        const r = await api(method, path, { cookie, body: body(method) });
        expect({ path, status: r.status, body: r.body }).toEqual({
          path,
          status: 503,
          body: { error: `${service} unavailable` },
        });
        if (r.ms > slowest.ms) Object.assign(slowest, { ms: r.ms, what: `${method} ${path}` });
      }
      expect(slowest.ms).toBeLessThan(1_000);
      console.log(`[faults] ${service} down: slowest 503 ${slowest.ms.toFixed(0)} ms (${slowest.what})`);
      for (const [method, path] of side.other.calls)
        expectStatus(await api(method, path, { cookie, body: body(method) }), 200, 202);

      const page = await signedInPage();
      await page.goto(`${stack.url}${side.deadPage}`);
      await page
        .getByRole('alert')
        .filter({ hasText: `${service} unavailable` })
        .first()
        .waitFor();
      await page.goto(`${stack.url}${side.other.page}`);
      await heading(page, side.other.heading);
      await page.context().close();
    } finally {
      await startProcess(service);
    }
    done();
  }, 120_000);
});

it('a remote down: its routes show the error card, the email pages work', async () => {
  const done = stopwatch('mfe-sms remote down');
  await stopProcess('gateway');
  await startProcess('gateway', { MFE_SMS_MANIFEST: 'http://127.0.0.1:1/mf-manifest.json' });
  try {
    const page = await signedInPage();
    await page.goto(`${stack.url}/sms-campaigns`);
    await page.getByRole('alert').filter({ hasText: 'SMS module unavailable' }).first().waitFor();
    expect(await page.getByRole('heading', { name: 'SMS Campaigns', exact: true }).count()).toBe(0);
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Contacts', exact: true })
      .click();
    await heading(page, 'Contacts');
    await page.goto(`${stack.url}/email-logs`);
    await heading(page, 'Email Logs');
    await page.context().close();
  } finally {
    await stopProcess('gateway');
    await startProcess('gateway');
  }
  done();
}, 120_000);
