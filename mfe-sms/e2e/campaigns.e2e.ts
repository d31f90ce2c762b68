// /sms-campaigns in Chromium through the gateway: campaign and template forms with their messages, the live
// x/160 counter, the Test SMS dialog, and deleting a campaign with its templates.
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../infra/e2e/browser';
import { expectToast, openSession, uid, type Session } from './helpers';

describe('SMS campaigns and templates', () => {
  let browser: Browser;
  let s: Session;
  const id = uid();
  const name = `E2E Recovery ${id}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    s = await openSession(browser);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('creates a campaign (name required, No Integration by default)', async () => {
    const { page, url } = s;
    await page.goto(`${url}/sms-campaigns`);
    await page.getByRole('heading', { name: 'SMS Campaigns', exact: true }).waitFor();
    await page.getByRole('button', { name: 'New Campaign' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New SMS Campaign' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Campaign name is required').waitFor();
    expect(await dialog.getByRole('combobox', { name: 'Integration' }).textContent()).toBe('No Integration');
    await dialog.getByRole('textbox', { name: 'Campaign Name' }).fill(name);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectToast(page, 'Campaign created successfully');
    const card = page.getByRole('article', { name });
    await card.getByText('No Integration').waitFor();
    await card.getByText('0 templates').waitFor();
    await card.getByText('Active', { exact: true }).waitFor();
  });

  it('adds a template: messages, the live x/160 counter and the placeholders hint', async () => {
    const { page } = s;
    const card = page.getByRole('article', { name });
    await card.getByRole('button', { name: 'Add Template' }).click();
    const dialog = page.getByRole('dialog', { name: 'New SMS Template' });
    const counter = dialog.getByTestId('sms-counter');
    expect(await counter.textContent()).toBe('0/160');
    expect(await dialog.getByRole('spinbutton', { name: 'Sequence Order' }).inputValue()).toBe('1');
    expect(await dialog.getByRole('spinbutton', { name: 'Delay' }).inputValue()).toBe('0');
    await dialog.getByTestId('placeholder-hint').getByText('{{firstName}}').waitFor();
    await dialog.getByTestId('placeholder-hint').getByText('{{checkoutUrl}}').waitFor();

    await dialog.getByRole('spinbutton', { name: 'Sequence Order' }).fill('0');
    await dialog.getByRole('spinbutton', { name: 'Delay' }).fill('-5');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Template name is required').waitFor();
    await dialog.getByText('Message is required').waitFor();
    await dialog.getByText('Sequence order must be at least 1').waitFor();
    await dialog.getByText('Delay must be 0 or greater').waitFor();

    const message = dialog.getByRole('textbox', { name: 'Message' });
    await message.fill('x'.repeat(161));
    expect(await counter.textContent()).toBe('161/160');
    await dialog.getByText('SMS messages must be 160 characters or less').waitFor();
    await message.fill('x'.repeat(160));
    expect(await counter.textContent()).toBe('160/160');
    await dialog.getByText('SMS messages must be 160 characters or less').waitFor({ state: 'detached' });

    const text = 'Hi , you left something behind: ';
    await message.fill(text);
    // Clicking a placeholder inserts it at the caret.
    await message.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(3, 3));
    await dialog.getByRole('button', { name: 'Insert {{firstName}}' }).click();
    await message.press('End');
    await dialog.getByRole('button', { name: 'Insert {{checkoutUrl}}' }).click();
    expect(await message.inputValue()).toBe('Hi {{firstName}}, you left something behind: {{checkoutUrl}}');
    expect(await counter.textContent()).toBe('60/160');
    // The preview is the service's own renderer; with sample data (not the newest contact other tests left).
    await dialog.getByRole('combobox', { name: 'Preview as' }).click();
    await page.getByRole('option', { name: 'Sample data' }).click();
    await dialog.getByTestId('sms-preview-text').getByText('Hi Jane, you left something behind: https://example.com/checkout').waitFor();

    await dialog.getByRole('textbox', { name: 'Template Name' }).fill('First nudge');
    await dialog.getByRole('spinbutton', { name: 'Sequence Order' }).fill('1');
    await dialog.getByRole('spinbutton', { name: 'Delay' }).fill('0');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectToast(page, 'Template created successfully');
    await card.getByText('1 template', { exact: true }).waitFor();
    await card.getByRole('button', { name: /^Edit template #\d+ First nudge/ }).waitFor();
  });

  it('a second template proposes the next order; templates list by order with their delay', async () => {
    const { page } = s;
    const card = page.getByRole('article', { name });
    await card.getByRole('button', { name: 'Add Template' }).click();
    const dialog = page.getByRole('dialog', { name: 'New SMS Template' });
    expect(await dialog.getByRole('spinbutton', { name: 'Sequence Order' }).inputValue()).toBe('2');
    await dialog.getByRole('textbox', { name: 'Template Name' }).fill('Second nudge');
    await dialog.getByRole('textbox', { name: 'Message' }).fill('Still there? {checkout_url}');
    await dialog.getByRole('spinbutton', { name: 'Delay' }).fill('15');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectToast(page, 'Template created successfully');
    const rows = card.getByRole('list', { name: `Templates of ${name}` }).getByRole('listitem');
    await rows.nth(1).getByText('15 min delay').waitFor();
    expect(
      await rows
        .nth(0)
        .getByText(/^#\d+$/)
        .textContent(),
    ).toBe('#1');
    expect(
      await rows
        .nth(1)
        .getByText(/^#\d+$/)
        .textContent(),
    ).toBe('#2');
    expect(
      await rows
        .nth(0)
        .getByText(/min delay$/)
        .count(),
    ).toBe(0);
  });

  it('clicking a template opens it for editing', async () => {
    const { page } = s;
    const card = page.getByRole('article', { name });
    await card.getByRole('button', { name: /^Edit template #\d+ Second nudge/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit SMS Template' });
    expect(await dialog.getByRole('spinbutton', { name: 'Delay' }).inputValue()).toBe('15');
    await dialog.getByRole('textbox', { name: 'Template Name' }).fill('Second reminder');
    await dialog.getByRole('switch', { name: 'Active' }).uncheck();
    await dialog.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'Template updated successfully');
    const row = card.getByRole('listitem').filter({ hasText: 'Second reminder' });
    await row.getByRole('img', { name: 'Inactive' }).waitFor();
  });

  it('Test SMS: phone messages, then the server answer (Twilio is not configured in the test stack)', async () => {
    const { page } = s;
    const card = page.getByRole('article', { name });
    await card.getByRole('button', { name: 'Test First nudge' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send Test SMS' });
    await dialog.getByRole('button', { name: 'Send Test' }).click();
    await dialog.getByText('Phone number is required').waitFor();
    await dialog.getByRole('textbox', { name: 'Phone Number' }).fill('12345');
    await dialog.getByText('Invalid phone number format').waitFor();
    await dialog.getByRole('textbox', { name: 'Phone Number' }).fill('+15551234567');
    await dialog.getByRole('button', { name: 'Send Test' }).click();
    await expectToast(page, /^ErrorFailed to send test SMS: Twilio is not configured/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('edits the campaign, then deletes it with its templates after "Are you sure?"', async () => {
    const { page } = s;
    const renamed = `${name} v2`;
    await page.getByRole('button', { name: `Edit campaign ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit SMS Campaign' });
    await edit.getByRole('textbox', { name: 'Campaign Name' }).fill(renamed);
    await edit.getByRole('switch', { name: 'Active' }).uncheck();
    await edit.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'Campaign updated successfully');
    const card = page.getByRole('article', { name: renamed });
    await card.getByText('Inactive', { exact: true }).waitFor();

    await page.getByRole('button', { name: `Delete campaign ${renamed}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Campaign and associated templates deleted successfully');
    await card.waitFor({ state: 'detached' });
  });
});
