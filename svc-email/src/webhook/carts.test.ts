import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Contact } from '@act/contracts/src/email-api';
import { randomUUID } from 'node:crypto';
import { dropDb, natsConnect, startEmail, waitFor, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

/** The documented Shopify checkout of the sources package (three line items). */
const checkout = (): Record<string, unknown> =>
  JSON.parse(
    readFileSync(
      path.join(__dirname, '../../../packages/sources/src/shopify/fixtures/checkouts-create.json'),
      'utf8',
    ),
  );

let email: EmailUnderTest;
beforeAll(async () => {
  email = await startEmail('carts');
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await email?.svc.stop();
  if (email) await dropDb(email.db);
});

const admin = (method: string, p: string, body?: unknown) => email.api(method, p, { body });
const deliver = (p: string, body: unknown, headers: Record<string, string> = {}) =>
  email.api('POST', p, {
    raw: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
    user: null,
  });
const shopify = (topic: string, id: string) => ({ 'X-Shopify-Topic': topic, 'X-Shopify-Webhook-Id': id });

async function newIntegration(funnelId: string) {
  const r = await admin('POST', '/api/webhook-integrations', { name: `Shop ${funnelId}`, funnel_id: funnelId });
  expect(r.status).toBe(201);
  const list = await admin('GET', '/api/webhook-integrations');
  const found = list.body.find((i: { id: number }) => i.id === r.body.id);
  return { id: r.body.id as number, path: new URL(found.webhook_url).pathname };
}

async function contactOf(integrationId: number, contactId: string): Promise<Contact | undefined> {
  const r = await admin('GET', `/api/contacts?page=1&pageSize=100&integration_id=${integrationId}`);
  expect(r.status).toBe(200);
  return (r.body.items as Contact[]).find((c) => c.contact_id === contactId);
}

describe('the cart kept on the email contact', () => {
  it('a Shopify checkouts/create with three line items becomes the stored cart, in minor units', async () => {
    const shop = await newIntegration('cart-shop-1');
    const r = await deliver(shop.path, checkout(), shopify('checkouts/create', 'cart-1'));
    expect(r.status).toBe(200);
    const c = await contactOf(shop.id, 'b7e3c1a9d2f04e6c8a1b3d5f7e9c2a4b');
    expect(c?.cart).toMatchObject({
      currency: 'CAD',
      subtotal: 10000,
      discounts: 1000,
      total: 10170,
      more_items: 0,
      updated_at: '2026-11-20T19:03:40.000Z',
    });
    expect(c!.cart!.items.map((i) => [i.name, i.variant, i.quantity, i.unit_price, i.line_total, i.sku])).toEqual([
      ['Wool socks', 'Grey / M', 2, 3200, 6400, 'WS-GR-M'],
      ['Merino beanie', 'Charcoal', 1, 2800, 2800, 'MB-CH'],
      ['Gift wrap', null, 1, 800, 800, null],
    ]);
  });

  it('a later update replaces the cart only when the sender says it is newer, whatever the arrival order', async () => {
    const shop = await newIntegration('cart-shop-2');
    const token = 'cart-order-token-1';
    const at = (updatedAt: string, title: string) => ({
      ...checkout(),
      token,
      updated_at: updatedAt,
      line_items: [{ title, quantity: 1, price: '5.00', line_price: '5.00' }],
      total_price: '5.00',
    });
    await deliver(shop.path, at('2026-11-21T10:00:00Z', 'Second'), shopify('checkouts/create', 'o-1'));
    // Delivered after, changed before: kept out.
    const older = await deliver(shop.path, at('2026-11-21T09:00:00Z', 'First'), shopify('checkouts/update', 'o-2'));
    expect(older.status).toBe(200);
    expect((await contactOf(shop.id, token))?.cart?.items[0].name).toBe('Second');
    await deliver(shop.path, at('2026-11-21T11:00:00Z', 'Third'), shopify('checkouts/update', 'o-3'));
    expect((await contactOf(shop.id, token))?.cart).toMatchObject({
      items: [{ name: 'Third' }],
      updated_at: '2026-11-21T11:00:00.000Z',
    });
  });

  it('bad cart fields are dropped with a note on the delivery; the contact and the rest of the cart are kept', async () => {
    const shop = await newIntegration('cart-shop-3');
    const body = {
      ...checkout(),
      token: 'cart-bad-1',
      line_items: [
        { title: 'Good', quantity: 1, price: '3.00' },
        { title: 'No quantity', quantity: -2, price: '3.00' },
        { title: '', quantity: 1 },
        ...Array.from({ length: 110 }, (_, i) => ({ title: `Filler ${i}`, quantity: 1, price: 'free' })),
      ],
      abandoned_checkout_url: 'https://shop.example.com/recover/bad-1',
      total_price: { $gt: 1 },
    };
    const r = await deliver(shop.path, body, shopify('checkouts/create', 'bad-1'));
    expect(r.status).toBe(200);
    const c = await contactOf(shop.id, 'cart-bad-1');
    expect(c?.cart?.items[0]).toMatchObject({ name: 'Good', unit_price: 300 });
    expect(c?.cart?.items).toHaveLength(98);
    expect(c?.cart?.more_items).toBe(13);
    expect(c?.cart?.total).toBeNull();
    const events = await admin('GET', '/api/webhook-events?page=1&pageSize=5');
    const row = events.body.items[0];
    expect(row.outcome).toBe('created');
    expect(row.verification_reason).toContain('Cart: item 2 has no valid quantity; dropped');
    expect(row.verification_reason).toContain('Cart: item 3 has no name; dropped');
    expect(row.verification_reason).toContain('Cart: 13 items beyond the first 100 dropped');
  });

  it('the spec’s formats with amount and currency give a total-only cart', async () => {
    const shop = await newIntegration('cart-shop-4');
    const r = await deliver(shop.path, {
      event: 'contact_created',
      contact: {
        id: 'gen-cart-1',
        email: 'gen.cart@example.com',
        amount: 49.5,
        currency: 'usd',
        checkout_url: 'https://shop.example.com/c/gen-cart-1',
      },
    });
    expect(r.status).toBe(200);
    expect((await contactOf(shop.id, 'gen-cart-1'))?.cart).toMatchObject({
      items: [],
      total: 4950,
      currency: 'USD',
      recovery_url: 'https://shop.example.com/c/gen-cart-1',
      updated_at_source: 'received',
    });
    const legacy = await deliver(shop.path, {
      event_type: 'contact_created',
      contact_id: 'gen-cart-2',
      email: 'gen.cart2@example.com',
      amount: '1200',
      currency: 'JPY',
    });
    expect(legacy.status).toBe(200);
    expect((await contactOf(shop.id, 'gen-cart-2'))?.cart).toMatchObject({ total: 1200, currency: 'JPY' });
    // Without amount or link, no cart.
    await deliver(shop.path, { event: 'contact_created', contact: { id: 'gen-cart-3', email: 'g3@example.com' } });
    expect((await contactOf(shop.id, 'gen-cart-3'))?.cart).toBeNull();
  });

  it('the cart travels with the fact both ways: published to the SMS side, and kept from the SMS side’s fact', async () => {
    const shop = await newIntegration('cart-shop-5');
    const nc = await natsConnect();
    try {
      const r = await deliver(shop.path, { ...checkout(), token: 'cart-travel-1' }, shopify('checkouts/create', 'tr-1'));
      expect(r.status).toBe(200);
      const jsm = await nc.jetstreamManager();
      const published = await waitFor(
        async () => {
          const m = await jsm.streams
            .getMessage(`${email.prefix}FUNNEL`, { last_by_subj: `${email.prefix}funnel.contact.created` })
            .catch(() => null);
          const body = m ? (JSON.parse(new TextDecoder().decode(m.data)) as { contactId: string; cart?: { total: number } }) : null;
          return body?.contactId === 'cart-travel-1' ? body : null;
        },
        { what: 'the published contact fact' },
      );
      expect(published.cart).toMatchObject({ total: 10170, currency: 'CAD', items: [{ name: 'Wool socks' }, {}, {}] });

      // The SMS side's fact of a contact of this funnel, with its cart and a hold.
      const cart = { ...published.cart, items: [], total: 555, updated_at: '2026-11-22T10:00:00.000Z' };
      await nc.jetstream().publish(
        `${email.prefix}funnel.contact.created`,
        JSON.stringify({
          eventId: randomUUID(),
          source: 'svc-sms',
          occurredAt: new Date().toISOString(),
          funnelId: 'cart-shop-5',
          contactId: 'from-sms-1',
          email: 'from.sms@example.com',
          phone: '+14155550166',
          createdAt: new Date().toISOString(),
          cart,
          remindersHeld: 'The shopper declined promotional messages at checkout',
        }),
      );
      const c = await waitFor(async () => (await contactOf(shop.id, 'from-sms-1'))?.cart ?? null, { what: 'the cart from the SMS side' });
      expect(c).toMatchObject({ total: 555, currency: 'CAD', updated_at: '2026-11-22T10:00:00.000Z' });
      expect((await contactOf(shop.id, 'from-sms-1'))?.reminders_held).toBe('The shopper declined promotional messages at checkout');
    } finally {
      await nc.close();
    }
  });
});
