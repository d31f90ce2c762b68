// "Send test delivery" end to end, in Chromium through the gateway: the signed sample each side posts to its own
// public URL comes back through the gateway with its marker, its contact is stored as a test and wears the "Test"
// badge on Contacts and SMS Contacts, while a real delivery whose shopper has the reserved address does not; no
// summary card counts it (the Dashboard's Total Contacts and SMS Contacts' four cards).
// At 1440x900 and 390x844 (.run/screenshots/test-deliveries-*.png).
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, readStack, screenshotBoth, screenshotPath, signIn } from './browser';

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

/** A card's figure once it has loaded (a skeleton or '…' until then). */
async function cardNumber(card: Locator): Promise<number> {
  await card.filter({ hasText: /^[\d,]+$/ }).first().waitFor();
  return Number(((await card.first().textContent()) ?? '').replace(/,/g, ''));
}

/** SMS Contacts' four cards, read once the list has loaded. */
async function smsCards(page: Page): Promise<Record<string, number>> {
  await page.getByTestId('contact-row').first().or(page.getByText('No SMS contacts yet')).waitFor();
  const out: Record<string, number> = {};
  for (const label of ['Total', 'Pending', 'Purchased', 'SMS Sent']) out[label] = await cardNumber(page.getByTestId(`summary-${label}`).locator('p').last());
  return out;
}

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

    // The Dashboard's Total Contacts before: it is to count the real delivery below and not the sample.
    await page.goto(`${stack.url}/`);
    const totalBefore = await cardNumber(page.getByLabel('Total Contacts'));
    const rowsBefore = (await getJson(page, '/api/contacts?page=1&pageSize=1')) as { total: number; tests: number };

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

    // Listed, but counted nowhere: the contacts list grew by two rows, the Dashboard's card by the real one.
    const rowsAfter = (await getJson(page, '/api/contacts?page=1&pageSize=1')) as { total: number; tests: number };
    expect([rowsAfter.total - rowsBefore.total, rowsAfter.tests - rowsBefore.tests]).toEqual([2, 1]);
    await page.goto(`${stack.url}/`);
    await page.getByLabel('Total Contacts').filter({ hasText: String(totalBefore + 1) }).waitFor();
    expect(await cardNumber(page.getByLabel('Total Contacts'))).toBe(rowsAfter.total - rowsAfter.tests);
    await screenshotBoth(page, 'test-deliveries-dashboard');

    // SMS Contacts' four cards before the sample.
    await page.goto(`${stack.url}/sms-contacts`);
    const cardsBefore = await smsCards(page);

    const sms = (await post(page, '/api/sms-webhook-integrations', { name: `TD ${tag}`, funnel_id: `${tag}-sms`, reminder_delay: 60, active: true })) as { id: number };
    const texted = (await post(page, `/api/sms-webhook-integrations/${sms.id}/test-delivery`, { source: 'generic' })) as { status: number; body: { contact_id?: string } };
    expect(texted.status).toBe(200);
    const smsRows = itemsOf(await getJson(page, '/api/sms-contacts'));
    expect(smsRows.find((c) => c.contact_id === texted.body.contact_id)).toMatchObject({ test: true });
    await page.goto(`${stack.url}/sms-contacts`);
    await page.locator('tr', { hasText: texted.body.contact_id! }).getByTestId('test-badge').waitFor();
    // The sample is a row, badged, and in none of the four cards: Total reads as before it came (the others may move
    // as earlier tests' contacts are texted), and the rows are the cards' contacts and the tests.
    const cardsAfter = await smsCards(page);
    expect(cardsAfter.Total).toBe(cardsBefore.Total);
    const smsPage = (await getJson(page, '/api/sms-contacts?page=1&pageSize=25')) as { total: number; summary: { total: number; tests: number } };
    expect(smsPage.summary.tests).toBeGreaterThanOrEqual(1);
    expect(smsPage.total).toBe(smsPage.summary.total + smsPage.summary.tests);
    // The sample's row (a long contact id, a note under its status), beside whatever rows other tests left, fits a
    // laptop's screen: the table does not scroll sideways and the row's action is not cut.
    const action = page.locator('tr', { hasText: texted.body.contact_id! }).getByRole('button', { name: 'Mark Purchased' });
    const box = (await action.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1440);
    expect(await page.evaluate(() => [...document.querySelectorAll('.MuiTableContainer-root')].filter((el) => el.scrollWidth > el.clientWidth + 1).length)).toBe(0);
    await screenshotBoth(page, 'test-deliveries-sms-contacts');

    // Removable in one click on each side, on a phone's screen too: the samples go, the real contact stays.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, side] of [['/webhook-integrations', 'email'], ['/sms-webhooks', 'sms']] as const) {
      await page.goto(`${stack.url}${path}`);
      const remove = page.getByTestId('remove-test-deliveries');
      await remove.scrollIntoViewIfNeeded();
      await remove.click();
      await page.getByText('Test deliveries removed').first().waitFor();
      await page.screenshot({ path: screenshotPath(`test-deliveries-removed-${side}-390.png`) });
    }
    const emailLeft = itemsOf(await getJson(page, '/api/contacts')).filter((c) => c.contact_id === sampleId || c.contact_id === `${tag}-real`);
    expect(emailLeft.map((c) => c.contact_id)).toEqual([`${tag}-real`]);
    expect(itemsOf(await getJson(page, '/api/sms-contacts')).some((c) => c.contact_id === texted.body.contact_id)).toBe(false);
    await page.goto(`${stack.url}/sms-contacts`);
    await page.getByTestId('summary-Total').waitFor();
    await page.getByText('No SMS contacts yet').or(page.getByTestId('contact-row').first()).waitFor();
    expect(await page.locator('tr', { hasText: texted.body.contact_id! }).count()).toBe(0);
    await context.close();
  });
});
