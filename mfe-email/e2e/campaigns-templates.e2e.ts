// Campaigns and templates of the email side in Chromium: a campaign and its templates written with the rich editor
// (bold text, a link, an inserted image), their order and delay labels, a test send, deletes with confirmation.
// The e2e stack has no Resend key, so the test send takes the spec's error path (dialog alert and toast); the
// success path is test-email-sent.e2e.ts.
// Tests run in order on one page and share the stack's svc-email database: names carry a tag unique to the run.
import type { Browser, Locator, Page } from 'playwright-core';
import type { EmailTemplate } from '@act/contracts/src/email-api';
import { launchBrowser, readStack, signIn } from '../../infra/e2e/browser';

const { url, adminPassword } = readStack();
const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const CAMPAIGN = `E2E Campaign ${tag}`;
const RENAMED = `E2E Sequence ${tag}`;
const FIRST = `Gentle nudge ${tag}`;
const SECOND = `Last call ${tag}`;
// Never loads (reserved TLD): the dialog's preview must fall back to its placeholder image.
const IMAGE = `https://images.example.invalid/${tag}/banner.png`;

let browser: Browser;
let page: Page;
let campaignId = 0;

async function toast(text: string): Promise<Locator> {
  const t = page.getByTestId('toast').filter({ hasText: text }).first();
  await t.waitFor();
  return t;
}

async function closeToast(): Promise<void> {
  const close = page.getByTestId('toast').getByRole('button', { name: 'Close' });
  if (await close.isVisible()) await close.click();
  await page.getByTestId('toast').waitFor({ state: 'hidden' });
}

/** GET through the page's session (cookies), as the screens do. */
async function api<T>(path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const res = await fetch(p, { credentials: 'include' });
    return res.json();
  }, path) as Promise<T>;
}

/** Waits until `read()` gives `expected` (10 s), then checks it. */
async function until<T>(read: () => Promise<T>, expected: T): Promise<void> {
  const deadline = Date.now() + 10_000;
  let value = await read();
  while (JSON.stringify(value) !== JSON.stringify(expected) && Date.now() < deadline) {
    await page.waitForTimeout(100);
    value = await read();
  }
  expect(value).toEqual(expected);
}

const templateRows = (): Locator => page.getByRole('table', { name: 'Email templates' }).locator('tbody tr');

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await signIn(page, 'admin', adminPassword, url);
});

afterAll(async () => {
  await browser?.close();
});

describe('campaigns and templates through the gateway', () => {
  it('creates a campaign (name required, type defaults to abandoned_cart)', async () => {
    await page.getByRole('link', { name: 'Email Campaigns' }).click();
    await page.getByRole('heading', { name: 'Email Campaigns', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Create Campaign' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Campaign' });
    expect(await dialog.getByLabel('Campaign Type').inputValue()).toBe('abandoned_cart');
    await dialog.getByRole('button', { name: 'Create Campaign' }).click();
    await dialog.getByText('Campaign name is required').waitFor();
    await dialog.getByLabel(/^Campaign Name/).fill(CAMPAIGN);
    await dialog.getByRole('button', { name: 'Create Campaign' }).click();
    await toast('Campaign created');
    await dialog.waitFor({ state: 'hidden' });

    const row = page.getByRole('row').filter({ hasText: CAMPAIGN });
    await row.waitFor();
    await row.getByText('abandoned_cart').waitFor();
    await row.getByText('Active').waitFor();
    await row.getByRole('cell', { name: '—', exact: true }).waitFor(); // no description
    const href = await row.getByRole('link', { name: `Templates of ${CAMPAIGN}` }).getAttribute('href');
    campaignId = Number(/\/email-templates\/(\d+)$/.exec(href ?? '')?.[1]);
    expect(campaignId).toBeGreaterThan(0);
    await closeToast();
  });

  it('edits the campaign: new name and a description', async () => {
    await page.getByRole('button', { name: `Edit ${CAMPAIGN}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Campaign' });
    await dialog.getByLabel(/^Campaign Name/).fill(RENAMED);
    await dialog.getByLabel('Description').fill('Two reminders for e2e carts');
    await dialog.getByRole('button', { name: 'Update Campaign' }).click();
    await toast('Campaign updated');
    await page.getByRole('row').filter({ hasText: RENAMED }).getByText('Two reminders for e2e carts').waitFor();
    await closeToast();
  });

  it('writes the first template in the rich editor: bold text, a link and an image at the end', async () => {
    await page.getByRole('link', { name: `Templates of ${RENAMED}` }).click();
    await page.getByRole('heading', { name: `Email Templates - ${RENAMED}`, level: 1 }).waitFor();
    await page.getByText('Two reminders for e2e carts').waitFor();
    await page.getByText('No templates found. Create your first template using the button above.').waitFor();

    await page.getByRole('button', { name: 'Add Template' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Template' });
    // Section 9 defaults of a campaign's first template.
    expect(await dialog.getByLabel(/^From Name/).inputValue()).toBe('Notification');
    expect(await dialog.getByRole('spinbutton', { name: 'Order' }).inputValue()).toBe('1');
    expect(await dialog.getByRole('spinbutton', { name: 'Delay' }).inputValue()).toBe('0');
    await dialog.getByRole('button', { name: 'Create Template' }).click();
    await dialog.getByText('Template name is required').waitFor();
    await dialog.getByText('Subject is required').waitFor();
    await dialog.getByText('Email content is required').waitFor();

    await dialog.getByLabel(/^Template Name/).fill(FIRST);
    await dialog.getByLabel(/^Subject/).fill('You left something behind');
    const editor = dialog.getByRole('textbox', { name: 'Email content' });
    await editor.click();
    await page.keyboard.type('Your cart misses you');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Visit the shop');
    // Bold applied to a selection, not toggled before typing: a toggled mark is only "stored" on the empty cursor
    // and is dropped when the editor's selection is reset between the toolbar click and the first keystroke
    // (focus handling on a loaded machine), which left the text plain and the test waiting for <strong>.
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+End');
    await dialog.getByRole('button', { name: 'Bold', exact: true }).click();
    await editor.locator('strong', { hasText: 'Your cart misses you' }).waitFor();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Shift+Home');
    await dialog.getByRole('button', { name: 'Link', exact: true }).click();
    await page.getByRole('textbox', { name: 'Link' }).fill('shop.example.com/cart');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await editor.locator('a', { hasText: 'Visit the shop' }).waitFor();
    await editor.locator('strong', { hasText: 'Your cart misses you' }).waitFor();

    await dialog.getByRole('button', { name: 'Insert image from URL' }).click();
    const insert = page.getByRole('dialog', { name: 'Insert Image' });
    await insert.getByLabel('Image URL').fill('javascript:alert(1)');
    await insert.getByText('Use an http or https address (or choose a file).').waitFor();
    expect(await insert.getByRole('button', { name: 'Insert', exact: true }).isDisabled()).toBe(true);
    await insert.getByLabel('Image URL').fill(IMAGE);
    await insert.locator('img[data-fallback="true"]').waitFor(); // the URL does not load: fallback preview
    // Alt text is required: without it Insert stays disabled.
    expect(await insert.getByRole('button', { name: 'Insert', exact: true }).isDisabled()).toBe(true);
    await insert.getByLabel('Alt text').fill('Our shop');
    await insert.getByRole('button', { name: 'Insert', exact: true }).click();
    await insert.waitFor({ state: 'hidden' });
    await editor.locator(`img[src="${IMAGE}"]`).waitFor({ state: 'attached' });

    // The raw HTML tab shows the same content, the image last.
    await dialog.getByRole('tab', { name: 'HTML' }).click();
    const raw = await dialog.getByLabel('HTML content').inputValue();
    expect(raw).toContain('<strong>Your cart misses you</strong>');
    expect(raw).toMatch(/<a [^>]*href="https:\/\/shop\.example\.com\/cart"[^>]*>Visit the shop<\/a>/);
    expect(raw.trim()).toMatch(new RegExp(`<img src="${IMAGE.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"[^>]*>$`));

    await dialog.getByRole('button', { name: 'Create Template' }).click();
    await toast('Template created');
    await dialog.waitFor({ state: 'hidden' });
    await closeToast();

    const [saved] = await api<EmailTemplate[]>(`/api/resend/templates/campaign/${campaignId}`);
    expect(saved).toMatchObject({ name: FIRST, template_order: 1, delay_hours: 0, from_name: 'Notification' });
    expect(saved.html_content).toContain('<strong>Your cart misses you</strong>');
    expect(saved.html_content).toContain('href="https://shop.example.com/cart"');
    expect(saved.html_content.trim()).toMatch(/<img src="[^"]+banner\.png"[^>]*\/?>$/);
  });

  it('adds a second template after the first (order 2, 24 h by default) in the HTML tab', async () => {
    await page.getByRole('button', { name: 'Add Template' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Template' });
    expect(await dialog.getByRole('spinbutton', { name: 'Order' }).inputValue()).toBe('2');
    expect(await dialog.getByRole('spinbutton', { name: 'Delay' }).inputValue()).toBe('24');
    await dialog.getByLabel(/^Template Name/).fill(SECOND);
    await dialog.getByLabel(/^Subject/).fill('Last call for your cart');
    await dialog.getByRole('spinbutton', { name: 'Delay' }).fill('26');
    await dialog.getByRole('tab', { name: 'HTML' }).click();
    await dialog
      .getByLabel('HTML content')
      .fill('<p>Hi {{contactEmail}}, <a href="{{recoveryUrl}}">complete your purchase</a>.</p>');
    await dialog.getByRole('button', { name: 'Create Template' }).click();
    await toast('Template created');
    await dialog.waitFor({ state: 'hidden' });
    await closeToast();

    await until(() => templateRows().count(), 2);
    const cells = async (i: number) => templateRows().nth(i).getByRole('cell').allInnerTexts();
    const [first, second] = [await cells(0), await cells(1)];
    expect(first.slice(0, 4)).toEqual(['1', FIRST, 'You left something behind', 'No delay']);
    expect(second.slice(0, 4)).toEqual(['2', SECOND, 'Last call for your cart', '1 day 2 hours']);
    expect(first[4]).toBe('Active');
  });

  it('sends a test email: without a Resend key the dialog shows the error and the toast says so', async () => {
    await page.getByRole('button', { name: `Send test email: ${FIRST}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Send Test Email' });
    const send = dialog.getByRole('button', { name: 'Send Test' });
    expect(await send.isDisabled()).toBe(true); // sent only when an address is entered
    expect(await dialog.getByLabel('Email Address').getAttribute('type')).toBe('email');
    await dialog.getByLabel('Email Address').fill(`test.${tag}@example.com`);
    await send.click();
    const alert = dialog.getByTestId('test-email-error');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/Resend is not configured/);
    const t = await toast('Error sending test email');
    expect(await t.innerText()).toMatch(/Resend is not configured/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await closeToast();
  });

  it("deletes a template after 'Are you sure?'", async () => {
    await page.getByRole('button', { name: `Delete ${SECOND}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await templateRows().count()).toBe(2);

    await page.getByRole('button', { name: `Delete ${SECOND}` }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast('Template deleted');
    await until(() => templateRows().count(), 1);
    await closeToast();
  });

  it('deletes the campaign after its confirmation; its template is orphaned, not deleted', async () => {
    await page.getByRole('link', { name: 'Back to Campaigns' }).click();
    await page.getByRole('heading', { name: 'Email Campaigns', level: 1 }).waitFor();
    await page.getByRole('button', { name: `Delete ${RENAMED}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
    await confirm
      .getByText(
        `This will permanently delete the campaign "${RENAMED}" and cannot be undone. All templates associated with this campaign will be orphaned.`,
      )
      .waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast('Campaign deleted');
    await page.getByRole('row').filter({ hasText: RENAMED }).waitFor({ state: 'detached' });

    const all = await api<EmailTemplate[]>('/api/resend/templates');
    expect(all.find((t) => t.name === FIRST)?.campaign_id).toBe(campaignId);
    // Its campaign page is gone; the orphan shows on the legacy page instead, marked, so it can still be edited or
    // deleted.
    await page.goto(`${url}/email-templates/${campaignId}`);
    await page.getByText('Error loading campaign or templates').waitFor();
    await page.goto(`${url}/resend-templates`);
    await page.getByRole('heading', { name: 'Resend Email Templates', level: 1 }).waitFor();
    const orphan = page.getByTestId('template-card').filter({ hasText: FIRST });
    await orphan.waitFor();
    expect(await orphan.getByTestId('orphan-note').textContent()).toBe(
      `Orphaned: its campaign (#${campaignId}) was deleted`,
    );
    await orphan.getByRole('button', { name: `Edit ${FIRST}` }).waitFor();
  });
});

describe('legacy templates and the Resend page', () => {
  const LEGACY = `Legacy ${tag}`;
  const card = (): Locator => page.getByTestId('template-card').filter({ hasText: LEGACY });

  it('creates a standalone template from the default content, previews it sandboxed, edits and deletes it', async () => {
    await page.goto(`${url}/resend-templates`);
    await page.getByRole('heading', { name: 'Resend Email Templates', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New Template' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Template' });
    expect(await dialog.getByLabel(/^Subject Line/).inputValue()).toBe('Your cart is waiting!');
    expect(await dialog.getByLabel(/^From Name/).inputValue()).toBe('Cart Reminders');
    const editor = dialog.getByRole('textbox', { name: 'HTML content' });
    await editor.getByText('Complete Your Purchase').waitFor();
    await dialog.getByText('{{recoveryUrl}}', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Create Template' }).click();
    await dialog.getByText('Template name is required').waitFor();
    await dialog.getByLabel(/^Subject Line/).fill('');
    await dialog.getByLabel(/^Template Name/).fill(LEGACY);
    await dialog.getByRole('button', { name: 'Create Template' }).click();
    await dialog.getByText('Subject line is required').waitFor();
    await dialog.getByLabel(/^Subject Line/).fill('Your cart is waiting!');

    await dialog.getByRole('tab', { name: 'Preview' }).click();
    // The stack's database is shared with the other files, whose contacts may be there (the newest with a cart is
    // the default): sample data is chosen, whose address is the sample shopper's.
    await dialog.getByRole('combobox', { name: 'Preview as' }).click();
    await page.getByRole('option', { name: 'Sample data' }).click();
    const preview = dialog.locator('iframe[title="Email preview with contact data"]');
    await preview.contentFrame().getByText('Hi jane@example.com,').waitFor();
    expect(await preview.getAttribute('sandbox')).toBe('');
    await dialog.getByRole('button', { name: 'Create Template' }).click();
    await toast('Template created');
    await card().waitFor();
    await card().getByText('Active').waitFor();
    await card().getByText('Cart Reminders').waitFor();
    await card().locator('iframe[sandbox=""]').contentFrame().getByText('Complete Your Purchase').waitFor();
    await closeToast();

    await card()
      .getByRole('button', { name: `Edit ${LEGACY}` })
      .click();
    const edit = page.getByRole('dialog', { name: 'Edit Template' });
    await edit.getByLabel(/^From Name/).fill('The Shop');
    await edit.getByRole('button', { name: 'Update Template' }).click();
    await toast('Template updated');
    await card().getByText('The Shop').waitFor();
    await closeToast();

    await card()
      .getByRole('button', { name: `Delete ${LEGACY}` })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Delete Template' });
    await confirm.getByText('Are you sure you want to delete this template?').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast('Template deleted');
    await card().waitFor({ state: 'detached' });
    await closeToast();
  });

  it('shows the Resend status and a failed connection test when no key is set', async () => {
    await page.getByRole('link', { name: 'Resend Config' }).click();
    await page.getByTestId('config-status').getByText('Not configured', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Test Connection' }).click();
    await toast('Connection failed');
    await page.getByTestId('connection-result').getByText('Connection failed').waitFor();
  });
});
