import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cartBlockHtml } from '@act/contracts/src/cart-block';
import type { FakeResend } from '@act/testing';
import { MongoClient } from 'mongodb';
import { HOOK_TIMEOUT_MS, MONGODB_URI } from '../test/helpers';
import { startSendingEmail, type SendingEmail } from '../test/live-sending';

// A documented payload edited field by field: its shape is the sender's, not ours.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const checkout = (): Record<string, any> =>
  JSON.parse(readFileSync(path.join(__dirname, '../../../packages/sources/src/shopify/fixtures/checkouts-create.json'), 'utf8'));

let fake: FakeResend;
let email: SendingEmail;
beforeAll(async () => {
  email = await startSendingEmail('preview', { live: false, env: { RESEND_API_KEY: 're_preview' } });
  fake = email.resend;
}, HOOK_TIMEOUT_MS);
afterAll(() => email?.stop());

const api = (method: string, p: string, body?: unknown) => email.api(method, p, { body });
const SUBJECT = '{{firstName | "Hey"}}, {{itemCount}} items wait';
const HTML = `<p>Hi {{firstName}}, code {{discountCode}}</p>${cartBlockHtml(2)}<p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>`;

async function deliver(funnelId: string, token: string, address: string, firstName: string) {
  const r = await api('POST', '/api/webhook-integrations', { name: funnelId, funnel_id: funnelId });
  expect(r.status).toBe(201);
  const found = (await api('GET', '/api/webhook-integrations')).body.find((i: { id: number }) => i.id === r.body.id);
  const body = Object.assign(checkout(), { token, email: address });
  body.customer = { ...body.customer, email: address, first_name: firstName };
  body.billing_address = { ...body.billing_address, first_name: firstName };
  const d = await email.api('POST', new URL(found.webhook_url).pathname, {
    raw: JSON.stringify(body),
    headers: { 'content-type': 'application/json', 'X-Shopify-Topic': 'checkouts/create', 'X-Shopify-Webhook-Id': token },
    user: null,
  });
  expect(d.status).toBe(200);
  return Object.assign(body, { integration_id: r.body.id as number });
}

let older: Awaited<ReturnType<typeof deliver>>;
describe('template preview with real data', () => {
  it('defaults to the newest contact with a cart: its name, cart, link, and "(unique code)" for the code', async () => {
    older = await deliver('preview-shop-1', 'preview-token-1', 'olga.preview@example.com', 'Olga');
    await deliver('preview-shop-2', 'preview-token-2', 'pat.preview@example.com', 'Pat');
    // The newest contact of all has no cart (the spec's format, no amounts): the default passes over it.
    const plain = await email.api('POST', '/api/webhook', {
      body: { event: 'contact_created', contact: { id: 'preview-plain', email: 'nocart.preview@example.com', first_name: 'Nina' } },
      user: null,
    });
    expect(plain.status).toBe(200);

    const found = await api('GET', '/api/resend/templates/preview/contacts?q=OLGA.prev');
    expect(found.status).toBe(200);
    expect(found.body.contacts.map((c: { email: string }) => c.email)).toEqual(['olga.preview@example.com']);
    const all = await api('GET', '/api/resend/templates/preview/contacts');
    const pat = all.body.contacts.find((c: { email: string }) => c.email === 'pat.preview@example.com');
    expect(all.body.default_contact_id).toBe(pat.id);
    expect(pat).toMatchObject({ first_name: 'Pat', has_cart: true });

    const r = await api('POST', '/api/resend/templates/preview', { subject: SUBJECT, html_content: HTML });
    expect(r.status).toBe(200);
    expect(r.body.contact).toMatchObject({ id: pat.id, email: 'pat.preview@example.com' });
    expect(r.body.subject).toBe('Pat, 4 items wait');
    expect(r.body.html).toContain('Hi Pat, code (unique code)');
    expect(r.body.html).toContain('<strong>Wool socks</strong>');
    expect(r.body.html).toContain('<strong>Merino beanie</strong>');
    expect(r.body.html).toContain('and 1 more');
    expect(r.body.html).toContain('Total: CA$101.70');
    // The contact's own recovery link, as a send uses it, and the same one-click unsubscribe link.
    expect(r.body.html).toContain(`href="${older.abandoned_checkout_url.replace(/&/g, '&amp;')}"`);
    expect(r.body.html).toMatch(/href="https:\/\/carts\.example\.com\/api\/unsubscribe\/one-click\?token=[^"]+">Unsubscribe/);

    const olga = found.body.contacts[0];
    const chosen = await api('POST', '/api/resend/templates/preview', { subject: SUBJECT, html_content: HTML, contact_id: olga.id, discount_code: 'WELCOME5' });
    expect(chosen.body.subject).toBe('Olga, 4 items wait');
    expect(chosen.body.html).toContain('Hi Olga, code WELCOME5');

    const sample = await api('POST', '/api/resend/templates/preview', { subject: SUBJECT, html_content: HTML, sample: true });
    expect(sample.body.contact).toBeNull();
    expect(sample.body.subject).toBe('Jane, 3 items wait');
    expect(sample.body.html).toContain('<strong>Classic Cotton Crew Neck T-Shirt</strong>');

    expect((await api('POST', '/api/resend/templates/preview', { html_content: HTML, contact_id: 999999 })).status).toBe(404);
    expect((await api('POST', '/api/resend/templates/preview', { subject: 'x' })).status).toBe(400);
    expect((await email.api('POST', '/api/resend/templates/preview', { body: { html_content: HTML }, user: null })).status).toBe(401);
  });

  let templateId = 0;
  /** The checkout link with Shopify's /discount/<code> in front, as the send writes it (HTML-escaped in the href). */
  const withCode = (code: string) => {
    const u = new URL(older.abandoned_checkout_url);
    return `href="${u.origin}/discount/${code}?redirect=${encodeURIComponent(u.pathname + u.search)}"`;
  };
  it('shows the step’s code as its send gives it, and the link with a Shopify code in it, only where the shop holds the credentials', async () => {
    const olga = (await api('GET', '/api/resend/templates/preview/contacts?q=olga')).body.contacts[0];
    const t = await api('POST', '/api/resend/templates', { name: 'Preview test', subject: SUBJECT, from_name: 'Shop', html_content: HTML });
    expect(t.status).toBe(201);
    templateId = t.body.id;
    const preview = async (extra: Record<string, unknown> = {}) => {
      const r = await api('POST', '/api/resend/templates/preview', { subject: SUBJECT, html_content: HTML, contact_id: olga.id, template_id: templateId, ...extra });
      expect(r.status).toBe(200);
      return r.body as { html: string; incentive_note: string | null };
    };
    const plainLink = `href="${older.abandoned_checkout_url.replace(/&/g, '&amp;')}"`;
    // A step without an incentive sends no code.
    const none = await preview();
    expect(none.html).toContain('Hi Olga, code </p>');
    expect(none.html).toContain(plainLink);
    expect(none.incentive_note).toBeNull();
    expect((await api('PUT', `/api/email/templates/${templateId}/incentive`, { kind: 'fixed', code: 'SPRING10' })).status).toBe(200);
    expect((await preview()).html).toContain('Hi Olga, code SPRING10</p>');
    expect((await preview()).html).toContain(plainLink);
    // A code created in Shopify, but the integration holds no credentials: the send goes without one and says why.
    expect((await api('PUT', `/api/email/templates/${templateId}/incentive`, { kind: 'shopify', discount: 'amount', value: 5, days: 3 })).status).toBe(200);
    const refused = await preview();
    expect(refused.html).toContain('Hi Olga, code </p>');
    expect(refused.html).toContain(plainLink);
    expect(refused.incentive_note).toBe('sent without a code: the integration holds no Shopify credentials');
    const shop = { platform: 'shopify', shop: 'north-goods.myshopify.com', key: 'shpat_preview' };
    expect((await api('PUT', `/api/email/integrations/${older.integration_id}/shop`, shop)).status).toBe(200);
    // With them: "(unique code)" in the text and in the link where Shopify's /discount/<code> takes the shopper's.
    const shown = await preview();
    expect(shown.incentive_note).toBeNull();
    expect(shown.html).toContain('Hi Olga, code (unique code)</p>');
    expect(shown.html).toContain(withCode('(unique%20code)'));
    expect((await preview({ discount_code: 'TRY-1' })).html).toContain(withCode('TRY-1'));
    // Previewing spent nothing: no code was given for the step.
    const given = (await api('GET', '/api/email/incentive-redemptions')).body as { step_key: string }[];
    expect(given.find((s) => s.step_key === `email-template:${templateId}`)).toBeUndefined();
  });

  it('"Send test" can use a contact’s data: the email to the test address shows that contact’s cart and the step’s code as previewed', async () => {
    const list = await api('GET', '/api/resend/templates/preview/contacts?q=olga');
    const olga = list.body.contacts[0];
    const sent = await api('POST', `/api/resend/templates/${templateId}/test`, { testEmail: 'qa.preview@example.com', contact_id: olga.id });
    expect(sent.status).toBe(200);
    const [mail] = fake.emailsTo('qa.preview@example.com');
    expect(mail!.subject).toBe('Olga, 4 items wait');
    expect(mail!.html).toContain('<strong>Wool socks</strong>');
    expect(mail!.html).toContain('Hi Olga, code (unique code)');
    expect(mail!.html).toContain(withCode('(unique%20code)'));
    const plain = await api('POST', `/api/resend/templates/${templateId}/test`, { testEmail: 'qa2.preview@example.com' });
    expect(plain.status).toBe(200);
    expect(fake.emailsTo('qa2.preview@example.com')[0]!.subject).toBe('Hey,  items wait');
  });

  it('with "Count clicks with: our link", shows the link as our redirect puts it in the email, and makes no link', async () => {
    const olga = (await api('GET', '/api/resend/templates/preview/contacts?q=olga')).body.contacts[0];
    const html = `${HTML}<p><a href="{{recoveryUrl}}">Back to your cart</a></p>`;
    const preview = async () => (await api('POST', '/api/resend/templates/preview', { subject: SUBJECT, html_content: html, contact_id: olga.id, template_id: templateId })).body.html as string;
    expect((await api('PUT', '/api/email/click-tracking', { count_clicks_with: 'link' })).status).toBe(200);
    try {
      const shown = await preview();
      // The Cart block's button and {{recoveryUrl}} alike, as the send writes them; the shop's link (code in it) behind.
      expect(shown.match(/href="[^"]*"/g)!.filter((h) => !h.includes('/api/unsubscribe/'))).toEqual([
        'href="https://carts.example.com/r/(tracked-url)"',
        'href="https://carts.example.com/r/(tracked-url)"',
      ]);
      expect(shown).not.toContain(withCode('(unique%20code)'));
      const client = await MongoClient.connect(MONGODB_URI);
      try {
        expect(await client.db(email.db).collection('tracked_links').countDocuments({})).toBe(0);
      } finally {
        await client.close();
      }
    } finally {
      expect((await api('PUT', '/api/email/click-tracking', { count_clicks_with: 'resend' })).status).toBe(200);
    }
    expect(await preview()).toContain(withCode('(unique%20code)'));
  });
});
