/**
 * SMS template preview with real data: the newest contact with a cart by default, a contact found by phone, sample
 * data; the same renderer and segment rule as a send; the step's code as its send gives it ("(unique code)" for a unique
 * one, a code created in Shopify put into the link as the send puts it); a test send with a contact's data.
 * Through the service over HTTP, a Shopify delivery in, the fake Twilio out.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { TRACKED_LINK_PREVIEW_TOKEN } from '@act/service-kit';
import { call } from '@act/service-kit/testing';
import { PUBLIC_URL } from '../test/helpers';
import { useSmsWithTwilio } from '../test/sms-with-twilio';

jest.setTimeout(120_000);

const sms = useSmsWithTwilio('preview');
const api = (method: string, p: string, body?: unknown) => call(sms.svc.url, method, p, { body });
// A documented payload edited field by field: its shape is the sender's, not ours.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const checkout = (): Record<string, any> =>
  JSON.parse(readFileSync(path.join(__dirname, '../../../packages/sources/src/shopify/fixtures/checkouts-create.json'), 'utf8'));
const LINK = 'https://north-goods.myshopify.com/r/preview';
const TEMPLATE = 'Hi {{firstName}}, your {{firstItemName}} ({{cartTotal}}) waits. Code {{discountCode}}: {{recoveryUrl}}';

async function deliver(funnel: string, token: string, phone: string, firstName: string, title: string) {
  const r = await api('POST', '/api/sms-webhook-integrations', { name: funnel, funnel_id: funnel });
  expect(r.status).toBe(201);
  const body = Object.assign(checkout(), { token, phone, abandoned_checkout_url: LINK });
  body.customer = { ...body.customer, phone, first_name: firstName };
  body.billing_address = { ...body.billing_address, phone, first_name: firstName };
  body.line_items = [{ ...body.line_items[0], title }, ...body.line_items.slice(1)];
  const d = await call(sms.svc.url, 'POST', new URL(r.body.webhook_url).pathname, {
    raw: JSON.stringify(body),
    headers: { 'content-type': 'application/json', 'X-Shopify-Topic': 'checkouts/create', 'X-Shopify-Webhook-Id': token },
    user: null,
  });
  expect(d.status).toBe(200);
  return r.body.id as number;
}

let olgaIntegration = 0;
it('previews with the newest contact with a cart, a contact found by phone, or sample data, as a send writes it', async () => {
  olgaIntegration = await deliver('sms-preview-1', 'sms-preview-t1', '+16475550191', 'Olga', 'Wool socks');
  const long = 'Hand-Knitted Merino Wool Hiking Socks with Reinforced Heel, Arch Support and Cushioned Sole';
  await deliver('sms-preview-2', 'sms-preview-t2', '+16475550192', 'Pat', long);

  const all = await api('GET', '/api/sms-templates/preview/contacts');
  expect(all.status).toBe(200);
  const pat = all.body.contacts.find((c: { phone: string }) => c.phone === '+16475550192');
  expect(pat).toMatchObject({ first_name: 'Pat', has_cart: true });
  expect(all.body.default_contact_id).toBe(pat.id);
  const byPhone = await api('GET', '/api/sms-templates/preview/contacts?q=%2B1 647 555 0191');
  expect(byPhone.body.contacts.map((c: { first_name: string }) => c.first_name)).toEqual(['Olga']);

  const r = await api('POST', '/api/sms-templates/preview', { message: TEMPLATE });
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ contact: { id: pat.id }, segments: 1, encoding: 'GSM-7', template_segments: 1, shortened: true });
  expect(r.body.message).toMatch(/^Hi Pat, your Hand-Knitted Merino .*\.\.\. \(CA\$101\.70\) waits\. Code \(unique code\): https:\/\/north-goods\.myshopify\.com\/r\/preview$/);

  const olga = await api('POST', '/api/sms-templates/preview', { message: TEMPLATE, contact_id: byPhone.body.contacts[0].id, discount_code: 'SAVE5' });
  expect(olga.body).toMatchObject({ message: `Hi Olga, your Wool socks (CA$101.70) waits. Code SAVE5: ${LINK}`, shortened: false });

  const sample = await api('POST', '/api/sms-templates/preview', { message: TEMPLATE, sample: true });
  expect(sample.body.contact).toBeNull();
  expect(sample.body.message).toContain('Hi Jane, your Classic Cotton Crew Neck T-Shirt ($129.99) waits.');

  expect((await api('POST', '/api/sms-templates/preview', { message: TEMPLATE, contact_id: 999999 })).status).toBe(404);
  expect((await api('POST', '/api/sms-templates/preview', {})).status).toBe(400);
});

let stepId = 0;
it('shows the step’s code as its send gives it: none, a fixed code, a Shopify code in the link only with the shop’s credentials', async () => {
  const camp = await api('POST', '/api/sms-campaigns', { name: 'Preview campaign', integration_id: null, active: true });
  const t = await api('POST', '/api/sms-templates', { campaign_id: camp.body.id, name: 'Step', message: TEMPLATE, sequence_order: 1, delay_minutes: 0, active: true });
  expect(t.status).toBe(201);
  stepId = t.body.id;
  const olga = (await api('GET', '/api/sms-templates/preview/contacts?q=+16475550191')).body.contacts[0];
  const preview = async (extra: Record<string, unknown> = {}) => {
    const r = await api('POST', '/api/sms-templates/preview', { message: TEMPLATE, contact_id: olga.id, template_id: stepId, ...extra });
    expect(r.status).toBe(200);
    return r.body as { message: string; incentive_note: string | null };
  };
  const setIncentive = async (incentive: unknown) => expect((await api('PUT', `/api/sms/templates/${stepId}/incentive`, incentive)).status).toBe(200);

  // A step without an incentive sends no code.
  expect(await preview()).toMatchObject({ message: `Hi Olga, your Wool socks (CA$101.70) waits. Code : ${LINK}`, incentive_note: null });
  await setIncentive({ kind: 'fixed', code: 'SPRING10' });
  expect((await preview()).message).toBe(`Hi Olga, your Wool socks (CA$101.70) waits. Code SPRING10: ${LINK}`);
  // A Shopify code without the shop's credentials: the send goes without one, and says why.
  await setIncentive({ kind: 'shopify', discount: 'percentage', value: 10, days: 7 });
  expect(await preview()).toEqual(
    expect.objectContaining({ message: `Hi Olga, your Wool socks (CA$101.70) waits. Code : ${LINK}`, incentive_note: 'sent without a code: the integration holds no Shopify credentials' }),
  );
  const shop = await api('PUT', `/api/sms/integrations/${olgaIntegration}/shop`, { platform: 'shopify', shop: 'north-goods.myshopify.com', key: 'shpat_preview' });
  expect(shop.status).toBe(200);
  // With them: "(unique code)" in the text and in the link, where Shopify's /discount/<code> puts the shopper's code.
  const shown = await preview();
  expect(shown).toMatchObject({ incentive_note: null });
  expect(shown.message).toBe(
    'Hi Olga, your Wool socks (CA$101.70) waits. Code (unique code): https://north-goods.myshopify.com/discount/(unique%20code)?redirect=%2Fr%2Fpreview',
  );
  expect((await preview({ discount_code: 'TRY-1' })).message).toBe(
    'Hi Olga, your Wool socks (CA$101.70) waits. Code TRY-1: https://north-goods.myshopify.com/discount/TRY-1?redirect=%2Fr%2Fpreview',
  );
  // Sample data stands for a shop that holds them.
  const sample = await api('POST', '/api/sms-templates/preview', { message: TEMPLATE, sample: true, template_id: stepId });
  expect(sample.body.message).toMatch(/Code \(unique code\): https:\/\/example\.com\/discount\/\(unique%20code\)\?redirect=%2Fcheckout$/);
  // Previewing spent nothing: no code was given for the step.
  const given = (await api('GET', '/api/sms/incentive-redemptions')).body as { step_key: string }[];
  expect(given.find((s) => s.step_key === `sms-template:${stepId}`)).toBeUndefined();
});

it('"Test" can send a contact’s data to the test phone, the step’s code as previewed', async () => {
  const olga = (await api('GET', '/api/sms-templates/preview/contacts?q=+16475550191')).body.contacts[0];
  const sent = await api('POST', `/api/sms-templates/${stepId}/test`, { testPhone: '+15552079901', contact_id: olga.id });
  expect(sent.status).toBe(200);
  const bodies = sms.twilio.messages.filter((m) => m.to === '+15552079901').map((m) => m.body);
  expect(bodies).toEqual([
    'Hi Olga, your Wool socks (CA$101.70) waits. Code (unique code): https://north-goods.myshopify.com/discount/(unique%20code)?redirect=%2Fr%2Fpreview',
  ]);
});

it('with "Track clicks", shows our short link as the send puts it in, for the segments of the text sent, and makes no link', async () => {
  const olga = (await api('GET', '/api/sms-templates/preview/contacts?q=+16475550191')).body.contacts[0];
  const preview = async (message = TEMPLATE) => (await api('POST', '/api/sms-templates/preview', { message, contact_id: olga.id, template_id: stepId })).body as { message: string; characters: number };
  expect((await api('PUT', '/api/sms/click-tracking', { track_clicks: true })).status).toBe(200);
  try {
    const shown = await preview();
    expect(shown.message).toBe(`Hi Olga, your Wool socks (CA$101.70) waits. Code (unique code): ${PUBLIC_URL}/r/(tracked-url)`);
    // As long as a sent link's token: the letter s and 12 characters.
    expect(TRACKED_LINK_PREVIEW_TOKEN).toHaveLength(13);
    // A text without the link gets none.
    expect((await preview('Hi {{firstName}}, code {{discountCode}}')).message).toBe('Hi Olga, code (unique code)');
    const client = await MongoClient.connect(sms.t.env.MONGODB_URI!);
    try {
      expect(await client.db(sms.t.db).collection('tracked_links').countDocuments({})).toBe(0);
    } finally {
      await client.close();
    }
  } finally {
    expect((await api('PUT', '/api/sms/click-tracking', { track_clicks: false })).status).toBe(200);
  }
  expect((await preview()).message).toContain('https://north-goods.myshopify.com/discount/(unique%20code)?redirect=%2Fr%2Fpreview');
});
