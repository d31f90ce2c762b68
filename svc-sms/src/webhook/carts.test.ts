import { readFileSync } from 'node:fs';
import path from 'node:path';
import { call, type ServiceProcess } from '@act/service-kit/testing';
import type { SmsContact } from '@act/contracts/src/sms-api';
import { randomUUID } from 'node:crypto';
import { dropDb, dropStream, publishEvent, smsTestEnv, startSms, waitFor, type SmsTestEnv } from '../test/helpers';

jest.setTimeout(120_000);

/** The documented Shopify checkout of the sources package (three line items). */
const checkout = (): Record<string, unknown> =>
  JSON.parse(
    readFileSync(
      path.join(__dirname, '../../../packages/sources/src/shopify/fixtures/checkouts-create.json'),
      'utf8',
    ),
  );

let t: SmsTestEnv;
let svc: ServiceProcess;
beforeAll(async () => {
  t = smsTestEnv('carts', null);
  svc = await startSms(t);
});
afterAll(async () => {
  await svc?.stop();
  await dropStream(t.natsPrefix);
  await dropDb(t.db);
});

const api = (method: string, p: string, body?: unknown) => call(svc.url, method, p, { body });
const deliver = (p: string, body: unknown, headers: Record<string, string> = {}) =>
  call(svc.url, 'POST', p, {
    raw: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
    user: null,
  });
const shopify = (topic: string, id: string) => ({ 'X-Shopify-Topic': topic, 'X-Shopify-Webhook-Id': id });

async function newIntegration(funnelId: string) {
  const r = await api('POST', '/api/sms-webhook-integrations', { name: `Shop ${funnelId}`, funnel_id: funnelId });
  expect(r.status).toBe(201);
  return { id: r.body.id as number, path: new URL(r.body.webhook_url).pathname };
}

async function contactOf(integrationId: number, contactId: string): Promise<SmsContact | undefined> {
  const r = await api('GET', '/api/sms-contacts');
  expect(r.status).toBe(200);
  return (r.body as SmsContact[]).find((c) => c.integration_id === integrationId && c.contact_id === contactId);
}

describe('the cart kept on the SMS contact', () => {
  it('a Shopify checkout with three line items becomes the stored cart; an older update does not replace it', async () => {
    const shop = await newIntegration('sms-cart-1');
    const r = await deliver(shop.path, checkout(), shopify('checkouts/create', 'sc-1'));
    expect(r.status).toBe(200);
    const token = 'b7e3c1a9d2f04e6c8a1b3d5f7e9c2a4b';
    const c = await contactOf(shop.id, token);
    expect(c?.cart).toMatchObject({ currency: 'CAD', total: 10170, discounts: 1000 });
    expect(c!.cart!.items.map((i) => [i.name, i.quantity, i.unit_price])).toEqual([
      ['Wool socks', 2, 3200],
      ['Merino beanie', 1, 2800],
      ['Gift wrap', 1, 800],
    ]);
    const link = c!.cart!.recovery_url;
    expect(link).toMatch(/^https:\/\//);
    // An older delivery arriving later names another checkout link: the text keeps the newer cart's link.
    const older = { ...checkout(), updated_at: '2026-11-20T14:00:00-05:00', line_items: [{ title: 'Old', quantity: 1 }], abandoned_checkout_url: 'https://shop.example/older-link' };
    expect((await deliver(shop.path, older, shopify('checkouts/update', 'sc-2'))).status).toBe(200);
    expect((await contactOf(shop.id, token))?.cart?.items).toHaveLength(3);
    const preview = await api('POST', '/api/sms-templates/preview', { message: 'Back: {checkout_url}', contact_id: c!.id });
    expect(preview.body.message).toBe(`Back: ${link}`);
    const newer = { ...checkout(), updated_at: '2026-11-20T14:09:00-05:00', line_items: [{ title: 'New', quantity: 3 }] };
    expect((await deliver(shop.path, newer, shopify('checkouts/update', 'sc-3'))).status).toBe(200);
    expect((await contactOf(shop.id, token))?.cart).toMatchObject({
      items: [{ name: 'New', quantity: 3 }],
      updated_at: '2026-11-20T19:09:00.000Z',
    });
  });

  it('bad cart fields are dropped with a note on the delivery, never a 500', async () => {
    const shop = await newIntegration('sms-cart-2');
    const body = {
      ...checkout(),
      token: 'sms-bad-1',
      currency: 'dollars',
      presentment_currency: null,
      abandoned_checkout_url: 'javascript:alert(1)',
      line_items: [{ title: '<img src=x onerror=alert(1)>', quantity: 1, price: '3.00' }],
    };
    const r = await deliver(shop.path, body, shopify('checkouts/create', 'sb-1'));
    expect(r.status).toBe(200);
    const c = await contactOf(shop.id, 'sms-bad-1');
    // Kept as text (escaping is the renderer's job); amounts without a known currency and the bad link are not.
    expect(c?.cart).toMatchObject({ currency: null, total: null, recovery_url: null });
    expect(c?.cart?.items[0]).toMatchObject({ name: '<img src=x onerror=alert(1)>', unit_price: null });
    const events = await api('GET', '/api/sms-webhook-events?page=1&pageSize=25');
    expect(events.body.items[0].verification_reason).toContain(
      'Cart: the currency is not an ISO 4217 code; amounts dropped',
    );
    expect(events.body.items[0].verification_reason).toContain('Cart: the recovery URL is not an http(s) URL; dropped');
  });

  it('the spec’s format with amount and currency gives a total-only cart', async () => {
    const shop = await newIntegration('sms-cart-3');
    const r = await deliver(shop.path, {
      event: 'contact_created',
      contact: { id: 'sg-1', phone: '+14155550177', amount: '19.99', currency: 'EUR' },
    });
    expect(r.status).toBe(200);
    expect((await contactOf(shop.id, 'sg-1'))?.cart).toMatchObject({ items: [], total: 1999, currency: 'EUR' });
  });

  it('a contact fact from the email side keeps its cart and hold here; an older cart from it does not replace a newer one', async () => {
    const shop = await newIntegration('sms-cart-4');
    const fact = (contactId: string, cart: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      eventId: randomUUID(),
      source: 'svc-email',
      occurredAt: new Date().toISOString(),
      funnelId: 'sms-cart-4',
      contactId,
      email: 'from.email@example.com',
      phone: '+14155550199',
      createdAt: new Date().toISOString(),
      cart,
      ...extra,
    });
    const cart = {
      items: [{ name: 'Wool socks', variant: 'Grey / M', quantity: 2, unit_price: 3200, line_total: 6400, product_url: null, image_url: null, sku: 'WS-GR-M' }],
      more_items: 0,
      subtotal: 6400,
      discounts: null,
      total: 6400,
      currency: 'CAD',
      recovery_url: 'https://shop.example.com/recover/e-1',
      recovery_expires_at: null,
      updated_at: '2026-11-21T10:00:00.000Z',
      updated_at_source: 'sender',
    };
    await publishEvent(t.natsPrefix, 'funnel.contact.created', fact('from-email-1', cart, { remindersHeld: 'held for a reason' }));
    const kept = await waitFor(async () => (await contactOf(shop.id, 'from-email-1'))?.cart ?? null, 10_000);
    expect(kept).toEqual(cart);
    expect((await contactOf(shop.id, 'from-email-1'))?.reminders_held).toBe('held for a reason');
    // A hostile cart is read through the same limits: the bad link is dropped, the rest kept.
    await publishEvent(t.natsPrefix, 'funnel.contact.created', fact('from-email-1', { ...cart, updated_at: '2026-11-21T09:00:00.000Z', total: 1 }));
    await publishEvent(t.natsPrefix, 'funnel.contact.created', fact('from-email-2', { ...cart, recovery_url: 'javascript:alert(1)' }));
    const second = await waitFor(async () => (await contactOf(shop.id, 'from-email-2'))?.cart ?? null, 10_000);
    expect(second).toMatchObject({ recovery_url: null, total: 6400 });
    expect((await contactOf(shop.id, 'from-email-1'))?.cart?.total).toBe(6400);
  });
});
