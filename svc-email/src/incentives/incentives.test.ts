// Incentives on campaign steps, over HTTP against the MongoDB stand-in, NATS, the fake Resend and the fake Shopify
// Admin API: a pool uploaded as CSV hands 5 shoppers 5 different codes and a sixth is sent without one, its log
// saying so; a code created in Shopify survives a send retried after a 5xx without a second code, and the recovery
// link applies it; shop credentials stay write-only.
import type { FakeResend, FakeShopifyAdmin } from '@act/testing';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { testUser } from '@act/service-kit/testing';
import { ADAPTERS } from '@act/sources';
import { contactCreated, waitFor, HOOK_TIMEOUT_MS } from '../test/helpers';
import { funnelCampaign, offerTemplate, startSendingEmail, type ShopSendingEmail } from '../test/live-sending';

const fixture = (source: string, name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(__dirname, '../../../packages/sources/src', source, 'fixtures', `${name}.json`), 'utf8'));

type Log = { contact_id: string; email: string; status: string; message: string };
type Pool = { id: string; name: string; total: number; remaining: number; low: boolean };

describe('incentives on email campaign steps', () => {
  let resend: FakeResend;
  let shopify: FakeShopifyAdmin;
  let email: ShopSendingEmail;
  beforeAll(async () => {
    email = await startSendingEmail('incentives', { shopify: true });
    ({ resend, shopify } = email);
  }, HOOK_TIMEOUT_MS);
  afterAll(() => email?.stop());

  /** A campaign of one template showing the code, on an integration of this funnel; the template's and integration's ids. */
  async function campaignStep(funnelId: string) {
    const { templateIds, integrationId, webhookPath } = await funnelCampaign(email, funnelId, { templates: [offerTemplate(funnelId)] });
    return { templateId: templateIds[0]!, integrationId, webhookPath };
  }
  const codeIn = (html: string) => /Code: \[([^\]]*)\]/.exec(html)?.[1] ?? null;
  const logsOf = async (addresses: string[]) =>
    ((await email.api('GET', '/api/email-logs')).body as Log[]).filter((l) => addresses.includes(l.email));

  it('a 5-code pool gives 5 shoppers 5 different codes; the sixth is sent without one and its log says so', async () => {
    const upload = await email.api('POST', '/api/email/incentive-pools', {
      body: { name: 'Spring five', csv: 'code\nSPRING-A1\nSPRING-B2\nSPRING-C3\nSPRING-D4\nSPRING-E5\n' },
    });
    expect(upload.status).toBe(201);
    const pool = upload.body as Pool;
    expect(pool).toMatchObject({ name: 'Spring five', total: 5, remaining: 5, low: true });
    const { templateId } = await campaignStep('pool-funnel');
    expect((await email.api('PUT', `/api/email/templates/${templateId}/incentive`, { body: { kind: 'pool', pool_id: 'f'.repeat(24) } })).status).toBe(404);
    const set = await email.api('PUT', `/api/email/templates/${templateId}/incentive`, { body: { kind: 'pool', pool_id: pool.id } });
    expect(set.status).toBe(200);
    expect((await email.api('GET', `/api/email/templates/${templateId}/incentive`)).body).toEqual({ kind: 'pool', pool_id: pool.id });

    const shoppers = [1, 2, 3, 4, 5, 6].map((i) => `pool.shopper${i}@example.com`);
    for (const [i, to] of shoppers.entries()) {
      const r = await email.api('POST', '/api/webhook', {
        body: contactCreated(`P-${i + 1}`, to, 'pool-funnel', { checkout_url: `https://shop.example.com/checkout/p${i + 1}` }),
        user: null,
      });
      expect(r.status).toBe(200);
    }
    const sent = await waitFor(async () => (shoppers.every((to) => resend.emailsTo(to).length === 1) ? shoppers.map((to) => resend.emailsTo(to)[0]!) : null), {
      timeoutMs: 30_000,
      what: 'six emails',
    });
    const codes = sent.map((e) => codeIn(e.html));
    const given = codes.filter((c) => c);
    expect(given).toHaveLength(5);
    expect(new Set(given)).toEqual(new Set(['SPRING-A1', 'SPRING-B2', 'SPRING-C3', 'SPRING-D4', 'SPRING-E5']));
    const without = sent[codes.indexOf('')]!;
    expect(codeIn(without.html)).toBe('');
    const logs = await waitFor(async () => {
      const l = (await logsOf(shoppers)).filter((x) => x.status === 'sent');
      return l.length === 6 ? l : null;
    }, { what: 'six sent logs' });
    expect(logs.find((l) => l.email === without.to[0])!.message).toMatch(/; sent without a code: the code pool is empty$/);
    for (const e of sent.filter((x) => x !== without)) expect(logs.find((l) => l.email === e.to[0])!.message).toMatch(new RegExp(`; code ${codeIn(e.html)}$`));
    expect((await email.api('GET', `/api/email/incentive-pools/${pool.id}`)).body).toMatchObject({ total: 5, remaining: 0, low: true });
    expect(((await email.api('GET', '/api/email/incentive-redemptions')).body as { step_key: string; given: number }[]).find((s) => s.step_key === `email-template:${templateId}`)).toMatchObject({ given: 5, redeemed: 0 });
  });

  it('a code created in Shopify survives a send retried after a 5xx: one code, applied in the recovery link; the order using it redeems it', async () => {
    const { templateId, integrationId, webhookPath } = await campaignStep('shopify-funnel');
    const secret = 'shpss_incentive_0123456789abcdef';
    expect((await email.api('PATCH', `/api/webhook-integrations/${integrationId}`, { body: { webhook_secret: secret, webhook_source: 'shopify' } })).status).toBe(200);
    const shop = { platform: 'shopify', shop: shopify.url, key: shopify.token };
    expect((await email.api('PUT', `/api/email/integrations/${integrationId}/shop`, { body: shop, user: testUser })).status).toBe(403);
    const saved = await email.api('PUT', `/api/email/integrations/${integrationId}/shop`, { body: shop });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ platform: 'shopify', shop: shopify.url, has_key: true, has_secret: false });
    expect(JSON.stringify((await email.api('GET', `/api/email/integrations/${integrationId}/shop`)).body)).not.toContain(shopify.token);
    const bad = await email.api('PUT', `/api/email/templates/${templateId}/incentive`, { body: { kind: 'shopify', discount: 'percentage', value: 150, days: 7 } });
    expect(bad.status).toBe(400);
    expect((await email.api('PUT', `/api/email/templates/${templateId}/incentive`, { body: { kind: 'shopify', discount: 'percentage', value: 10, days: 7 } })).status).toBe(200);

    const deliver = (topic: string, body: unknown, id: string) => {
      const raw = JSON.stringify(body);
      return email.api('POST', webhookPath, {
        raw,
        user: null,
        headers: { 'content-type': 'application/json', 'X-Shopify-Topic': topic, 'X-Shopify-Webhook-Id': id, 'X-Shopify-Shop-Domain': 'north-goods.myshopify.com', ...ADAPTERS.shopify.sign!(Buffer.from(raw), secret) },
      });
    };
    // Shopify makes the code but the answer is lost (a 503): the send waits, and its retry asks for the same code.
    shopify.failNext(1, 503, { afterCreate: true });
    const checkout = fixture('shopify', 'checkouts-create');
    expect((await deliver('checkouts/create', checkout, 'inc-1')).status).toBe(200);
    const to = String(checkout.email);
    const [mail] = await waitFor(async () => (resend.emailsTo(to).length ? resend.emailsTo(to) : null), { timeoutMs: 30_000, what: 'the Shopify email' });
    expect(shopify.calls.map((c) => c.status)).toEqual([503, 200]);
    expect(shopify.discounts).toHaveLength(1);
    const code = shopify.discounts[0]!.code;
    expect(shopify.calls[0]!.code).toBe(code);
    expect(codeIn(mail!.html)).toBe(code);
    const recovery = new URL(String(checkout.abandoned_checkout_url));
    expect(mail!.html).toContain(`href="${recovery.origin}/discount/${code}?redirect=${encodeURIComponent(recovery.pathname + recovery.search).replace(/&/g, '&amp;')}"`);
    expect(resend.emailsTo(to)).toHaveLength(1);

    // The order that used the code: redeemed, with the discount it gave, in the step's figures.
    const order: Record<string, unknown> = { ...fixture('shopify', 'orders-create'), discount_codes: [{ code, amount: '9.90', type: 'percentage' }] };
    expect(await deliver('orders/create', order, 'inc-2')).toMatchObject({ status: 200, body: { message: 'Purchase recorded', matched: 1 } });
    const figures = (await email.api('GET', '/api/email/incentive-redemptions')).body as { step_key: string }[];
    expect(figures.find((f) => f.step_key === `email-template:${templateId}`)).toEqual({
      step_key: `email-template:${templateId}`,
      given: 1,
      redeemed: 1,
      discount: [{ currency: String(order.currency), minor: 990 }],
      // The order's total (72.32).
      revenue: [{ currency: String(order.currency), minor: 7232 }],
    });
  });
});
