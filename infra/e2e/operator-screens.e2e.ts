// The operator's screens in Chromium through the gateway, at 1440x900 and at a phone's 390x844: one date and money
// format in the viewer's zone, list rows as cards on a phone, an email campaign attached and both channels created
// from one form, "How to connect" with the integration's own URL, the image dialog's alt text and the first-name
// variable. Screenshots go to .run/screenshots (operator-*-1440.png / -390.png).
import { MongoClient } from 'mongodb';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser, openedDialog, readStack, screenshotPath, signIn } from './browser';

const stack = readStack();
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const tag = `ops-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

let browser: Browser;
let context: BrowserContext;
let page: Page;

/** A signed-in JSON call from the page (same origin, its cookie), as the screens make them. */
async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const res = await fetch(url, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return res.json();
    },
    { method, url, body },
  ) as Promise<T>;
}

async function shoot(name: string) {
  await page.screenshot({ path: screenshotPath(`operator-${name}-${page.viewportSize()!.width}.png`), fullPage: true });
}

async function settled() {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => !document.querySelector('.MuiSkeleton-root, [role="progressbar"]'), undefined, {
    timeout: 15_000,
  });
}

/** Inside the viewport as it is now. */
async function expectOnScreen(what: string, locator: Locator) {
  const box = (await locator.boundingBox())!;
  const { width, height } = page.viewportSize()!;
  const inside = box.x >= 0 && box.y >= 0 && box.x + box.width <= width + 0.5 && box.y + box.height <= height + 0.5;
  expect([what, box, inside]).toEqual([what, box, true]);
}

async function expectNoSidewaysScroll() {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
  // Nor, on a phone, inside a table's card: its rows are cards as wide as the screen.
  if (page.viewportSize()!.width > PHONE.width) return;
  const wide = await page.evaluate(
    () =>
      [...document.querySelectorAll<HTMLElement>('.MuiTableContainer-root')].filter(
        (el) => el.scrollWidth > el.clientWidth + 1,
      ).length,
  );
  expect(wide).toBe(0);
}

const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

interface Integration {
  id: number;
  name: string;
  funnel_id: string;
  campaign_id: number | null;
  webhook_url: string;
}

let campaignId: number;
let smsCampaignId: number;

beforeAll(async () => {
  browser = await launchBrowser();
  // A viewer in New York: the dates must be written in that zone, named where it matters.
  context = await browser.newContext({ viewport: DESKTOP, timezoneId: 'America/New_York', locale: 'en-US' });
  page = await context.newPage();
  await signIn(page, 'admin', stack.adminPassword, stack.url);
  campaignId = (
    await api<{ id: number }>('POST', '/api/email/campaigns', {
      name: `Nudges ${tag}`,
      type: 'abandoned_cart',
      active: true,
    })
  ).id;
  for (const [order, subject] of [
    [1, 'Your cart'],
    [2, 'Still there?'],
  ] as const)
    await api('POST', '/api/resend/templates', {
      name: `Step ${order} ${tag}`,
      subject,
      from_name: 'Shop',
      html_content: '<p>Hi {{firstName}}, <a href="{{recoveryUrl}}">back to your cart</a></p>',
      type: 'abandoned_cart',
      active: true,
      campaign_id: campaignId,
      template_order: order,
      delay_hours: order === 1 ? 0 : 24,
    });
  smsCampaignId = (
    await api<{ id: number }>('POST', '/api/sms-campaigns', {
      name: `Texts ${tag}`,
      integration_id: null,
      active: true,
    })
  ).id;
}, 90_000);

afterAll(async () => {
  await browser?.close();
});

it('connect and attach: one form creates the email and SMS integrations of a funnel, with the email campaign', async () => {
  await page.setViewportSize(DESKTOP);
  await page.goto(`${stack.url}/webhook-integrations`);
  await page.getByRole('button', { name: 'Add New Integration' }).click();
  const sheet = await openedDialog(page, 'New Integration');
  await sheet.getByRole('radio', { name: 'Email and SMS' }).check();
  await sheet.getByLabel(/^Name/).fill(`Both ${tag}`);
  await sheet.getByLabel(/^Funnel ID/).fill(`${tag}-both`);
  await sheet.getByRole('combobox', { name: 'Email campaign' }).click();
  await page
    .getByRole('listbox')
    .getByRole('option', { name: `Nudges ${tag}` })
    .click();
  await page.getByRole('listbox').waitFor({ state: 'detached' });
  await sheet.getByRole('combobox', { name: 'SMS campaign' }).click();
  await page
    .getByRole('listbox')
    .getByRole('option', { name: `Texts ${tag}` })
    .click();
  await page.getByRole('listbox').waitFor({ state: 'detached' });
  await page.screenshot({ path: screenshotPath('operator-integration-form-1440.png') });
  // On a phone: the channel choice and both campaigns, each on screen in turn, nothing to the side.
  await page.setViewportSize(PHONE);
  for (const [what, field] of [
    ['channels', sheet.getByRole('radio', { name: 'Email and SMS' })],
    ['email campaign', sheet.getByRole('combobox', { name: 'Email campaign' })],
    ['SMS campaign', sheet.getByRole('combobox', { name: 'SMS campaign' })],
  ] as const) {
    await field.scrollIntoViewIfNeeded();
    await expectOnScreen(what, field);
  }
  expect(await sheet.getByRole('combobox', { name: 'Email campaign' }).textContent()).toBe(`Nudges ${tag}`);
  await expectNoSidewaysScroll();
  await page.screenshot({ path: screenshotPath('operator-integration-form-390.png') });
  await page.setViewportSize(DESKTOP);
  await sheet.getByRole('button', { name: 'Create' }).click();
  await page.getByText(`Both ${tag} (email and SMS)`).waitFor();

  // Two records, one per side, as the specification has them.
  const email = (await api<Integration[]>('GET', '/api/webhook-integrations')).filter(
    (i) => i.funnel_id === `${tag}-both`,
  );
  const sms = (
    await api<(Integration & { sms_campaign_id: number | null })[]>('GET', '/api/sms-webhook-integrations')
  ).filter((i) => i.funnel_id === `${tag}-both`);
  expect(email.map((i) => [i.name, i.campaign_id])).toEqual([[`Both ${tag}`, campaignId]]);
  expect(sms.map((i) => [i.name, i.sms_campaign_id])).toEqual([[`Both ${tag}`, smsCampaignId]]);

  // The card names the campaign and links to its templates, in order the sequence.
  const card = page.getByRole('article', { name: `Both ${tag}` });
  await card.getByRole('link', { name: `Nudges ${tag}` }).waitFor();
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await card.scrollIntoViewIfNeeded();
    await expectOnScreen('How to connect', card.getByRole('link', { name: `How to connect Both ${tag}` }));
    await expectNoSidewaysScroll();
    await shoot('integrations');
  }
  await page.setViewportSize(DESKTOP);
  await card.getByRole('link', { name: `Nudges ${tag}` }).click();
  await page.waitForURL(`**/email-templates/${campaignId}`);
  // The template's own heading (the page's incentive and experiment panels name the step too).
  await page.getByRole('heading', { name: `Step 2 ${tag} (step 2)` }).waitFor();
});

it('How to connect: the integration’s sender tab with its own URL written in, whole on a phone', async () => {
  const [integration] = (await api<Integration[]>('GET', '/api/webhook-integrations')).filter(
    (i) => i.funnel_id === `${tag}-both`,
  );
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto(`${stack.url}/webhook-integrations`);
    const link = page
      .getByRole('article', { name: `Both ${tag}` })
      .getByRole('link', { name: `How to connect Both ${tag}` });
    await link.scrollIntoViewIfNeeded();
    await link.click();
    await page.waitForURL(`**/documentation?integration=${integration!.id}`);
    await page.getByTestId('connect-target').getByText(`Both ${tag}`).waitFor();
    // No sender set on it yet: the first real sender's steps, ClickFunnels 2.0.
    expect(await page.getByRole('tab', { selected: true }).textContent()).toBe('ClickFunnels 2.0');
    const url = page.getByLabel(`Webhook URL of Both ${tag}`, { exact: true });
    expect(await url.textContent()).toBe(integration!.webhook_url);
    // Every character laid out in the block, and the copy button beside none of them.
    expect(await url.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const copy = page.getByRole('button', { name: `Copy Webhook URL of Both ${tag}` });
    expect(overlap((await url.boundingBox())!, (await copy.boundingBox())!)).toBe(false);
    await expectNoSidewaysScroll();
    await shoot('how-to-connect');
  }
});

it('Documentation: opens on its first tab for a user whose integrations name no sender; ClickFunnels is sent to its own steps first', async () => {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto(`${stack.url}/documentation`);
    await settled();
    const tab = await page.getByRole('tab', { selected: true }).textContent();
    const integrations = await api<{ signing: { source: string | null } }[]>('GET', '/api/webhook-integrations');
    // The stack is shared with other tests: the tab follows whatever sender its integrations name, else the first tab.
    if (integrations.every((i) => i.signing.source === null)) expect(tab).toBe('ClickFunnels Setup');
    else expect(tab).not.toBe('ClickFunnels Setup');
    await page.getByRole('tab', { name: 'ClickFunnels Setup' }).click();
    const step2 = page.getByRole('region', { name: /Step 2/ });
    const note = (await step2.getByTestId('setup-own-senders').boundingBox())!;
    const firstEvent = (await step2.getByText('contact_created', { exact: true }).boundingBox())!;
    expect(note.y).toBeLessThan(firstEvent.y);
    const endpoint = page.getByLabel('Webhook endpoint URL', { exact: true });
    expect(await endpoint.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const copy = page.getByRole('button', { name: 'Copy Webhook endpoint URL' });
    expect(overlap((await endpoint.boundingBox())!, (await copy.boundingBox())!)).toBe(false);
    await expectNoSidewaysScroll();
    await shoot('documentation');
  }
});

it('Contacts: one date format in the viewer’s zone (named on Remind At), and on a phone each row a card with its Status and action on screen', async () => {
  const funnel = `${tag}-both`;
  await api('POST', '/api/webhook', {
    event: 'contact_created',
    funnel_id: funnel,
    contact: { id: `${tag}-c1`, email: `${tag}@example.com`, first_name: 'Nora' },
  });
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto(`${stack.url}/contacts`);
    const row = page.getByRole('row').filter({ hasText: `${tag}@example.com` });
    await row.waitFor();
    const times = await row.locator('time').allTextContents();
    // Created At, Remind At (with the zone: EST or EDT), Purchased At empty.
    expect(times[0]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}\d{1,2}:\d{2} [AP]M$/);
    expect(times[1]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}\d{1,2}:\d{2} [AP]M E[SD]T$/);
    const action = row.getByRole('button', { name: 'Mark as Purchased' });
    await action.scrollIntoViewIfNeeded();
    await expectOnScreen('Mark as Purchased', action);
    await expectOnScreen('Status', row.getByText(/^(Pending|Sent|Sent \(simulated\)|Unsubscribed)$/).first());
    await expectNoSidewaysScroll();
    await shoot('contacts');
  }
});

it('User Management on a phone: the row menu opens inside the screen', async () => {
  await page.setViewportSize(PHONE);
  await page.goto(`${stack.url}/users`);
  const more = page.getByRole('button', { name: 'Actions for admin' });
  await more.scrollIntoViewIfNeeded();
  await expectOnScreen('row menu button', more);
  await more.click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  await page.waitForTimeout(400); // the menu's grow transition
  await expectOnScreen('row menu', menu);
  await expectNoSidewaysScroll();
  await shoot('users-menu');
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
});

it('Twilio settings: the Save / Test bar never covers the Blackout fields', async () => {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto(`${stack.url}/twilio-settings`);
    const bar = page.getByTestId('twilio-actions');
    await bar.waitFor();
    for (const name of ['Start Hour', 'End Hour', 'Timezone']) {
      const field = page.getByRole('combobox', { name });
      await field.scrollIntoViewIfNeeded();
      expect([name, overlap((await field.boundingBox())!, (await bar.boundingBox())!)]).toEqual([name, false]);
    }
    await expectNoSidewaysScroll();
    await shoot('twilio');
  }
});

it('Editor: the image dialog asks for alt text, and {{firstName}} is offered', async () => {
  await page.setViewportSize(DESKTOP);
  await page.goto(`${stack.url}/email-templates/${campaignId}`);
  await page.getByRole('button', { name: /Add Template/ }).click();
  const dialog = page.getByRole('dialog').first();
  await dialog.getByRole('button', { name: /Insert \{\{firstName\}\}/ }).waitFor();
  // Filled first: leaving the autofocused name empty shows its error on blur, which moves the toolbar between the
  // press and the release of the click.
  await dialog.getByLabel(/^Template Name/).fill(`Picture ${tag}`);
  await dialog.getByLabel(/^Subject/).fill('Your cart');
  await dialog.getByRole('button', { name: 'Insert image from URL' }).click();
  await page.getByRole('heading', { name: 'Insert Image' }).waitFor();
  const image = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: 'Insert Image' }) });
  await image.getByLabel('Image URL').fill('https://cdn.example.com/shoe.png');
  const insert = image.getByRole('button', { name: 'Insert' });
  expect(await insert.isDisabled()).toBe(true);
  await image.getByRole('textbox', { name: /Alt text/ }).fill('Blue running shoes');
  expect(await insert.isDisabled()).toBe(false);
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: screenshotPath(`operator-image-alt-${viewport.width}.png`) });
  }
  await page.setViewportSize(DESKTOP);
  await insert.click();
  await image.waitFor({ state: 'detached' });
  expect(await dialog.locator('img[alt="Blue running shoes"]').count()).toBe(1);
});

it('Editor: after Save with an empty name, the first click on Bold makes what is typed next bold', async () => {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto(`${stack.url}/email-templates/${campaignId}`);
    await page.getByRole('button', { name: /Add Template/ }).click();
    const dialog = await openedDialog(page, 'Create Template');
    const editor = dialog.getByRole('textbox', { name: 'Email content' });
    await editor.waitFor();
    // Save with every field as the dialog opened: the name is required, and says so.
    await dialog.getByRole('button', { name: 'Create Template' }).click();
    await dialog.getByText('Template name is required').waitFor();
    expect(await dialog.getByRole('textbox', { name: /^Template Name/ }).getAttribute('aria-invalid')).toBe('true');
    // One click on Bold, pressed as long as a person presses (anything that re-renders the toolbar between the press
    // and the release loses the click), then typing: bold from the first letter.
    const bold = dialog.getByRole('button', { name: 'Bold', exact: true });
    await bold.scrollIntoViewIfNeeded();
    await bold.hover();
    await bold.click({ delay: 150 });
    await page.keyboard.type('Hello');
    await editor.locator('strong', { hasText: 'Hello' }).waitFor({ timeout: 5_000 });
    expect(await editor.evaluate((el) => el.innerHTML)).toBe('<p><strong>Hello</strong></p>');
    expect(await bold.getAttribute('aria-pressed')).toBe('true');
    await page.screenshot({ path: screenshotPath(`operator-editor-bold-after-error-${viewport.width}.png`) });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  }
});

it('A contact with a phone that came before its funnel’s SMS integration is picked up when one is created; the form says how far back', async () => {
  const funnel = `${tag}-later`;
  const phone = `+1415555${String(Date.now() % 10_000).padStart(4, '0')}`;
  await api('POST', '/api/webhook-integrations', { name: `Later ${tag}`, funnel_id: funnel, reminder_delay: 60 });
  await api('POST', '/api/webhook', {
    event: 'contact_created',
    funnel_id: funnel,
    contact: { id: `${tag}-early`, email: `${tag}-early@example.com`, phone, first_name: 'Early' },
  });
  const smsRows = async () =>
    (await api<{ items: { phone: string; funnel_id: string }[] }>('GET', `/api/sms-contacts?page=1&pageSize=25&search=${encodeURIComponent(funnel)}`)).items;
  // The email side took it and told the SMS side, which has no integration for the funnel yet: no SMS contact.
  await page.waitForTimeout(3_000);
  expect(await smsRows()).toEqual([]);

  await page.setViewportSize(DESKTOP);
  await page.goto(`${stack.url}/sms-webhooks`);
  await page.getByRole('button', { name: 'Add Integration' }).first().click();
  const dialog = await openedDialog(page, 'Add SMS Integration');
  const howFarBack = dialog.getByText(/Its contacts with a phone from the last 7 days, received before this integration existed, are picked up when you create it\./);
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await howFarBack.scrollIntoViewIfNeeded();
    await expectOnScreen('how far back', howFarBack);
    await page.screenshot({ path: screenshotPath(`operator-sms-pickup-form-${viewport.width}.png`) });
  }
  await dialog.getByRole('textbox', { name: 'Name' }).fill(`Later ${tag}`);
  await dialog.getByRole('textbox', { name: 'Funnel ID' }).fill(funnel);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await dialog.waitFor({ state: 'detached' });

  // Picked up: the earlier contact is an SMS contact of the new integration, on SMS Contacts at both widths.
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto(`${stack.url}/sms-contacts`);
    await page.getByRole('textbox', { name: 'Search' }).fill(funnel);
    const row = page.getByTestId('contact-row').filter({ hasText: phone });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain(`Later ${tag}`);
    await expectNoSidewaysScroll();
    await shoot('sms-pickup');
  }
  expect((await smsRows()).map((c) => c.phone)).toEqual([phone]);
});

it('The contact page stays usable at 1,000 timeline entries for one person: each older page in seconds, every entry once', async () => {
  const contactId = `${tag}-busy`;
  await api('POST', '/api/webhook', { event: 'contact_created', funnel_id: `${tag}-both`, contact: { id: contactId, email: `${tag}-busy@example.com` } });
  const { items } = await api<{ items: { id: number; contact_id: string }[] }>('GET', '/api/contacts?page=1&pageSize=25');
  const id = items.find((c) => c.contact_id === contactId)!.id;
  // 999 reminders (a third at a shared instant, as a burst writes them) beside the delivery: 1,000 entries.
  const client = await MongoClient.connect(stack.mongoUri!);
  try {
    const base = Date.now() - 20 * 86_400_000;
    const firstLogId = 7_000_000_000 + (Date.now() % 1_000_000) * 1_000;
    await client
      .db(stack.databases!['svc-email'])
      .collection('email_logs')
      .insertMany(
        Array.from({ length: 999 }, (_, i) => ({
          id: firstLogId + i,
          contact_id: contactId,
          contact_ref: id,
          email: `${tag}-busy@example.com`,
          timestamp: new Date(base + Math.floor(i / 3) * 60_000),
          message: `Reminder ${i}`,
          status: i % 2 ? 'sent' : 'would_send',
        })),
      );
  } finally {
    await client.close();
  }

  await page.setViewportSize(DESKTOP);
  await page.goto(`${stack.url}/contacts/${id}`);
  const entries = page.getByTestId('timeline-entry');
  await entries.first().waitFor();
  const older = page.getByRole('button', { name: 'Show older' });
  let shown = await entries.count();
  let slowest = 0;
  for (let pages = 1; await older.isVisible(); pages++) {
    expect(pages).toBeLessThan(60);
    const started = Date.now();
    await older.click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="timeline-entry"]').length > n, shown);
    slowest = Math.max(slowest, Date.now() - started);
    shown = await entries.count();
  }
  // Every entry once: the 999 reminders, each by its own text, and the delivery.
  expect(shown).toBe(1000);
  const reminders = await page.getByTestId('timeline-entry').evaluateAll((els) =>
    els.map((el) => /Reminder (\d+)/.exec(el.textContent ?? '')?.[1]).filter((n): n is string => n !== undefined),
  );
  expect(new Set(reminders).size).toBe(999);
  expect(reminders).toHaveLength(999);
  // Newest first: the last reminder written is the first shown.
  expect(reminders[0]).toBe('998');
  expect(slowest).toBeLessThan(5_000);
  // The screen's view only: the whole page is 1,000 rows tall.
  await page.screenshot({ path: screenshotPath('operator-timeline-1000-1440.png') });

  // On a phone, the first page and its "Show older" on screen, nothing to the side.
  await page.setViewportSize(PHONE);
  await page.goto(`${stack.url}/contacts/${id}`);
  await entries.first().waitFor();
  await older.scrollIntoViewIfNeeded();
  await expectOnScreen('Show older', older);
  await expectNoSidewaysScroll();
  await shoot('timeline-1000');
});

it('Email templates accept the SMS spelling too: {first_name} and {{firstName}} both preview as the first name', async () => {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto(`${stack.url}/email-templates/${campaignId}`);
    await page.getByRole('button', { name: /Add Template/ }).click();
    const dialog = await openedDialog(page, 'Create Template');
    await dialog.getByRole('textbox', { name: /^Subject/ }).fill('For {first_name}');
    await dialog.getByRole('tab', { name: 'HTML' }).click();
    await dialog.getByRole('textbox', { name: 'HTML content' }).fill('<p>Hi {first_name} and {{firstName}}, your cart waits.</p>');
    await dialog.getByRole('tab', { name: 'Preview' }).click();
    // Once the picker has chosen its default (the newest contact with a cart, or sample data), sample data is chosen.
    const picker = dialog.getByRole('combobox', { name: 'Preview as' });
    await page.waitForFunction(() => (document.querySelector<HTMLInputElement>('[data-testid="contact-preview"] input')?.value ?? '') !== '');
    await picker.click();
    await page.getByRole('option', { name: 'Sample data' }).click();
    expect(await picker.inputValue()).toBe('Sample data');
    await dialog.getByTestId('preview-subject').getByText('For Jane').waitFor();
    const frame = page.frameLocator('iframe[title="Email preview with contact data"]');
    await frame.getByText('Hi Jane and Jane, your cart waits.').waitFor();
    await dialog.locator('iframe[title="Email preview with contact data"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`operator-placeholder-spellings-${viewport.width}.png`) });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  }
});

it('Contacts: an address on the unsubscribe list reads Unsubscribed, whenever it got there, and the Status filter finds it', async () => {
  const before = `${tag}-unsub-before@example.com`;
  const after = `${tag}-unsub-after@example.com`;
  // One address listed before its contact came, the other after.
  await api('POST', '/api/email-unsubscribes/quick-add', { email: before });
  for (const email of [before, after])
    await api('POST', '/api/webhook', { event: 'contact_created', funnel_id: `${tag}-both`, contact: { id: email, email } });
  await api('POST', '/api/email-unsubscribes/quick-add', { email: after });
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto(`${stack.url}/contacts`);
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Unsubscribed' }).click();
    for (const email of [before, after]) {
      const row = page.getByRole('row').filter({ hasText: email });
      await row.waitFor();
      await row.getByText('Unsubscribed', { exact: true }).waitFor();
    }
    // The filter holds only unsubscribed rows.
    const statuses = await page.locator('tbody tr [data-status]').allTextContents();
    expect(statuses.length).toBeGreaterThanOrEqual(2);
    expect(new Set(statuses)).toEqual(new Set(['Unsubscribed']));
    await expectNoSidewaysScroll();
    await shoot('contacts-unsubscribed');
  }
});

it('The contact page is reached from an Email Logs row, an SMS Logs row and the Audit Log’s record of a staff action on the contact', async () => {
  const contactId = `${tag}-linked`;
  const email = `${contactId}@example.com`;
  await api('POST', '/api/webhook', { event: 'contact_created', funnel_id: `${tag}-both`, contact: { id: contactId, email } });
  const { items } = await api<{ items: { id: number; contact_id: string }[] }>('GET', '/api/contacts?page=1&pageSize=25');
  const id = items.find((c) => c.contact_id === contactId)!.id;
  // A reminder log of the contact, as the sweep writes one (its reminder is an hour away on this stack).
  const client = await MongoClient.connect(stack.mongoUri!);
  try {
    await client
      .db(stack.databases!['svc-email'])
      .collection('email_logs')
      .insertOne({ id: 7_500_000_000 + (Date.now() % 1_000_000), contact_id: contactId, contact_ref: id, email, timestamp: new Date(), message: `Reminder to ${email}`, status: 'would_send' });
  } finally {
    await client.close();
  }
  // And a text's log row on the SMS side, of an SMS contact of its own funnel.
  const smsFunnel = `${tag}-links`;
  const phone = `+1415556${String(Date.now() % 10_000).padStart(4, '0')}`;
  const smsIntegration = await api<{ id: number }>('POST', '/api/sms-webhook-integrations', { name: `Links ${tag}`, funnel_id: smsFunnel, reminder_delay: 60, active: true });
  await api('POST', '/api/sms/webhook', { event: 'contact_created', funnel_id: smsFunnel, contact: { id: `${contactId}-sms`, phone } });
  const smsId = (await api<{ items: { id: number }[] }>('GET', `/api/sms-contacts?page=1&pageSize=25&search=${encodeURIComponent(smsFunnel)}`)).items[0]!.id;
  const sms = await MongoClient.connect(stack.mongoUri!);
  try {
    const now = new Date();
    await sms
      .db(stack.databases!['svc-sms'])
      .collection('sms_logs')
      .insertOne({ id: 7_600_000_000 + (Date.now() % 1_000_000), phone, contact_id: `${contactId}-sms`, contact_ref: smsId, integration_id: smsIntegration.id, template_id: null, message: 'Your cart is waiting', sequence_order: 1, status: 'failed', message_sid: null, timestamp: now, updated_at: now, error_message: 'Twilio is not configured' });
  } finally {
    await sms.close();
  }
  // A staff action on it: the audit log records it with the contact as its target. And one whose action is the
  // longest name a record has, which a phone's card must wrap.
  await api('POST', '/api/contacts/mark-purchased', { contact_id: id });
  await api('POST', '/api/email-unsubscribes/quick-add', { email: `${contactId}-wrap@example.com` });

  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto(`${stack.url}/email-logs`);
    const fromLog = page.getByRole('link', { name: contactId, exact: true }).first();
    await fromLog.scrollIntoViewIfNeeded();
    await fromLog.click();
    await page.waitForURL(`**/contacts/${id}`);
    await page.getByTestId('contact-identity').filter({ hasText: email }).waitFor();

    await page.goto(`${stack.url}/sms-logs`);
    const fromSmsLog = page.getByRole('link', { name: `${contactId}-sms`, exact: true }).first();
    await fromSmsLog.scrollIntoViewIfNeeded();
    await fromSmsLog.click();
    await page.waitForURL(`**/sms-contacts/${smsId}`);
    await page.getByTestId('contact-identity').filter({ hasText: phone }).waitFor();

    await page.goto(`${stack.url}/audit-log`);
    const fromAudit = page.getByRole('link', { name: `contact #${id}`, exact: true }).first();
    await fromAudit.waitFor({ timeout: 15_000 });
    await fromAudit.scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll();
    await shoot('audit-contact-link');
    await fromAudit.click();
    await page.waitForURL(`**/contacts/${id}`);
    await page.getByTestId('contact-identity').filter({ hasText: email }).waitFor();
  }
});

it('Process Missed Emails says how many reminders it processed, as the service answered', async () => {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto(`${stack.url}/`);
    const button = page.getByRole('button', { name: 'Process Missed Emails' });
    await button.scrollIntoViewIfNeeded();
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/test/check-abandoned-carts') && r.request().method() === 'POST');
    await button.click();
    const { processed } = (await (await answered).json()) as { processed: number };
    const said = !processed ? 'No reminder was due.' : processed === 1 ? '1 reminder processed.' : `${processed} reminders processed.`;
    await page.getByText(`Abandoned cart check has been triggered and emails have been processed. ${said}`).first().waitFor();
    await shoot('process-missed');
  }
});
