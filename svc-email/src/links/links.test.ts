// Our redirect link on email campaign steps, over HTTP against the MongoDB stand-in, NATS, the fake Resend and the
// fake Shopify Admin API: off by default (the email carries the recovery link as given); with "Count clicks with: our
// link" each email's link is `/r/e…`, a click is counted once per message, the redirect keeps the code the shop
// applies, a held-out contact never has a link, an unknown token answers a 404 page, and the results and the contact
// page show the clicks per variant. Variant B gives a unique code from a pool instead of the step's Shopify code.
import { MongoClient } from 'mongodb';
import type { FakeResend, FakeShopifyAdmin } from '@act/testing';
import { gatewayHeaders } from '@act/service-kit/testing';
import type { CampaignResults } from '@act/contracts/src/experiments-api';
import type { TimelinePart } from '@act/contracts/src/timeline';
import { contactCreated, HOOK_TIMEOUT_MS, MONGODB_URI, waitFor } from '../test/helpers';
import { funnelCampaign, offerTemplate, startSendingEmail, type ShopSendingEmail } from '../test/live-sending';

jest.setTimeout(180_000);

type Log = { contact_id: string; email: string; status: string; message: string };
const PUBLIC_URL = 'https://carts.example.com';

describe('our redirect link on email campaign steps', () => {
  let resend: FakeResend;
  let shopify: FakeShopifyAdmin;
  let email: ShopSendingEmail;
  beforeAll(async () => {
    email = await startSendingEmail('tracked-links', { shopify: true, env: { PUBLIC_URL } });
    ({ resend, shopify } = email);
  }, HOOK_TIMEOUT_MS);
  afterAll(() => email?.stop());

  async function campaignStep(funnelId: string) {
    const { campaign, templateIds, integrationId } = await funnelCampaign(email, funnelId, { templates: [offerTemplate(funnelId)] });
    return { campaignId: campaign.id, templateId: templateIds[0]!, integrationId };
  }
  const post = (funnel: string, id: string, to: string, checkoutUrl: string) =>
    email.api('POST', '/api/webhook', { body: contactCreated(id, to, funnel, { checkout_url: checkoutUrl }), user: null });
  const hrefIn = (html: string) => /href="([^"]+)">Complete Your Purchase/.exec(html)?.[1] ?? null;
  const codeIn = (html: string) => /Code: \[([^\]]*)\]/.exec(html)?.[1] ?? null;
  const click = (token: string) => fetch(`${email.svc.url}/api/r/${token}`, { redirect: 'manual', headers: gatewayHeaders(null) });
  const logsOf = async (addresses: string[]) => ((await email.api('GET', '/api/email-logs')).body as Log[]).filter((l) => addresses.includes(l.email));

  it('is off by default: the email carries the recovery link as given', async () => {
    expect((await email.api('GET', '/api/email/click-tracking')).body).toEqual({ count_clicks_with: 'resend' });
    await campaignStep('links-off');
    expect((await post('links-off', 'off-1', 'off.one@example.com', 'https://shop.example.com/checkout/off')).status).toBe(200);
    const [mail] = await waitFor(async () => (resend.emailsTo('off.one@example.com').length ? resend.emailsTo('off.one@example.com') : null), { timeoutMs: 30_000, what: 'the email' });
    expect(hrefIn(mail!.html)).toBe('https://shop.example.com/checkout/off');
  });

  it('with "our link": /r/ links, one click per message, the code kept, no link for the holdout, clicks per variant', async () => {
    expect((await email.api('PUT', '/api/email/click-tracking', { body: { count_clicks_with: 'pixels' } })).status).toBe(400);
    expect((await email.api('PUT', '/api/email/click-tracking', { body: { count_clicks_with: 'link' } })).body).toEqual({ count_clicks_with: 'link' });
    const { campaignId, templateId, integrationId } = await campaignStep('links-on');
    expect((await email.api('PUT', `/api/email/integrations/${integrationId}/shop`, { body: { platform: 'shopify', shop: shopify.url, key: shopify.token } })).status).toBe(200);
    expect((await email.api('PUT', `/api/email/templates/${templateId}/incentive`, { body: { kind: 'shopify', discount: 'percentage', value: 10, days: 7 } })).status).toBe(200);
    const pool = (await email.api('POST', '/api/email/incentive-pools', { body: { name: 'Variant B', csv: 'code\nVB-1\nVB-2\nVB-3\nVB-4\nVB-5\nVB-6\nVB-7\nVB-8\nVB-9\nVB-10\nVB-11\nVB-12\nVB-13\nVB-14\nVB-15\nVB-16\n' } })).body as { id: string };
    const variant = (id: string, incentive: unknown) => ({ id, share: 50, subject: null, content: null, delay: null, incentive });
    const badPool = await email.api('PUT', `/api/email/campaigns/${campaignId}/experiment`, {
      body: { holdout_percent: 30, steps: [{ template_id: templateId, variants: [variant('A', null), variant('B', { kind: 'pool', pool_id: 'nope' })] }] },
    });
    expect(badPool.status).toBe(400);
    const put = await email.api('PUT', `/api/email/campaigns/${campaignId}/experiment`, {
      body: { holdout_percent: 30, steps: [{ template_id: templateId, variants: [variant('A', null), variant('B', { kind: 'pool', pool_id: pool.id })] }] },
    });
    expect(put.status).toBe(200);
    expect((put.body as { steps: { variants: { incentive: unknown }[] }[] }).steps[0]!.variants[1]!.incentive).toEqual({ kind: 'pool', pool_id: pool.id });

    const addresses = Array.from({ length: 16 }, (_, i) => `on.shopper${i}@example.com`);
    const checkout = (i: number) => `https://north-goods.example/checkouts/${i}?key=k${i}`;
    for (const [i, to] of addresses.entries()) expect((await post('links-on', `on-${i}`, to, checkout(i))).status).toBe(200);
    const logs = await waitFor(async () => {
      const l = (await logsOf(addresses)).filter((x) => x.status === 'sent' || x.status === 'held_out');
      return new Set(l.map((x) => x.email)).size === addresses.length ? l : null;
    }, { timeoutMs: 60_000, what: 'every shopper sent or held out' });
    const heldOut = logs.filter((l) => l.status === 'held_out').map((l) => l.email);
    const mailed = addresses.filter((a) => !heldOut.includes(a));
    expect(heldOut.length).toBeGreaterThan(0);
    for (const a of heldOut) expect(resend.emailsTo(a)).toEqual([]);

    const sent = mailed.map((to) => {
      const [mail] = resend.emailsTo(to);
      const href = hrefIn(mail!.html)!;
      expect(href).toMatch(new RegExp(`^${PUBLIC_URL.replace(/\./g, '\\.')}/r/e[A-Za-z0-9_-]{22}$`));
      expect(mail!.html).not.toContain('north-goods.example');
      const code = codeIn(mail!.html)!;
      // A gives the step's code created in Shopify, B a unique code from its pool.
      const v = /^VB-\d+$/.test(code) ? 'B' : 'A';
      return { to, i: addresses.indexOf(to), token: href.slice(`${PUBLIC_URL}/r/`.length), code, variant: v };
    });
    expect(new Set(sent.map((s) => s.variant))).toEqual(new Set(['A', 'B']));
    const bCodes = sent.filter((s) => s.variant === 'B').map((s) => s.code);
    expect(new Set(bCodes).size).toBe(bCodes.length);
    expect((await email.api('GET', `/api/email/incentive-pools/${pool.id}`)).body).toMatchObject({ remaining: 16 - bCodes.length });

    const client = await MongoClient.connect(MONGODB_URI);
    try {
      const rows = await client.db(email.db).collection('tracked_links').find({ template_id: templateId }).toArray();
      expect(new Set(rows.map((r) => r.token))).toEqual(new Set(sent.map((s) => s.token)));
    } finally {
      await client.close();
    }

    for (const s of sent) {
      const r = await click(s.token);
      expect(r.status).toBe(302);
      // A's code made in the shop, B's from its pool: both on a Shopify store's integration, both in the link.
      if (s.variant === 'A') expect(shopify.discounts.map((d) => d.code)).toContain(s.code);
      expect(r.headers.get('location')).toBe(`https://north-goods.example/discount/${s.code}?redirect=${encodeURIComponent(`/checkouts/${s.i}?key=k${s.i}`)}`);
    }
    const again = sent[0]!;
    expect((await click(again.token)).status).toBe(302);

    const unknown = await click('eAAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/text\/html/);
    expect(await unknown.text()).toContain('This link is not valid');

    const results = (await email.api('GET', `/api/email/campaigns/${campaignId}/results`)).body as CampaignResults;
    const step = results.steps.find((s) => s.template_id === templateId)!;
    for (const id of ['A', 'B']) {
      const group = step.variants.find((v) => v.id === id)!;
      const mine = sent.filter((s) => s.variant === id);
      expect(group.recipients).toBe(mine.length);
      expect(group.clicked).toBe(mine.length);
    }
    // The revenue funnel counts the contacts who clicked our link (each once, however often they opened it).
    const summary = (await email.api('GET', '/api/revenue/summary?days=1')).body as { funnel: { clicked: number } };
    expect(summary.funnel.clicked).toBe(sent.length);

    const contact = ((await email.api('GET', '/api/contacts')).body as { id: number; email: string }[]).find((c) => c.email === again.to)!;
    const part = (await email.api('GET', `/internal/timeline?contact=${contact.id}`)).body as TimelinePart;
    const clicks = part.entries.filter((e) => e.status === 'clicked');
    expect(clicks).toHaveLength(1);
    expect(clicks[0]).toMatchObject({ side: 'email', title: 'Email link clicked' });
    expect(clicks[0]!.detail).toContain('opened 2 times');
  });
});
