import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startFakeResend, type FakeResend } from '@act/testing';
import { dropDb, startEmail, waitFor, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

/** The documented Shopify checkout of the sources package (three line items, CAD). */
// A documented payload edited field by field: its shape is the sender's, not ours.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const checkout = (): Record<string, any> =>
  JSON.parse(
    readFileSync(path.join(__dirname, '../../../packages/sources/src/shopify/fixtures/checkouts-create.json'), 'utf8'),
  );
const XSS = '<img src=x onerror=alert(1)>';

let fake: FakeResend;
let email: EmailUnderTest;
beforeAll(async () => {
  fake = await startFakeResend();
  email = await startEmail('cart-message', {
    EMAIL_LIVE_SENDING: 'true',
    RESEND_BASE_URL: fake.url,
    RESEND_API_KEY: 're_live',
    RESEND_FROM: 'Shop <shop@example.com>',
    EMAIL_DELAY_HOUR_MS: '1000',
    EMAIL_SEQUENCE_SCAN_MS: '200',
    PUBLIC_URL: 'https://carts.example.com',
    UNSUBSCRIBE_SECRET: 'cart-message-secret',
    UNSUBSCRIBE_MAILTO: '',
  });
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await email?.svc.stop();
  if (email) await dropDb(email.db);
  await fake?.close();
});

async function shopWithTemplate(funnelId: string, subject: string, html: string) {
  const campaign = (await email.api('POST', '/api/email/campaigns', { body: { name: `Campaign ${funnelId}` } })).body as { id: number };
  const t = await email.api('POST', '/api/resend/templates', {
    body: { campaign_id: campaign.id, name: 'Cart', subject, from_name: 'Cart Team', html_content: html, template_order: 1, delay_hours: 0, active: true },
  });
  expect(t.status).toBe(201);
  const r = await email.api('POST', '/api/webhook-integrations', {
    body: { name: funnelId, funnel_id: funnelId, reminder_delay: 1, campaign_id: campaign.id },
  });
  expect(r.status).toBe(201);
  const found = (await email.api('GET', '/api/webhook-integrations')).body.find((i: { id: number }) => i.id === r.body.id);
  return new URL(found.webhook_url).pathname;
}

const deliver = (p: string, body: unknown, id: string) =>
  email.api('POST', p, {
    raw: JSON.stringify(body),
    headers: { 'content-type': 'application/json', 'X-Shopify-Topic': 'checkouts/create', 'X-Shopify-Webhook-Id': id },
    user: null,
  });

describe('the cart in the email', () => {
  it('fills the first name, the cart total in its currency, the item count and the first item from the stored cart', async () => {
    const hook = await shopWithTemplate(
      'cart-msg-1',
      '{{firstName | "Hello"}}, {{itemCount}} items ({{cartTotal}}) wait',
      '<p>Hi {{firstName | "there"}}, your {{firstItemName}} and more: {{cartTotal}}</p><p><a href="{{recoveryUrl}}">Back</a></p>',
    );
    const body = Object.assign(checkout(), { token: 'cart-msg-token-1', email: 'sam.cart@example.com' });
    body.customer = { ...body.customer, email: 'sam.cart@example.com' };
    expect((await deliver(hook, body, 'cm-1')).status).toBe(200);
    const [sent] = await waitFor(async () => fake.emailsTo('sam.cart@example.com').length > 0 && fake.emailsTo('sam.cart@example.com'), {
      timeoutMs: 20_000,
      what: 'the reminder',
    });
    expect(sent!.subject).toBe('Sam, 4 items (CA$101.70) wait');
    expect(sent!.html).toBe(
      `<p>Hi Sam, your Wool socks and more: CA$101.70</p><p><a href="${body.abandoned_checkout_url.replace(/&/g, '&amp;')}">Back</a></p>`,
    );
  });

  it('a first name or item name written as markup reaches the inbox as text, never as markup', async () => {
    const hook = await shopWithTemplate(
      'cart-msg-2',
      'Hi {{firstName}}: {{firstItemName}}',
      '<p>Hi {{firstName}}, your {{firstItemName}} is waiting.</p><p><a href="{{recoveryUrl}}">Back</a></p>',
    );
    const body = Object.assign(checkout(), { token: 'cart-msg-token-2', email: 'xss.cart@example.com' });
    body.customer = { ...body.customer, email: 'xss.cart@example.com', first_name: XSS };
    body.billing_address = { ...body.billing_address, first_name: XSS };
    body.line_items = [{ ...body.line_items[0], title: `${XSS}<script>alert(2)</script>` }, ...body.line_items.slice(1)];
    expect((await deliver(hook, body, 'cm-2')).status).toBe(200);
    const [sent] = await waitFor(async () => fake.emailsTo('xss.cart@example.com').length > 0 && fake.emailsTo('xss.cart@example.com'), {
      timeoutMs: 20_000,
      what: 'the reminder',
    });
    expect(sent!.html).not.toMatch(/<img|<script/i);
    expect(sent!.html).toContain('Hi &lt;img src=x onerror=alert(1)&gt;, your &lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt; is waiting.');
    // The subject is plain text: shown as written, never parsed.
    expect(sent!.subject).toBe(`Hi ${XSS}: ${XSS}<script>alert(2)</script>`);
  });
});
