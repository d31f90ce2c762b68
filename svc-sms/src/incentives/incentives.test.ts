/**
 * Incentives on SMS steps, over HTTP with the fake Twilio and the fake WooCommerce: a 5-code pool gives 5 shoppers
 * 5 different codes and the sixth is texted without one, its log saying so; a WooCommerce coupon is created once
 * per shopper and step though its first call answered 500, and the paid order that used it marks it redeemed.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { call } from '@act/service-kit/testing';
import type { SmsLog } from '@act/contracts/src/sms-api';
import { startFakeWooCommerce, type FakeWooCommerce } from '@act/testing';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, postContact, waitFor } from '../test/helpers';

jest.setTimeout(120_000);

const fixture = (source: string, name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(__dirname, '../../../packages/sources/src', source, 'fixtures', `${name}.json`), 'utf8'));

const sms = useSmsWithTwilio('incentives');
let woo: FakeWooCommerce;
beforeAll(async () => {
  woo = await startFakeWooCommerce();
});
afterAll(async () => {
  await woo?.close();
});
const sentTo = (phone: string) => sms.twilio.messages.filter((m) => m.to === phone).map((m) => m.body);
const logsOf = async (phones: string[]) =>
  ((await call(sms.svc.url, 'GET', '/api/sms-logs')).body as SmsLog[]).filter((l) => phones.includes(l.phone));

it('a 5-code pool gives 5 shoppers 5 different codes; the sixth is texted without one and its log says so', async () => {
  const pool = await call(sms.svc.url, 'POST', '/api/sms/incentive-pools', { body: { name: 'Texts', csv: 'T-1\nT-2\nT-3\nT-4\nT-5\n' } });
  expect(pool.status).toBe(201);
  expect(pool.body).toMatchObject({ total: 5, remaining: 5, low: true });
  const { templates } = await createFunnel(sms.svc.url, 'sms-pool', [{ message: 'Hi {first_name}, code {discount_code}: {checkout_url}' }]);
  const set = await call(sms.svc.url, 'PUT', `/api/sms/templates/${templates[0]!.id}/incentive`, { body: { kind: 'pool', pool_id: pool.body.id } });
  expect(set.status).toBe(200);
  const phones = [1, 2, 3, 4, 5, 6].map((i) => `+1555208010${i}`);
  for (const [i, phone] of phones.entries())
    await postContact(sms.svc.url, 'sms-pool', `sp-${i + 1}`, phone, { first_name: `S${i + 1}`, checkout_url: `https://shop.example/c/${i + 1}` });
  await waitFor(async () => phones.every((p) => sentTo(p).length === 1), 30_000);
  const codes = phones.map((p) => /code (\S*):/.exec(sentTo(p)[0]!)?.[1] ?? null);
  expect(codes.filter((c) => c).sort()).toEqual(['T-1', 'T-2', 'T-3', 'T-4', 'T-5']);
  const without = phones[codes.indexOf('')]!;
  expect(sentTo(without)[0]).toMatch(/^Hi S\d, code : https:\/\/shop\.example\/c\/\d$/);
  // The log is written when the burst ends, after Twilio took the text.
  let logs: SmsLog[] = [];
  await waitFor(async () => {
    logs = await logsOf(phones);
    return phones.every((p) => logs.some((l) => l.phone === p));
  }, 30_000);
  expect(logs.find((l) => l.phone === without)!.error_message).toBe('Sent without a code: the code pool is empty');
  for (const [i, p] of phones.entries()) if (p !== without) expect(logs.find((l) => l.phone === p)!.error_message).toBe(`Code ${codes[i]}`);
  expect((await call(sms.svc.url, 'GET', `/api/sms/incentive-pools/${pool.body.id}`)).body).toMatchObject({ remaining: 0 });
});

it('a WooCommerce coupon is created once per shopper and step though its first call answered 500; the paid order using it redeems it', async () => {
  const { integration, templates } = await createFunnel(sms.svc.url, 'sms-woo', [{ message: 'Save with {discount_code}: {checkout_url}' }]);
  const secret = 'wc_incentive_secret';
  expect((await call(sms.svc.url, 'PATCH', `/api/sms-webhook-integrations/${integration.id}`, { body: { webhook_secret: secret } })).status).toBe(200);
  const shop = await call(sms.svc.url, 'PUT', `/api/sms/integrations/${integration.id}/shop`, {
    body: { platform: 'woocommerce', shop: woo.url, key: woo.key, secret: woo.secret },
  });
  expect(shop.body).toEqual({ platform: 'woocommerce', shop: woo.url, has_key: true, has_secret: true });
  expect(JSON.stringify((await call(sms.svc.url, 'GET', `/api/sms/integrations/${integration.id}/shop`)).body)).not.toContain(woo.secret);
  await call(sms.svc.url, 'PUT', `/api/sms/templates/${templates[0]!.id}/incentive`, { body: { kind: 'woocommerce', discount: 'amount', value: 5, days: 3 } });
  const deliver = (body: unknown, topic: string, id: string) => {
    const raw = JSON.stringify(body);
    return call(sms.svc.url, 'POST', new URL(integration.webhook_url).pathname, {
      raw,
      user: null,
      headers: {
        'content-type': 'application/json',
        'X-WC-Webhook-Topic': topic,
        'X-WC-Webhook-Resource': 'order',
        'X-WC-Webhook-Event': topic.split('.')[1]!,
        'X-WC-Webhook-Delivery-ID': id,
        'X-WC-Webhook-Signature': createHmac('sha256', secret).update(raw).digest('base64'),
      },
    });
  };
  woo.failNext(1, 500);
  const pending = fixture('woocommerce', 'order-created-pending');
  expect((await deliver(pending, 'order.created', 'inc-1')).status).toBe(200);
  const phone = '+447700900456';
  await waitFor(async () => sentTo(phone).length === 1, 30_000);
  expect(woo.calls.map((c) => c.status)).toEqual([500, 201]);
  expect(woo.coupons).toHaveLength(1);
  const code = woo.coupons[0]!.code.toUpperCase();
  // WooCommerce takes no code in a link: the message shows it, the link stays the store's.
  expect(sentTo(phone)).toEqual([`Save with ${code}: ${String(pending.payment_url)}`]);
  expect(woo.coupons[0]).toMatchObject({ discount_type: 'fixed_cart', amount: '5.00', usage_limit: 1, usage_limit_per_user: 1 });

  const paid = { ...fixture('woocommerce', 'order-updated-processing'), coupon_lines: [{ id: 1, code: code.toLowerCase(), discount: '5.00', discount_tax: '0.00' }] };
  expect((await deliver(paid, 'order.updated', 'inc-2')).body).toMatchObject({ updated: 1 });
  const figures = (await call(sms.svc.url, 'GET', '/api/sms/incentive-redemptions')).body as { step_key: string }[];
  expect(figures.find((f) => f.step_key === `sms-template:${templates[0]!.id}`)).toEqual({
    step_key: `sms-template:${templates[0]!.id}`,
    given: 1,
    redeemed: 1,
    discount: [{ currency: 'GBP', minor: 500 }],
    // The paid order's total (48.90).
    revenue: [{ currency: 'GBP', minor: 4890 }],
  });
});

it("a variant's own code (campaign experiments) is given instead of the step's incentive", async () => {
  const pool = await call(sms.svc.url, 'POST', '/api/sms/incentive-pools', { body: { name: 'Unused', csv: 'U-1\nU-2\n' } });
  const { campaign, templates } = await createFunnel(sms.svc.url, 'sms-variant', [{ message: 'Code {discount_code}: {checkout_url}' }]);
  await call(sms.svc.url, 'PUT', `/api/sms/templates/${templates[0]!.id}/incentive`, { body: { kind: 'pool', pool_id: pool.body.id } });
  const variant = (id: string) => ({ id, share: 50, subject: null, content: null, delay: null, incentive: `VAR-${id}` });
  const put = await call(sms.svc.url, 'PUT', `/api/sms-campaigns/${campaign.id}/experiment`, {
    body: { holdout_percent: 0, steps: [{ template_id: templates[0]!.id, variants: [variant('A'), variant('B')] }] },
  });
  expect(put.status).toBe(200);
  await postContact(sms.svc.url, 'sms-variant', 'sv-1', '+15552080301', { checkout_url: 'https://shop.example/c/v' });
  await waitFor(async () => sentTo('+15552080301').length === 1, 30_000);
  const [text] = sentTo('+15552080301');
  expect(text).toMatch(/^Code VAR-[AB]: https:\/\/shop\.example\/c\/v$/);
  const log = await waitFor(async () => (await logsOf(['+15552080301']))[0], 30_000);
  expect(log!.error_message).toBe(`Code ${/VAR-[AB]/.exec(text!)![0]}`);
  expect((await call(sms.svc.url, 'GET', `/api/sms/incentive-pools/${pool.body.id}`)).body).toMatchObject({ remaining: 2 });
});
