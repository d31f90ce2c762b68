// Incentives through the gateway with the provider fakes (fake Resend, fake Shopify Admin API): 5 shoppers on one
// step with a 5-code pool get 5 different codes, a sixth is sent without one and its log says so; a code created in
// Shopify survives a THROTTLED answer (waited out) and a 503 (the send retried) without a second code, the recovery
// link applies it; the Shopify order that used it marks it redeemed and the step's figures show it. In the faults
// phase because it restarts svc-email against the fakes, as the provider tests do.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startFakeResend, startFakeShopifyAdmin, type FakeResend, type FakeShopifyAdmin } from '@act/testing';
import { ADAPTERS } from '@act/sources';
import { startProcess, stopProcess } from '../stack';
import { adminCookie, api, expectStatus, runTag, serviceDb, stack, waitFor } from './helpers';

const DELAY_MINUTES = 600;
const fixture = (source: string, name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(__dirname, '../../../packages/sources/src', source, 'fixtures', `${name}.json`), 'utf8'));

let resend: FakeResend | null = null;
let shopify: FakeShopifyAdmin | null = null;

afterAll(async () => {
  if (resend) {
    await stopProcess('svc-email');
    await startProcess('svc-email');
    await resend.close();
  }
  await shopify?.close();
}, 120_000);

const codeIn = (html: string) => /Code: \[([^\]]*)\]/.exec(html)?.[1] ?? null;

/** The contacts of these addresses made due now (while svc-email is stopped: its due rows are read at start). */
async function dueNow(addresses: string[], env: Record<string, string>) {
  await stopProcess('svc-email');
  const db = await serviceDb('svc-email');
  const refs = (await db.collection('contacts').find({ email: { $in: addresses } }, { projection: { _id: 0, id: 1 } }).toArray()).map((c) => c.id as number);
  expect(refs).toHaveLength(addresses.length);
  const now = new Date();
  await db.collection('contacts').updateMany({ id: { $in: refs } }, { $set: { remind_at: now } });
  await db.collection('email_sequence_steps').updateMany({ contact_ref: { $in: refs } }, { $set: { due_at: now, base_at: now } });
  await startProcess('svc-email', env);
  return { db, refs };
}

it('pool and Shopify codes through the gateway: 5 codes for 5 shoppers, the sixth logged without one; a created code survives THROTTLED and a 503, is applied in the link and redeemed', async () => {
  resend = await startFakeResend();
  shopify = await startFakeShopifyAdmin();
  const env = { EMAIL_LIVE_SENDING: 'true', RESEND_BASE_URL: resend.url, RESEND_API_KEY: 're_incentives', RESEND_FROM: 'Shop <shop@example.com>', EMAIL_SEQUENCE_SCAN_MS: '200' };
  await stopProcess('svc-email');
  await startProcess('svc-email', env);
  const cookie = await adminCookie();
  const tag = runTag();

  const step = async (funnelId: string) => {
    const campaign = expectStatus(await api('POST', '/api/email/campaigns', { cookie, body: { name: `Incentive ${funnelId}` } }), 201).body;
    const template = expectStatus(
      await api('POST', '/api/resend/templates', {
        cookie,
        body: { campaign_id: campaign.id, name: 'Offer', subject: `Offer ${tag}`, from_name: 'Shop', html_content: '<p>Code: [{{discountCode}}]</p><p><a href="{{recoveryUrl}}">Complete Your Purchase</a></p>', template_order: 1, delay_hours: 0 },
      }),
      201,
    ).body;
    const integration = expectStatus(
      await api('POST', '/api/webhook-integrations', { cookie, body: { name: `Incentive ${funnelId}`, funnel_id: funnelId, reminder_delay: DELAY_MINUTES, campaign_id: campaign.id, checkout_fallback_url: 'https://shop.example.com/cart' } }),
      201,
    ).body;
    return { templateId: template.id as number, integration };
  };

  // A pool of 5, six shoppers.
  const pool = expectStatus(await api('POST', '/api/email/incentive-pools', { cookie, body: { name: `Five ${tag}`, csv: `code\n${[1, 2, 3, 4, 5].map((i) => `G${tag}-${i}`).join('\n')}\n` } }), 201).body;
  const poolStep = await step(`inc-pool-${tag}`);
  expectStatus(await api('PUT', `/api/email/templates/${poolStep.templateId}/incentive`, { cookie, body: { kind: 'pool', pool_id: pool.id } }), 200);
  const shoppers = [1, 2, 3, 4, 5, 6].map((i) => `pool-${tag}-${i}@example.com`);
  for (const [i, email] of shoppers.entries())
    expectStatus(await api('POST', '/api/webhook', { body: { event: 'contact_created', funnel_id: `inc-pool-${tag}`, contact: { id: `ip-${tag}-${i}`, email } } }), 200);

  // A Shopify integration creating the codes, its first answers THROTTLED then a 503 after making the code.
  const shopStep = await step(`inc-shop-${tag}`);
  const secret = `shpss_${tag}`;
  expectStatus(await api('PATCH', `/api/webhook-integrations/${shopStep.integration.id}`, { cookie, body: { webhook_secret: secret, webhook_source: 'shopify' } }), 200);
  expectStatus(await api('PUT', `/api/email/integrations/${shopStep.integration.id}/shop`, { cookie, body: { platform: 'shopify', shop: shopify.url, key: shopify.token } }), 200);
  expectStatus(await api('PUT', `/api/email/templates/${shopStep.templateId}/incentive`, { cookie, body: { kind: 'shopify', discount: 'percentage', value: 15, days: 7 } }), 200);
  const deliver = async (topic: string, body: unknown, id: string) => {
    const raw = JSON.stringify(body);
    const res = await fetch(`${stack.url}${new URL(shopStep.integration.webhook_url).pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Shopify-Topic': topic, 'X-Shopify-Webhook-Id': id, 'X-Shopify-Shop-Domain': 'north-goods.myshopify.com', ...ADAPTERS.shopify.sign!(Buffer.from(raw), secret) },
      body: raw,
    });
    return { status: res.status, body: await res.json() };
  };
  const shopEmail = `shop-${tag}@example.com`;
  const token = `tok${tag}`;
  const checkout: Record<string, unknown> = { ...fixture('shopify', 'checkouts-create'), token, email: shopEmail, id: Date.now() };
  expect((await deliver('checkouts/create', checkout, `c-${tag}`)).status).toBe(200);
  shopify.throttleNext(1, { available: 0, restoreRate: 10 });
  shopify.failNext(1, 503, { afterCreate: true });

  const { db, refs } = await dueNow([...shoppers, shopEmail], env);

  // The pool: six emails, five codes, all different, the sixth without one and logged so.
  const sent = await waitFor(async () => (shoppers.every((s) => resend!.emailsTo(s).length === 1) ? shoppers.map((s) => resend!.emailsTo(s)[0]!) : null), {
    timeoutMs: 120_000,
    everyMs: 1_000,
    what: 'an email to each of the six shoppers',
  });
  const codes = sent.map((e) => codeIn(e.html));
  expect(codes.filter(Boolean).sort()).toEqual([1, 2, 3, 4, 5].map((i) => `G${tag}-${i}`));
  const sixth = shoppers[codes.indexOf('')]!;
  const log = await waitFor(() => db.collection('email_logs').findOne({ email: sixth, status: 'sent' }), { what: "the sixth shopper's log" });
  expect(log.message).toMatch(/; sent without a code: the code pool is empty$/);
  expect(expectStatus(await api('GET', `/api/email/incentive-pools/${pool.id}`, { cookie }), 200).body).toMatchObject({ total: 5, remaining: 0, low: true });

  // Shopify: one code though the first call was throttled (waited for 10 points at 10 a second) and the next answered 503.
  const [mail] = await waitFor(async () => (resend!.emailsTo(shopEmail).length ? resend!.emailsTo(shopEmail) : null), { timeoutMs: 120_000, everyMs: 1_000, what: 'the Shopify email' });
  expect(shopify.calls.map((c) => [c.status, c.throttled])).toEqual([
    [200, true],
    [503, false],
    [200, false],
  ]);
  expect(shopify.calls[1]!.at - shopify.calls[0]!.at).toBeGreaterThanOrEqual(1_000);
  expect(shopify.discounts).toHaveLength(1);
  const code = shopify.discounts[0]!.code;
  expect(new Set(shopify.calls.map((c) => c.code))).toEqual(new Set([code]));
  expect(codeIn(mail!.html)).toBe(code);
  const recovery = new URL(String(checkout.abandoned_checkout_url));
  expect(mail!.html).toContain(`${recovery.origin}/discount/${code}?redirect=`);
  expect(resend.emailsTo(shopEmail)).toHaveLength(1);

  // The order that used it: redeemed, in the step's figures.
  const order: Record<string, unknown> = { ...fixture('shopify', 'orders-create'), checkout_token: token, email: shopEmail, discount_codes: [{ code, amount: '12.00', type: 'percentage' }] };
  expect(await deliver('orders/create', order, `o-${tag}`)).toMatchObject({ status: 200, body: { matched: 1 } });
  const figures = expectStatus(await api('GET', '/api/email/incentive-redemptions', { cookie }), 200).body as { step_key: string }[];
  expect(figures.find((f) => f.step_key === `email-template:${shopStep.templateId}`)).toEqual({
    step_key: `email-template:${shopStep.templateId}`,
    given: 1,
    redeemed: 1,
    discount: [{ currency: String(order.currency), minor: 1200 }],
    revenue: [{ currency: String(order.currency), minor: Math.round(Number(order.total_price) * 100) }],
  });
  expect(refs).toHaveLength(7);
}, 420_000);
