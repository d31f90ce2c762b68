import { MongoClient, type Collection } from 'mongodb';
import type { Cart } from '@act/contracts/src/cart';
import { CART_VERSION_INDEX, CartStore } from './cart-store';

// The store against the MongoDB stand-in that infra/scripts/test.mjs provides, with both unique indexes the services
// declare on their contacts.
let client: MongoClient;
let contacts: Collection;
let store: CartStore;

const cartAt = (iso: string, total: number): Cart =>
  ({
    currency: 'EUR',
    items: [],
    subtotal: total,
    discounts: null,
    total,
    recovery_url: null,
    recovery_expires_at: null,
    updated_at: iso,
    updated_at_source: 'sender',
  }) as unknown as Cart;

beforeAll(async () => {
  client = await MongoClient.connect(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017');
  contacts = client.db(`sources_cart_store_${process.pid}_${Date.now().toString(36)}`).collection('contacts');
  await contacts.createIndex({ integration_id: 1, contact_id: 1 }, { unique: true });
  await contacts.createIndex(CART_VERSION_INDEX.key, { unique: true, name: CART_VERSION_INDEX.name });
  store = new CartStore(contacts as never);
});

afterAll(async () => {
  await contacts.db.dropDatabase();
  await client.close();
});

describe('CartStore.keep', () => {
  it('takes a first cart, then only a newer one: an equal time (a retry) or an older one changes nothing', async () => {
    await contacts.insertOne({ integration_id: 1, contact_id: 'c-order' });
    expect(await store.keep(1, 'c-order', cartAt('2026-11-20T10:00:00.000Z', 100))).toBe(true);
    expect(await store.keep(1, 'c-order', cartAt('2026-11-20T10:00:00.000Z', 999))).toBe(false);
    expect(await store.keep(1, 'c-order', cartAt('2026-11-20T09:59:59.000Z', 50))).toBe(false);
    expect((await contacts.findOne({ contact_id: 'c-order' }))?.cart).toMatchObject({ total: 100 });
    expect(await store.keep(1, 'c-order', cartAt('2026-11-20T10:00:01.000Z', 200))).toBe(true);
    expect((await contacts.findOne({ contact_id: 'c-order' }))?.cart).toMatchObject({ total: 200 });
  });

  it('a newer cart without a checkout link keeps the link the contact has; one with a link replaces it', async () => {
    await contacts.insertOne({ integration_id: 3, contact_id: 'c-link' });
    const linked = (iso: string, total: number, url: string) => ({ ...cartAt(iso, total), recovery_url: url, recovery_expires_at: '2026-12-20T10:00:00.000Z' }) as Cart;
    expect(await store.keep(3, 'c-link', linked('2026-11-20T10:00:00.000Z', 100, 'https://shop.example.com/c/1'))).toBe(true);
    expect(await store.keep(3, 'c-link', cartAt('2026-11-20T10:01:00.000Z', 150))).toBe(true);
    expect((await contacts.findOne({ contact_id: 'c-link' }))?.cart).toMatchObject({
      total: 150,
      recovery_url: 'https://shop.example.com/c/1',
      recovery_expires_at: '2026-12-20T10:00:00.000Z',
    });
    expect(await store.keep(3, 'c-link', linked('2026-11-20T10:02:00.000Z', 175, 'https://shop.example.com/c/2'))).toBe(true);
    expect((await contacts.findOne({ contact_id: 'c-link' }))?.cart).toMatchObject({ total: 175, recovery_url: 'https://shop.example.com/c/2' });
  });

  it('a contact that is not there takes nothing', async () => {
    expect(await store.keep(1, 'c-absent', cartAt('2026-11-20T10:00:00.000Z', 100))).toBe(false);
    expect(await contacts.countDocuments({ contact_id: 'c-absent' })).toBe(0);
  });

  it('carts offered at once in any order leave the newest stored (the compare-and-set goes round again)', async () => {
    await contacts.insertOne({ integration_id: 2, contact_id: 'c-race' });
    const minutes = Array.from({ length: 12 }, (_, i) => i);
    const shuffled = [...minutes].sort(() => Math.random() - 0.5);
    const carts = shuffled.map((m) => cartAt(`2026-11-20T10:${String(m).padStart(2, '0')}:00.000Z`, 100 + m));
    const took = await Promise.all(carts.map((c) => store.keep(2, 'c-race', c)));
    expect(took.some(Boolean)).toBe(true);
    expect((await contacts.findOne({ contact_id: 'c-race' }))?.cart).toMatchObject({ updated_at: '2026-11-20T10:11:00.000Z', total: 111 });
  });
});
