// "Send test delivery" end to end, in Chromium through the gateway: the signed sample each side posts to its own
// public URL comes back through the gateway with its marker, its contact is stored as a test and wears the "Test"
// badge on Contacts and SMS Contacts, while a real delivery whose shopper has the reserved address does not.
// At 1440x900 and 390x844 (.run/screenshots/test-deliveries-*.png).
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, readStack, screenshotBoth, signIn } from './browser';

const stack = readStack();
const tag = `td-${Date.now().toString(36)}`;

async function post(page: Page, url: string, body: unknown): Promise<unknown> {
  return page.evaluate(
    async ([u, b]) => {
      const r = await fetch(u as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
      const text = await r.text();
      if (!r.ok) throw new Error(`${u as string} ${r.status} ${text}`);
      return text ? (JSON.parse(text) as unknown) : null;
    },
    [url, body] as const,
  );
}

const getJson = (page: Page, url: string) => page.evaluate(async (u) => (await (await fetch(u)).json()) as unknown, url);

type Row = { contact_id: string; email: string | null; test?: boolean };
const itemsOf = (body: unknown): Row[] => (Array.isArray(body) ? body : ((body as { items: Row[] }).items ?? [])) as Row[];

describe('test deliveries', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the sample each side sends itself is stored as a test and badged; a real shopper on the reserved domain is not', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, 'admin', stack.adminPassword);

    const email = (await post(page, '/api/webhook-integrations', { name: `TD ${tag}`, funnel_id: tag, reminder_delay: 60 })) as { id: number };
    const sent = (await post(page, `/api/webhook-integrations/${email.id}/test-delivery`, { source: 'generic' })) as { status: number; body: { contact_id?: string } };
    expect(sent.status).toBe(200);
    const sampleId = sent.body.contact_id!;
    // The same reserved domain, but a delivery of the sender's own: a real contact.
    await post(page, '/api/webhook', { event: 'contact_created', funnel_id: tag, contact: { id: `${tag}-real`, email: `test-delivery+${tag}@example.com` } });
    const emailRows = itemsOf(await getJson(page, '/api/contacts'));
    const sample = emailRows.find((c) => c.contact_id === sampleId)!;
    expect(sample).toMatchObject({ test: true });
    expect(emailRows.find((c) => c.contact_id === `${tag}-real`)).toMatchObject({ test: false });

    await page.goto(`${stack.url}/contacts`);
    const sampleRow = page.locator('tr', { hasText: sample.email! });
    await sampleRow.getByTestId('test-badge').waitFor();
    expect(await page.locator('tr', { hasText: `test-delivery+${tag}@example.com` }).getByTestId('test-badge').count()).toBe(0);
    await screenshotBoth(page, 'test-deliveries-contacts');

    const sms = (await post(page, '/api/sms-webhook-integrations', { name: `TD ${tag}`, funnel_id: `${tag}-sms`, reminder_delay: 60, active: true })) as { id: number };
    const texted = (await post(page, `/api/sms-webhook-integrations/${sms.id}/test-delivery`, { source: 'generic' })) as { status: number; body: { contact_id?: string } };
    expect(texted.status).toBe(200);
    const smsRows = itemsOf(await getJson(page, '/api/sms-contacts'));
    expect(smsRows.find((c) => c.contact_id === texted.body.contact_id)).toMatchObject({ test: true });
    await page.goto(`${stack.url}/sms-contacts`);
    await page.getByTestId('test-badge').first().waitFor();
    await screenshotBoth(page, 'test-deliveries-sms-contacts');
    await context.close();
  });
});
