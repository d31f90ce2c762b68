// /sms-webhooks and /sms-contacts in Chromium through the gateway: an integration made in the UI receives a
// funnel webhook, its contact shows up, and 'Mark Purchased' closes it.
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshotBoth } from '../../infra/e2e/browser';
import type { SmsCampaign, SmsIntegration } from '@act/contracts/src/sms-api';
import { api, choose, expectToast, openSession, postSmsWebhook, uid, type Session } from './helpers';

describe('SMS webhook integrations and contacts', () => {
  let browser: Browser;
  let s: Session;
  const id = uid();
  const name = `E2E Spring ${id}`;
  const funnel = `e2e-funnel-${id}`;
  const phoneDigits = `555${String(Date.now()).slice(-7)}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    s = await openSession(browser);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('creates an integration after showing the validation messages', async () => {
    const { page, url } = s;
    await page.goto(`${url}/sms-webhooks`);
    await page.getByRole('heading', { name: 'SMS Webhook Integrations', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add Integration' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add SMS Integration' });
    expect(await dialog.getByRole('spinbutton', { name: 'Reminder Delay' }).inputValue()).toBe('30');
    expect(await dialog.getByRole('switch', { name: 'Active' }).isChecked()).toBe(true);
    await dialog.getByRole('spinbutton', { name: 'Reminder Delay' }).fill('0');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Name is required').waitFor();
    await dialog.getByText('Funnel ID is required').waitFor();
    await dialog.getByText('Reminder delay must be at least 1 minute').waitFor();

    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await dialog.getByRole('textbox', { name: 'Funnel ID' }).fill(funnel);
    await dialog.getByRole('spinbutton', { name: 'Reminder Delay' }).fill('5');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectToast(page, 'SMS webhook integration created successfully');
    await dialog.waitFor({ state: 'detached' });

    const card = page.getByRole('article', { name });
    await card.waitFor();
    for (const text of [funnel, 'Active', 'No Campaign', '5 minutes'])
      await card.getByText(text, { exact: true }).waitFor();
  });

  it('edits it: an empty delay falls back to 30, and a campaign can be chosen and cleared', async () => {
    const { page } = s;
    const card = page.getByRole('article', { name });
    await card.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit SMS Integration' });
    expect(await dialog.getByRole('textbox', { name: 'Funnel ID' }).inputValue()).toBe(funnel);
    await dialog.getByRole('spinbutton', { name: 'Reminder Delay' }).fill('');
    await choose(page, 'Campaign', 'No Campaign', dialog);
    await dialog.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'SMS webhook integration updated successfully');
    await card.getByText('30 minutes', { exact: true }).waitFor();
  });

  it('a contact posted to the SMS webhook appears, and Mark Purchased closes it', async () => {
    const { page, url } = s;
    const contactId = `e2e-c-${id}`;
    const res = await postSmsWebhook({
      event: 'contact_created',
      funnel_id: funnel,
      contact: {
        id: contactId,
        phone: `+1 (${phoneDigits.slice(0, 3)}) ${phoneDigits.slice(3, 6)}-${phoneDigits.slice(6)}`,
        first_name: 'Edie',
      },
    });
    expect(res.status).toBe(200);

    await page.goto(`${url}/sms-contacts`);
    await page.getByRole('heading', { name: 'SMS Contacts', exact: true }).waitFor();
    for (const label of ['Total', 'Pending', 'Purchased', 'SMS Sent'])
      await page.getByTestId(`summary-${label}`).waitFor();
    await page.getByRole('textbox', { name: 'Search' }).fill(contactId);
    const row = page.getByTestId('contact-row').filter({ hasText: contactId });
    await row.waitFor();
    expect(await page.getByTestId('contact-row').count()).toBe(1);
    // Phone normalised to E.164, integration named, status Pending.
    await row.getByText(`+1${phoneDigits}`).waitFor();
    await row.getByText(name).waitFor();
    await row.getByText('Pending', { exact: true }).waitFor();

    await row.getByRole('button', { name: 'Mark Purchased' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mark Contact as Purchased' });
    await dialog.getByText(`+1${phoneDigits}`).waitFor();
    await dialog.getByRole('button', { name: 'Mark Purchased' }).click();
    await expectToast(page, 'Contact marked as purchased');
    await row.getByText('Purchased', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: 'Mark Purchased' }).count()).toBe(0);
  });

  it('a purchase posted to the webhook marks the contact purchased too; filters narrow the table', async () => {
    const { page, url } = s;
    const contactId = `e2e-p-${id}`;
    const phone = `+1555${String(Date.now() + 7).slice(-7)}`;
    expect(
      (await postSmsWebhook({ event: 'contact_created', funnel_id: funnel, contact: { id: contactId, phone } })).status,
    ).toBe(200);
    expect(
      (await postSmsWebhook({ event: 'purchase_created', funnel_id: funnel, contact: { id: contactId, phone } }))
        .status,
    ).toBe(200);

    await page.goto(`${url}/sms-contacts`);
    await choose(page, 'Integration', name);
    await choose(page, 'Status', 'Purchased');
    const rows = page.getByTestId('contact-row');
    await rows.filter({ hasText: contactId }).waitFor();
    expect(await rows.count()).toBe(2);
    await choose(page, 'Status', 'Pending');
    await page.getByText('No contacts match these filters').waitFor();
    expect(await page.getByRole('combobox', { name: 'Rows per page' }).count()).toBe(0);
  });

  it('names on its card a campaign linked to it from the campaign side, which is the one that sends for it', async () => {
    const { page, url } = s;
    const integration = (await api<SmsIntegration[]>(page, 'GET', '/api/sms-webhook-integrations')).find((i) => i.name === name)!;
    expect(integration.sms_campaign_id).toBeNull();
    const campaign = `E2E Linked ${id}`;
    const created = await api<SmsCampaign>(page, 'POST', '/api/sms-campaigns', { name: campaign, integration_id: integration.id, active: true });
    await page.goto(`${url}/sms-webhooks`);
    const card = page.getByRole('article', { name });
    await card.getByText(campaign, { exact: true }).waitFor();
    expect(await card.getByText('No Campaign', { exact: true }).count()).toBe(0);
    await screenshotBoth(page, 'sms-webhooks-linked-campaign');
    await api(page, 'DELETE', `/api/sms-campaigns/${created.id}`);
  });

  it('deletes the integration after asking', async () => {
    const { page, url } = s;
    await page.goto(`${url}/sms-webhooks`);
    const card = page.getByRole('article', { name });
    await card.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete SMS Integration' });
    await dialog.getByText('Are you sure you want to delete this SMS webhook integration?').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'SMS webhook integration deleted successfully');
    await card.waitFor({ state: 'detached' });
  });
});
