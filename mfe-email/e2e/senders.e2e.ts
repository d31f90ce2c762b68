// Signed sender deliveries end to end through the gateway: ClickFunnels 2.0 and Shopify deliveries signed the way the senders sign
// them, posted to an integration's own URL, reach both channels (the other side hears the fact over NATS); wrong,
// missing and stale signatures create nothing; a replay does nothing twice. Then in Chromium: a secret set on an
// integration's card, a test delivery sent from the Documentation tab, and the delivery verified in Webhook Events.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, readStack, screenshotPath, signIn } from '../../infra/e2e/browser';

const { url, adminPassword } = readStack();
const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

let browser: Browser;
let page: Page;

// Fixtures are edited field by field below: typed loosely on purpose.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const fixture = (source: string, name: string): Record<string, any> =>
  JSON.parse(
    readFileSync(path.resolve(__dirname, '../../packages/sources/src', source, 'fixtures', `${name}.json`), 'utf8'),
  );

/** JSON call through the page's session, as the screens make them. */
async function api<T>(method: string, p: string, body?: unknown): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ method, p, body }) => {
      const res = await fetch(p, {
        method,
        credentials: 'include',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    { method, p, body },
  ) as Promise<{ status: number; body: T }>;
}

/** A sender's POST: raw bytes and its own headers, no session (Node's fetch, like ClickFunnels' servers). */
async function deliver(endpoint: string, raw: string, headers: Record<string, string>) {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: raw,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

// Written out here rather than imported from the adapters: the test signs as the senders document it.
function clickFunnelsHeaders(raw: string, secret: string, at = Math.floor(Date.now() / 1000)) {
  const signature = createHmac('sha256', secret).update(`${at}.${raw}`).digest('hex');
  return { 'X-Webhook-ClickFunnels-Signature': signature, 'X-Webhook-ClickFunnels-Timestamp': String(at) };
}
function shopifyHeaders(raw: string, secret: string, topic: string, id: string) {
  return {
    'X-Shopify-Topic': topic,
    'X-Shopify-Webhook-Id': id,
    'X-Shopify-Shop-Domain': 'north-goods.myshopify.com',
    'X-Shopify-Hmac-Sha256': createHmac('sha256', secret).update(raw).digest('base64'),
  };
}

async function waitFor<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

interface Pair {
  funnel: string;
  email: { id: number; webhook_url: string };
  sms: { id: number; webhook_url: string };
}

/** An email and an SMS integration for one funnel (the SMS one with a campaign), as a shop would set them up. */
async function integrationsFor(funnel: string): Promise<Pair> {
  const email = await api<{ id: number }>('POST', '/api/webhook-integrations', {
    name: `Email ${funnel}`,
    funnel_id: funnel,
  });
  expect(email).toMatchObject({ status: 201 });
  const campaign = await api<{ id: number }>('POST', '/api/sms-campaigns', {
    name: `SMS ${funnel}`,
    integration_id: null,
    active: true,
  });
  const sms = await api<{ id: number; webhook_url: string }>('POST', '/api/sms-webhook-integrations', {
    name: `SMS ${funnel}`,
    funnel_id: funnel,
    sms_campaign_id: campaign.body.id,
    reminder_delay: 60,
    active: true,
  });
  expect(sms).toMatchObject({ status: 201 });
  const list = await api<{ id: number; webhook_url: string }[]>('GET', '/api/webhook-integrations');
  return { funnel, email: list.body.find((i) => i.id === email.body.id)!, sms: sms.body };
}

async function emailContact(integrationId: number, contactId: string) {
  const r = await api<{ items: { contact_id: string; status: string }[] }>(
    'GET',
    `/api/contacts?page=1&pageSize=100&integration_id=${integrationId}`,
  );
  return r.body.items.find((c) => c.contact_id === contactId) ?? null;
}
async function smsContact(integrationId: number, contactId: string) {
  const r = await api<{ integration_id: number; contact_id: string; status: string }[]>('GET', '/api/sms-contacts');
  return r.body.find((c) => c.integration_id === integrationId && c.contact_id === contactId) ?? null;
}

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await signIn(page, 'admin', adminPassword, url);
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('real senders through the gateway', () => {
  it('a signed ClickFunnels 2.0 contact.identified to an integration URL reaches both channels; its order purchases both; bad signatures create nothing; replays do nothing', async () => {
    const pair = await integrationsFor(`cf2-${tag}`);
    const secret = `cf-${tag}-0123456789abcdef`;
    expect((await api('PATCH', `/api/webhook-integrations/${pair.email.id}`, { webhook_secret: secret })).status).toBe(
      200,
    );

    const contactId = String(700_000_000 + Math.floor(Math.random() * 1e8));
    const contact = fixture('clickfunnels2', 'contact-identified');
    contact.event_id = `e2e-${tag}-contact`;
    contact.data.id = Number(contactId);
    contact.data.email_address = `dana.${tag}@example.com`;
    contact.data.phone_number = `+1415555${String(Math.floor(Math.random() * 9000) + 1000)}`;
    const raw = JSON.stringify(contact);

    // Refused: wrong secret, no signature, a timestamp 11 minutes old.
    const wrong = await deliver(pair.email.webhook_url, raw, clickFunnelsHeaders(raw, 'not-the-secret-0000'));
    expect(wrong).toEqual({ status: 401, body: { error: 'Wrong signature (X-Webhook-ClickFunnels-Signature)' } });
    expect((await deliver(pair.email.webhook_url, raw, {})).status).toBe(401);
    const stale = await deliver(
      pair.email.webhook_url,
      raw,
      clickFunnelsHeaders(raw, secret, Math.floor(Date.now() / 1000) - 660),
    );
    expect(stale.status).toBe(401);
    expect(stale.body.error).toMatch(/^Stale signature/);
    expect(await emailContact(pair.email.id, contactId)).toBeNull();

    const ok = await deliver(pair.email.webhook_url, raw, clickFunnelsHeaders(raw, secret));
    expect(ok).toMatchObject({ status: 200, body: { message: 'Contact created', contact_id: contactId } });
    await waitFor('the SMS side to create the contact', () => smsContact(pair.sms.id, contactId));
    expect(await emailContact(pair.email.id, contactId)).toMatchObject({ status: 'pending' });

    // ClickFunnels retries with the same event_id: answered, not applied twice.
    const replay = await deliver(pair.email.webhook_url, raw, clickFunnelsHeaders(raw, secret));
    expect(replay).toMatchObject({ status: 200, body: { duplicate: true } });

    const order = fixture('clickfunnels2', 'one-time-order-completed');
    order.event_id = `e2e-${tag}-order`;
    order.data.contact_id = Number(contactId);
    order.data.contact.id = Number(contactId);
    order.data.contact.email_address = contact.data.email_address;
    order.data.contact.phone_number = contact.data.phone_number;
    const orderRaw = JSON.stringify(order);
    expect(await deliver(pair.email.webhook_url, orderRaw, clickFunnelsHeaders(orderRaw, secret))).toMatchObject({
      status: 200,
      body: { message: 'Purchase recorded', matched: 1 },
    });
    expect(await emailContact(pair.email.id, contactId)).toMatchObject({ status: 'purchased' });
    await waitFor(
      'the SMS contact to be purchased',
      async () => (await smsContact(pair.sms.id, contactId))?.status === 'purchased',
    );
  });

  it('Shopify checkouts/create then orders/create to the SMS integration URL reach both channels', async () => {
    const pair = await integrationsFor(`shop-${tag}`);
    const secret = `shpss_${tag}_0123456789`;
    expect(
      (
        await api('PATCH', `/api/sms-webhook-integrations/${pair.sms.id}`, {
          webhook_secret: secret,
          webhook_source: 'shopify',
        })
      ).status,
    ).toBe(200);

    const checkout = fixture('shopify', 'checkouts-create');
    checkout.token = `tok${tag}`;
    checkout.email = `sam.${tag}@example.com`;
    checkout.customer.email = checkout.email;
    const raw = JSON.stringify(checkout);
    expect(
      (
        await deliver(pair.sms.webhook_url, raw, {
          ...shopifyHeaders(raw, 'wrong-secret', 'checkouts/create', `c-${tag}`),
        })
      ).status,
    ).toBe(401);
    expect(
      await deliver(pair.sms.webhook_url, raw, shopifyHeaders(raw, secret, 'checkouts/create', `c-${tag}`)),
    ).toMatchObject({
      status: 200,
      body: { message: 'SMS contact created', contact_id: checkout.token },
    });
    await waitFor('the email side to create the contact', () => emailContact(pair.email.id, checkout.token));

    const orderBody = { ...fixture('shopify', 'orders-create'), checkout_token: checkout.token, email: checkout.email };
    const orderRaw = JSON.stringify(orderBody);
    expect(
      await deliver(pair.sms.webhook_url, orderRaw, shopifyHeaders(orderRaw, secret, 'orders/create', `o-${tag}`)),
    ).toMatchObject({
      status: 200,
      body: { updated: 1 },
    });
    expect(await smsContact(pair.sms.id, checkout.token)).toMatchObject({ status: 'purchased' });
    await waitFor(
      'the email contact to be purchased',
      async () => (await emailContact(pair.email.id, checkout.token))?.status === 'purchased',
    );
  });
});

describe('in Chromium', () => {
  it('sets a secret on an integration card, sends a test delivery from the Documentation tab and sees it verified in Webhook Events', async () => {
    const funnel = `ui-${tag}`;
    const created = await api<{ id: number }>('POST', '/api/webhook-integrations', {
      name: `Shop UI ${tag}`,
      funnel_id: funnel,
    });
    expect(created.status).toBe(201);

    await page.goto(`${url}/webhook-integrations`);
    const card = page.getByRole('article', { name: `Shop UI ${tag}` });
    await card.getByText('Unsigned: anyone with the URL can post').waitFor();
    await card.getByRole('button', { name: 'Set secret' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Generate a secret' }).click();
    await dialog.getByText('Copy this secret into your sender now').waitFor();
    await dialog.getByRole('button', { name: 'Save secret' }).click();
    await card.getByText('Secret set').waitFor();
    // The signing blocks are bundled into this remote (imported by path); their toast must still reach the shell's
    // one toast area.
    await page.getByText('Signing secret set').waitFor();
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('senders-integration-card-1440.png') });

    await page.goto(`${url}/documentation`);
    await page.getByRole('tab', { name: 'ClickFunnels 2.0' }).click();
    await page.getByLabel('Integration').click();
    await page.getByRole('option', { name: `Shop UI ${tag}` }).click();
    await page.getByRole('listbox').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Send test delivery' }).click();
    const result = page.getByTestId('test-delivery-result');
    await result.waitFor();
    expect(await result.textContent()).toContain('Signed delivery answered 200');
    await page.screenshot({ path: screenshotPath('senders-test-delivery-1440.png'), fullPage: true });

    await page.goto(`${url}/webhooks`);
    await page.getByLabel('Source').click();
    await page.getByRole('option', { name: 'ClickFunnels 2.0' }).click();
    await page.getByRole('listbox').waitFor({ state: 'hidden' });
    const row = page.locator('tbody tr').first();
    await row.waitFor();
    const delivery = await row.getByTestId('delivery-cell').textContent();
    expect(delivery).toContain('ClickFunnels 2.0');
    expect(delivery).toContain('Verified');
    expect(delivery).toContain('Created');
    await page.screenshot({ path: screenshotPath('senders-webhook-events-1440.png') });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${url}/webhook-integrations`);
    await page.getByRole('article', { name: `Shop UI ${tag}` }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('senders-integration-card-390.png') });
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});
