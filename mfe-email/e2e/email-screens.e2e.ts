// Browser tests of the email side's screens through the gateway: webhooks in, contacts and events on
// screen, filters and sorting, Mark as Purchased, the reminder delay, an integration's life, clearing test data.
// One file, tests in order on one page: they share the stack's svc-email database, and the last one clears it.
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, readStack, signIn } from '../../infra/e2e/browser';

const { url, adminPassword } = readStack();
// Names unique to this run, so the checks hold whatever else the shared stack holds.
const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const FUNNEL = `e2e-${tag}`;
const NAME = `E2E Shop ${tag}`;
const RENAMED = `E2E Store ${tag}`;
const contactId = (n: number) => `${tag}-c${n}`;
const email = (prefix: string) => `${prefix}.${tag}@example.com`;

let browser: Browser;
let page: Page;

async function postWebhook(body: unknown): Promise<Response> {
  return fetch(`${url}/api/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Waits for the one toast to show `text` (a newer toast replaces an older one). */
async function toast(text: string): Promise<void> {
  await page.getByTestId('toast').filter({ hasText: text }).first().waitFor();
}

async function closeToast(): Promise<void> {
  const close = page.getByTestId('toast').getByRole('button', { name: 'Close' });
  if (await close.isVisible()) await close.click();
  await page.getByTestId('toast').waitFor({ state: 'hidden' });
}

async function choose(label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  await page.getByRole('listbox').waitFor({ state: 'hidden' });
}

const card = (name: string): Locator => page.getByRole('article', { name });
const contactRows = (): Locator => page.getByRole('table', { name: 'Contacts' }).locator('tbody tr[data-contact-id]');

async function contactIdsShown(): Promise<string[]> {
  return contactRows().evaluateAll((rows) => rows.map((r) => r.getAttribute('data-contact-id') ?? ''));
}

/** Waits until the table shows exactly these funnel contact ids, in this order. */
async function expectOrder(ids: string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  let shown: string[] = [];
  while (Date.now() < deadline) {
    shown = await contactIdsShown();
    if (JSON.stringify(shown) === JSON.stringify(ids)) return;
    await page.waitForTimeout(100);
  }
  expect(shown).toEqual(ids);
}

/** Polls like expectOrder, for a sort whose tail order is not defined (the nulls). */
async function expectFirst(id: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  let first: string | undefined;
  while (Date.now() < deadline) {
    first = (await contactIdsShown())[0];
    if (first === id) return;
    await page.waitForTimeout(100);
  }
  expect(first).toBe(id);
}

async function goto(path: string, heading: string): Promise<void> {
  await page.goto(`${url}${path}`);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await signIn(page, 'admin', adminPassword, url);
});

afterAll(async () => {
  await browser?.close();
});

describe('email screens through the gateway', () => {
  it('creates, edits, pauses and re-activates an integration', async () => {
    await goto('/webhook-integrations', 'Webhook Integrations');
    await card('Default Integration').waitFor();

    await page.getByRole('button', { name: 'Add New Integration' }).click();
    await page.getByRole('heading', { name: 'New Integration' }).waitFor();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Name is required').waitFor();
    await page.getByText('Funnel ID is required').waitFor();
    await page.getByLabel(/^Name/).fill(NAME);
    await page.getByLabel(/^Funnel ID/).fill(FUNNEL);
    await page.getByLabel(/^Reminder Delay/).fill('60');
    await page.getByRole('button', { name: 'Create' }).click();
    await toast('Integration created');
    const created = card(NAME);
    await created.waitFor();
    expect(await created.textContent()).toContain(FUNNEL);
    expect(await created.textContent()).toContain('60 minutes');
    expect(await created.textContent()).toContain('Active');

    await created.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit Integration' }).waitFor();
    await page.getByLabel(/^Name/).fill(RENAMED);
    await page.getByRole('button', { name: 'Update' }).click();
    await toast('Integration updated');
    await card(RENAMED).waitFor();

    await card(RENAMED).getByRole('button', { name: 'Pause' }).click();
    await toast('Integration paused');
    await toast('The integration is now paused.');
    await card(RENAMED).getByText('Inactive').waitFor();

    await card(RENAMED).getByRole('button', { name: 'Activate' }).click();
    await toast('Integration activated');
    await card(RENAMED).getByRole('button', { name: 'Pause' }).waitFor();

    // The default integration can be neither deleted nor cleared.
    expect(await card('Default Integration').getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
  });

  it('webhooks posted to the endpoint show up as contacts and events', async () => {
    const deliveries = [
      { event: 'contact_created', contact: { id: contactId(1), email: email('carol'), funnel_id: FUNNEL } },
      { event_type: 'contact_created', funnel_id: FUNNEL, contact_id: contactId(2), email: email('alice') },
      { event: 'contact_created', contact: { id: contactId(3), email: email('bob'), funnel_id: FUNNEL } },
      { event: 'handshake' },
      {
        event_type: 'purchase_created',
        funnel_id: FUNNEL,
        contact_id: contactId(3),
        email: email('bob'),
        amount: 49,
        currency: 'USD',
      },
    ];
    for (const body of deliveries) {
      const res = await postWebhook(body);
      expect(res.status).toBeLessThan(300);
    }

    await goto('/contacts', 'Contacts');
    await choose('Integration', RENAMED);
    await page.getByText('Showing 3 contact(s)').waitFor();
    // Newest first by default.
    await expectOrder([contactId(3), contactId(2), contactId(1)]);
    const bob = contactRows().filter({ hasText: email('bob') });
    expect(await bob.locator('[data-status]').textContent()).toBe('Purchased');
    expect(await bob.getByRole('button', { name: 'Mark as Purchased' }).count()).toBe(0);
    expect(
      await contactRows()
        .filter({ hasText: email('alice') })
        .locator('[data-status]')
        .textContent(),
    ).toBe('Pending');

    await goto('/webhooks', 'Webhook Events');
    expect(await page.getByLabel('Webhook endpoint URL').inputValue()).toBe(`${url}/api/webhook`);
    const events = page.getByRole('table', { name: 'Webhook events' });
    await events.getByText(contactId(1)).first().waitFor();
    const purchase = events
      .locator('tbody tr')
      .filter({ hasText: `"contact_id":"${contactId(3)}"` })
      .filter({
        hasText: 'purchase_created',
      });
    await purchase.first().waitFor();
    expect(await purchase.first().locator('[data-type]').getAttribute('data-type')).toBe('purchase_created');
    await events.locator('[data-type="handshake"]').first().waitFor();

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    await page.getByRole('button', { name: 'Copy' }).click();
    await toast('URL Copied');
  });

  it('filters and sorts contacts by the spec rules (nulls last)', async () => {
    await goto('/contacts', 'Contacts');
    await choose('Integration', RENAMED);
    await page.getByText('Showing 3 contact(s)').waitFor();

    const sortBy = (name: string) =>
      page.getByRole('table', { name: 'Contacts' }).getByRole('button', { name, exact: true }).click();
    await sortBy('Email'); // a new non-date column: ascending
    await expectOrder([contactId(2), contactId(3), contactId(1)]); // alice, bob, carol
    await sortBy('Email'); // the active column toggles
    await expectOrder([contactId(1), contactId(3), contactId(2)]);
    await sortBy('Purchased At'); // a new date column: descending; nulls last
    await page
      .getByRole('columnheader', { name: /Purchased At/ })
      .and(page.locator('[aria-sort="descending"]'))
      .waitFor();
    await expectFirst(contactId(3));
    await sortBy('Purchased At'); // ascending: nulls still last
    await page
      .getByRole('columnheader', { name: /Purchased At/ })
      .and(page.locator('[aria-sort="ascending"]'))
      .waitFor();
    await expectFirst(contactId(3));

    await choose('Status', 'Purchased');
    await page.getByText('Showing 1 contact(s)').waitFor();
    await expectOrder([contactId(3)]);
    await choose('Status', 'Pending');
    await page.getByText('Showing 2 contact(s)').waitFor();
    await choose('Integration', 'No Integration');
    await page.getByText('No contacts found.').waitFor();
  });

  it('marks a contact as purchased', async () => {
    await goto('/contacts', 'Contacts');
    await choose('Integration', RENAMED);
    await choose('Status', 'Pending');
    await page.getByText('Showing 2 contact(s)').waitFor();
    await contactRows()
      .filter({ hasText: email('alice') })
      .getByRole('button', { name: 'Mark as Purchased' })
      .click();
    await toast('Contact marked as purchased');
    await page.getByText('Showing 1 contact(s)').waitFor();
    await choose('Status', 'Purchased');
    await page.getByText('Showing 2 contact(s)').waitFor();
    const alice = contactRows().filter({ hasText: email('alice') });
    expect(await alice.locator('[data-status]').textContent()).toBe('Purchased');
  });

  it('changes the reminder delay: an invalid value is refused, a valid one saved', async () => {
    await goto('/', 'Dashboard');
    await page.getByTestId('reminder-delay-value').filter({ hasText: 'minute' }).waitFor();
    await page.getByRole('button', { name: 'Change Configuration' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Configuration' });
    await dialog.getByLabel(/Reminder Delay/).fill('0');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast('Invalid value');
    await toast('Reminder delay must be between 1 and 720 minutes');
    expect(await dialog.isVisible()).toBe(true);

    await dialog.getByLabel(/Reminder Delay/).fill('45');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast('Configuration updated');
    await toast('Reminder delay set to 45 minutes.');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('reminder-delay-value').filter({ hasText: '45 minutes' }).waitFor();
    await closeToast();

    // The settings page shows the same value and saves through the same rules; put the default back.
    await goto('/settings', 'Settings');
    const input = page.getByLabel(/Reminder Delay/);
    await page.waitForFunction(
      () => (document.querySelector('input[type="number"]') as HTMLInputElement | null)?.value === '45',
    );
    await input.fill('721');
    await page.getByRole('button', { name: 'Save Configuration' }).click();
    await toast('Invalid value');
    await input.fill('30');
    await page.getByRole('button', { name: 'Save Configuration' }).click();
    await toast('Reminder delay set to 30 minutes.');
  });

  it('deletes an integration: refused while it has contacts, done after clearing them', async () => {
    await goto('/webhook-integrations', 'Webhook Integrations');
    const shop = card(RENAMED);
    await shop.getByRole('button', { name: 'Delete' }).click();
    let dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain(`Are you sure you want to delete ${RENAMED}?`);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await toast('Cannot delete integration');
    await toast('This integration has contacts associated with it. Please clear the contacts first.');
    await dialog.waitFor({ state: 'hidden' });

    await shop.getByRole('button', { name: 'Clear Associated Contacts' }).click();
    dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('cannot be undone');
    await dialog.getByRole('button', { name: 'Clear Contacts' }).click();
    await toast('Contacts cleared');
    await dialog.waitFor({ state: 'hidden' });

    await shop.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await shop.waitFor({ state: 'detached' });
  });

  it('clears all test data from the dashboard', async () => {
    await postWebhook({ event: 'contact_created', contact: { id: contactId(9), email: email('dave') } });
    await goto('/', 'Dashboard');
    await page.getByLabel('Total Contacts').filter({ hasText: /\d/ }).waitFor();
    await page.getByRole('button', { name: 'Clear All Test Data' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain(
      'Are you sure you want to clear all test data? This will remove all contacts, email logs, and webhook events.',
    );
    await dialog.getByRole('button', { name: 'Clear All Test Data' }).click();
    await toast('Data Cleared');
    await page.getByText('No test data to clear. The database is empty.').waitFor();
    expect(await page.getByLabel('Total Contacts').textContent()).toBe('0');
    await page.getByText('No activity yet. Abandoned cart emails will appear here.').waitFor();

    await goto('/contacts', 'Contacts');
    await page.getByText('No contacts found.').waitFor();
    await goto('/webhooks', 'Webhook Events');
    await page.getByText('No webhook events yet. Send a webhook to this endpoint to see events here.').waitFor();
  });
});
