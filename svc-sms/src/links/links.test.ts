/**
 * Our redirect link on SMS steps, over HTTP with the fake Twilio and the fake Shopify Admin API: off by default (the
 * text carries the recovery link as given); with "Track clicks" each text carries a short `/r/s…` link instead, a
 * click is counted once per message (later clicks add to its count, not to the results), the redirect keeps the
 * code the shop applies, a held-out contact never has a link, an unknown token answers a 404 page, and the results
 * and the contact page show the clicks per variant. An erased person's link keeps its row without their contact id or
 * the checkout link, and answers "not valid". The text's segments are counted with the link it carries: an item name
 * the long recovery link would have shortened goes whole beside our short link.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { connect } from 'nats';
import { privacyRequester } from '@act/service-kit/privacy-testing';
import { call, gatewayHeaders } from '@act/service-kit/testing';
import type { SmsLog } from '@act/contracts/src/sms-api';
import type { CampaignResults } from '@act/contracts/src/experiments-api';
import type { TimelinePart } from '@act/contracts/src/timeline';
import { smsSegments } from '@act/contracts/src/sms-segments';
import { startFakeShopifyAdmin, type FakeShopifyAdmin } from '@act/testing';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, postContact, PUBLIC_URL, waitFor } from '../test/helpers';

jest.setTimeout(180_000);

const sms = useSmsWithTwilio('tracked-links');
let shopify: FakeShopifyAdmin;
beforeAll(async () => {
  shopify = await startFakeShopifyAdmin();
});
afterAll(async () => {
  await shopify?.close();
});

const sentTo = (phone: string) => sms.twilio.messages.filter((m) => m.to === phone).map((m) => m.body);
const logsOf = async (phones: string[]) =>
  ((await call(sms.svc.url, 'GET', '/api/sms-logs')).body as SmsLog[]).filter((l) => phones.includes(l.phone));
/** A click as a phone makes it: the redirect is read, not followed. */
const click = (token: string) => fetch(`${sms.svc.url}/api/sms/r/${token}`, { redirect: 'manual', headers: gatewayHeaders(null) });
const LINK = new RegExp(`${PUBLIC_URL.replace(/[.]/g, '\\.')}/r/(s[A-Za-z0-9_-]{12})`);

it('is off by default: the text carries the recovery link as given', async () => {
  expect((await call(sms.svc.url, 'GET', '/api/sms/click-tracking')).body).toEqual({ track_clicks: false });
  await createFunnel(sms.svc.url, 'links-off', [{ message: 'Back to your cart: {checkout_url}' }]);
  await postContact(sms.svc.url, 'links-off', 'off-1', '+15552090001', { checkout_url: 'https://shop.example/c/off' });
  await waitFor(async () => sentTo('+15552090001').length === 1, 30_000);
  expect(sentTo('+15552090001')).toEqual(['Back to your cart: https://shop.example/c/off']);
});

it('with "Track clicks": short links, one click per message, the code kept, no link for the holdout, clicks per variant', async () => {
  expect((await call(sms.svc.url, 'PUT', '/api/sms/click-tracking', { body: { track_clicks: 'sometimes' } })).status).toBe(400);
  expect((await call(sms.svc.url, 'PUT', '/api/sms/click-tracking', { body: { track_clicks: true } })).body).toEqual({ track_clicks: true });
  const { campaign, integration, templates } = await createFunnel(sms.svc.url, 'links-on', [{ message: 'Hi {first_name}, code {discount_code}: {checkout_url}' }]);
  const tpl = templates[0]!.id as number;
  expect((await call(sms.svc.url, 'PUT', `/api/sms/integrations/${integration.id}/shop`, { body: { platform: 'shopify', shop: shopify.url, key: shopify.token } })).status).toBe(200);
  // The step creates a Shopify code; variant B gives its own fixed code instead.
  expect((await call(sms.svc.url, 'PUT', `/api/sms/templates/${tpl}/incentive`, { body: { kind: 'shopify', discount: 'percentage', value: 10, days: 7 } })).status).toBe(200);
  const variant = (id: string, incentive: unknown) => ({ id, share: 50, subject: null, content: null, delay: null, incentive });
  const put = await call(sms.svc.url, 'PUT', `/api/sms-campaigns/${campaign.id}/experiment`, {
    body: { holdout_percent: 30, steps: [{ template_id: tpl, variants: [variant('A', null), variant('B', { kind: 'fixed', code: 'VAR-B' })] }] },
  });
  expect(put.status).toBe(200);

  const phones = Array.from({ length: 16 }, (_, i) => `+155520910${String(i).padStart(2, '0')}`);
  const checkout = (i: number) => `https://north-goods.example/checkouts/${i}?key=k${i}`;
  for (const [i, phone] of phones.entries()) await postContact(sms.svc.url, 'links-on', `on-${i}`, phone, { checkout_url: checkout(i) });
  const logs = await waitFor(async () => {
    const l = await logsOf(phones);
    return new Set(l.map((x) => x.phone)).size === phones.length ? l : null;
  }, 60_000);
  const heldOut = logs.filter((l) => l.status === 'held_out').map((l) => l.phone);
  const texted = phones.filter((p) => !heldOut.includes(p));
  expect(heldOut.length).toBeGreaterThan(0);
  expect(texted.length).toBeGreaterThan(0);
  for (const p of heldOut) expect(sentTo(p)).toEqual([]);

  const sent = texted.map((phone) => {
    const [text] = sentTo(phone);
    const i = phones.indexOf(phone);
    const token = LINK.exec(text!)?.[1];
    expect(token).toBeDefined();
    expect(text).not.toContain('north-goods.example');
    const code = /code (\S+):/.exec(text!)![1]!;
    // B gives its own code, A the step's code created in Shopify.
    const variant = code === 'VAR-B' ? 'B' : 'A';
    return { phone, i, text: text!, token: token!, code, variant };
  });
  // What Twilio got is what the log says was sent (the segments counted on that text).
  for (const s of sent) expect(logs.find((l) => l.phone === s.phone)!.message).toBe(s.text);
  expect(new Set(sent.map((s) => s.variant))).toEqual(new Set(['A', 'B']));

  // The held-out contacts never had a link made.
  const client = await MongoClient.connect(sms.t.env.MONGODB_URI!);
  try {
    const rows = await client.db(sms.t.db).collection('tracked_links').find({ template_id: tpl }).toArray();
    expect(rows).toHaveLength(texted.length);
    expect(new Set(rows.map((r) => r.token))).toEqual(new Set(sent.map((s) => s.token)));
  } finally {
    await client.close();
  }

  // A click goes to the recovery link with the code applied where the shop takes it in a link (Shopify's /discount/):
  // A's code made in the shop, B's fixed code on the same Shopify store's integration alike.
  for (const s of sent) {
    const r = await click(s.token);
    expect(r.status).toBe(302);
    if (s.variant === 'A') {
      expect(shopify.discounts.map((d) => d.code)).toContain(s.code);
      expect(s.code).toMatch(/^CART-/);
    } else expect(s.code).toBe('VAR-B');
    expect(r.headers.get('location')).toBe(`https://north-goods.example/discount/${s.code}?redirect=${encodeURIComponent(`/checkouts/${s.i}?key=k${s.i}`)}`);
  }
  // Clicked again: still one clicked message per contact in the results.
  const again = sent[0]!;
  expect((await click(again.token)).status).toBe(302);
  expect((await click(again.token)).status).toBe(302);

  const unknown = await click('sAAAAAAAAAAAA');
  expect(unknown.status).toBe(404);
  expect(unknown.headers.get('content-type')).toMatch(/text\/html/);
  expect(await unknown.text()).toContain('This link is not valid');
  expect((await click('nonsense')).status).toBe(404);

  const results = (await call(sms.svc.url, 'GET', `/api/sms-campaigns/${campaign.id}/results`)).body as CampaignResults;
  const step = results.steps.find((s) => s.template_id === tpl)!;
  for (const id of ['A', 'B']) {
    const group = step.variants.find((v) => v.id === id)!;
    const mine = sent.filter((s) => s.variant === id);
    expect(group.recipients).toBe(mine.length);
    expect(group.clicked).toBe(mine.length);
    expect(group.click_rate).toMatchObject({ estimate: 1 });
  }

  // The contact page shows the click (once, with the later opens counted).
  const contact = ((await call(sms.svc.url, 'GET', '/api/sms-contacts')).body as { id: number; phone: string }[]).find((c) => c.phone === again.phone)!;
  const part = (await call(sms.svc.url, 'GET', `/internal/timeline?contact=${contact.id}`)).body as TimelinePart;
  const clicks = part.entries.filter((e) => e.status === 'clicked');
  expect(clicks).toHaveLength(1);
  expect(clicks[0]).toMatchObject({ side: 'sms', title: 'SMS link clicked' });
  expect(clicks[0]!.detail).toContain('opened 3 times');
});

it("an erase keeps the person's link row without their contact id or checkout link; the link then answers 'not valid'", async () => {
  expect((await call(sms.svc.url, 'PUT', '/api/sms/click-tracking', { body: { track_clicks: true } })).status).toBe(200);
  await createFunnel(sms.svc.url, 'links-erase', [{ message: 'Your cart: {checkout_url}' }]);
  const phone = '+15552092001';
  await postContact(sms.svc.url, 'links-erase', 'erase-1', phone, { email: 'erase.links@example.com', checkout_url: 'https://shop.example/c/erase-1' });
  await waitFor(async () => sentTo(phone).length === 1, 30_000);
  const token = LINK.exec(sentTo(phone)[0]!)![1]!;
  expect((await click(token)).status).toBe(302);

  const nc = await connect({ servers: sms.t.env.NATS_URL! });
  const privacy = privacyRequester(nc, sms.t.natsPrefix);
  const client = await MongoClient.connect(sms.t.env.MONGODB_URI!);
  try {
    const exported = await privacy.ask(71, 'export', { email: null, phone });
    expect(JSON.stringify(exported)).toContain(token);
    const erased = await privacy.ask(72, 'erase', { email: null, phone });
    expect(erased.result).toMatchObject({ status: 'done', error: null });
    const row = await client.db(sms.t.db).collection('tracked_links').findOne({ token });
    expect(row).toMatchObject({ target: null, clicks: 1 });
    expect(row!.contact_id).toMatch(/^erased-/);
    expect(JSON.stringify(row)).not.toContain('erase-1');
    expect((await click(token)).status).toBe(404);
  } finally {
    privacy.close();
    await nc.close();
    await client.close();
  }
});

it('counts the segments with the short link sent: an item name the long recovery link would shorten goes whole', async () => {
  expect((await call(sms.svc.url, 'PUT', '/api/sms/click-tracking', { body: { track_clicks: true } })).status).toBe(200);
  const template = 'Hi {{firstName}}, your {{firstItemName}} ({{cartTotal}}) is still in your cart: {{recoveryUrl}}';
  const recovery = 'https://north-goods.myshopify.com/60673655038/checkouts/ac/b7e3c1a9/recover';
  // 57 characters: with the 76-character recovery link the text would pass 160 and the name be cut; with ours it fits.
  const name = 'Merino Wool Hiking Socks with Reinforced Heel, Size Large';
  const { integration } = await createFunnel(sms.svc.url, 'links-segments', [{ message: template }]);
  // A documented payload edited field by field: its shape is the sender's, not ours.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const body: Record<string, any> = JSON.parse(readFileSync(path.join(__dirname, '../../../packages/sources/src/shopify/fixtures/checkouts-create.json'), 'utf8'));
  const phone = '+16475550191';
  Object.assign(body, { token: 'links-segments-1', phone, abandoned_checkout_url: recovery });
  body.customer = { ...body.customer, phone };
  body.billing_address = { ...body.billing_address, phone };
  body.line_items = [{ ...body.line_items[0], title: name }, ...body.line_items.slice(1)];
  const r = await call(sms.svc.url, 'POST', new URL(integration.webhook_url).pathname, {
    raw: JSON.stringify(body),
    headers: { 'content-type': 'application/json', 'X-Shopify-Topic': 'checkouts/create', 'X-Shopify-Webhook-Id': 'links-segments-1' },
    user: null,
  });
  expect(r.status).toBe(200);
  await waitFor(async () => sentTo(phone).length === 1, 30_000);
  const [text] = sentTo(phone);
  expect(`Hi Sam, your ${name} (CA$101.70) is still in your cart: ${recovery}`.length).toBeGreaterThan(160);
  expect(text).toMatch(new RegExp(`^Hi Sam, your ${name} \\(CA\\$101\\.70\\) is still in your cart: ${LINK.source}$`));
  expect(smsSegments(text!).segments).toBe(1);
  const token = LINK.exec(text!)![1]!;
  expect((await click(token)).headers.get('location')).toBe(recovery);
});
