// The template editor's link popover in Chromium: a link the email may not carry (javascript:, data:,
// ftp:) or that is no URL at all is refused with a message under the field and nothing is saved (mui-tiptap's
// own form saved href="" or "https://not a url" silently); a good one is saved, can be edited and removed.
import type { Browser, Page } from 'playwright-core';
import type { EmailCampaign } from '@act/contracts/src/email-api';
import { launchBrowser, readStack, screenshotBoth, signIn } from '../../infra/e2e/browser';

const { url, adminPassword } = readStack();
const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

let browser: Browser;
let page: Page;
let campaignId = 0;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await signIn(page, 'admin', adminPassword, url);
  const campaign = (await page.evaluate(async (name) => {
    const res = await fetch('/api/email/campaigns', {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    return res.json();
  }, `Links ${tag}`)) as EmailCampaign;
  campaignId = campaign.id;
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

it('says what is wrong with a link, saves only a good one, and edits and removes it', async () => {
  await page.goto(`${url}/email-templates/${campaignId}`);
  await page.getByRole('button', { name: 'Add Template' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Template' });
  const editor = dialog.getByRole('textbox', { name: 'Email content' });
  await editor.click();
  await page.keyboard.type('Visit the shop');
  await page.keyboard.press('Shift+Home');
  await dialog.getByRole('button', { name: 'Link', exact: true }).click();

  const form = page.getByRole('form', { name: 'Add link' });
  const link = form.getByRole('textbox', { name: 'Link' });
  expect(await form.getByRole('textbox', { name: 'Text' }).inputValue()).toBe('Visit the shop');
  const refused: [string, string][] = [
    ['javascript:alert(1)', 'Links must start with http://, https://, mailto: or tel:'],
    ['data:text/html,<b>hi</b>', 'Links must start with http://, https://, mailto: or tel:'],
    ['ftp://files.example.com/cart.pdf', 'Links must start with http://, https://, mailto: or tel:'],
    ['not a url', 'Enter a valid URL'],
  ];
  for (const [typed, message] of refused) {
    await link.fill(typed);
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await form.getByText(message, { exact: true }).waitFor();
    // Kept as typed (not "https://not a url"), marked invalid, and the popover stays open with nothing saved.
    expect(await link.inputValue()).toBe(typed);
    expect(await link.getAttribute('aria-invalid')).toBe('true');
    expect(await editor.locator('a').count()).toBe(0);
  }
  // Typing again clears the message.
  await link.fill('shop.example.com/cart');
  expect(await form.getByText('Enter a valid URL').count()).toBe(0);
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await form.waitFor({ state: 'detached' });
  const saved = editor.locator('a', { hasText: 'Visit the shop' });
  await saved.waitFor();
  expect(await saved.getAttribute('href')).toBe('https://shop.example.com/cart');

  // Editing it: a bad link is refused and Cancel keeps the saved one; Remove takes the link away, not the text.
  // Clicking the link shows it (mui-tiptap's view: Edit / Remove); Edit opens this form with the saved link.
  // Each time at another place in the link: a click that leaves the caret where it already was changes no selection,
  // and the bubble menu, closed by Cancel, opened again only now and then (a CI failure waiting for Edit).
  let clicks = 0;
  const openEdit = async () => {
    const box = (await saved.boundingBox())!;
    clicks += 1;
    await saved.click({ position: { x: Math.max(2, box.width - 4 * clicks * 6), y: box.height / 2 } });
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
  };
  await openEdit();
  const edit = page.getByRole('form', { name: 'Edit link' });
  expect(await edit.getByRole('textbox', { name: 'Link' }).inputValue()).toBe('https://shop.example.com/cart');
  await edit.getByRole('textbox', { name: 'Link' }).fill('javascript:alert(document.cookie)');
  await edit.getByRole('button', { name: 'Save', exact: true }).click();
  await edit.getByText('Links must start with http://, https://, mailto: or tel:').waitFor();
  await edit.getByRole('button', { name: 'Cancel', exact: true }).click();
  await edit.waitFor({ state: 'detached' });
  expect(await saved.getAttribute('href')).toBe('https://shop.example.com/cart');

  await openEdit();
  await edit.getByRole('button', { name: 'Remove', exact: true }).click();
  await edit.waitFor({ state: 'detached' });
  await editor.getByText('Visit the shop').waitFor();
  expect(await editor.locator('a').count()).toBe(0);
});

it('puts a variable from the chips where the caret is, in the rich text and in the raw HTML (the unsubscribe link among them)', async () => {
  await page.goto(`${url}/email-templates/${campaignId}`);
  await page.getByRole('button', { name: 'Add Template' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Template' });
  const chip = (name: string) => dialog.getByRole('button', { name: new RegExp(`^Insert \\{\\{${name}\\}\\}`) });
  const editor = dialog.getByRole('textbox', { name: 'Email content' });
  await editor.click();
  await page.keyboard.type('Hi ');
  await chip('contactEmail').click();
  // The chip hands the caret back to the editor, after what it put there.
  await page.keyboard.type(', leave any time: ');
  await chip('unsubscribeUrl').click();
  await editor.getByText('Hi {{contactEmail}}, leave any time: {{unsubscribeUrl}}').waitFor();
  await screenshotBoth(page, 'template-variables');

  await dialog.getByRole('tab', { name: 'HTML' }).click();
  const html = dialog.getByLabel('HTML content');
  await html.fill('<p>Back to <a href="">your cart</a></p>');
  await html.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(20, 20));
  await chip('recoveryUrl').click();
  expect(await html.inputValue()).toBe('<p>Back to <a href="{{recoveryUrl}}">your cart</a></p>');
  // The caret follows what was put in: typing goes on after it.
  await page.keyboard.type('?c=1');
  expect(await html.inputValue()).toBe('<p>Back to <a href="{{recoveryUrl}}?c=1">your cart</a></p>');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
});
