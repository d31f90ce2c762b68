import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FakeResend } from '@act/testing';
import { waitFor, HOOK_TIMEOUT_MS } from '../test/helpers';
import { funnelCampaign, startSendingEmail, type SendingEmail } from '../test/live-sending';

/** The documented Shopify checkout of the sources package (three line items, CAD). */
// A documented payload edited field by field: its shape is the sender's, not ours.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const checkout = (): Record<string, any> =>
  JSON.parse(
    readFileSync(path.join(__dirname, '../../../packages/sources/src/shopify/fixtures/checkouts-create.json'), 'utf8'),
  );
const XSS = '<img src=x onerror=alert(1)>';

let fake: FakeResend;
let email: SendingEmail;
beforeAll(async () => {
  email = await startSendingEmail('cart-message');
  fake = email.resend;
}, HOOK_TIMEOUT_MS);
afterAll(() => email?.stop());

async function shopWithTemplate(funnelId: string, subject: string, html: string) {
  const { webhookPath } = await funnelCampaign(email, funnelId, { templates: [{ name: 'Cart', subject, html, active: true }] });
  return webhookPath;
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
