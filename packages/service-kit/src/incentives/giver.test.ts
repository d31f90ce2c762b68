// The incentive giver against the MongoDB stand-in and the fake shops: a pool's codes handed out once across two
// givers (two instances), a retry given the same code, an empty pool said so; a Shopify code created once when the
// first answer is a 5xx, a THROTTLED answer waited out as documented; WooCommerce coupons once per (contact, step).
import mongoose from 'mongoose';
import { startFakeShopifyAdmin, startFakeWooCommerce, type FakeShopifyAdmin, type FakeWooCommerce } from '@act/testing';
import { testDbName } from '../testing';
import { createSecretBox } from '../secret-box';
import { createLogger } from '../logger';
import { incentiveModels, initIncentiveModels } from './model';
import { IncentivePools, codesFromCsv, LOW_POOL } from './pools';
import { IncentiveGiver, type IncentiveTarget } from './giver';
import { ShopCredentials } from './credentials';
import { IncentiveRedemptions } from './redemptions';
import { ShopifyCodeCreator, throttleWaitMs } from './shopify/admin-api';
import { WooCommerceCouponCreator } from './woocommerce/rest-api';
import { applyCodeToRecoveryUrl } from './recovery-link';

let conn: mongoose.Connection;
let shopify: FakeShopifyAdmin;
let woo: FakeWooCommerce;
const box = createSecretBox('incentive-test-key');
const logger = createLogger('incentives-test');

beforeAll(async () => {
  conn = await mongoose.createConnection(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017', { dbName: testDbName('kit_incentives') }).asPromise();
  await initIncentiveModels(conn);
  [shopify, woo] = await Promise.all([startFakeShopifyAdmin(), startFakeWooCommerce()]);
});
afterAll(async () => {
  await conn?.dropDatabase().catch(() => undefined);
  await conn?.close();
  await shopify?.close();
  await woo?.close();
});

function giver(waits: number[] = []) {
  const models = incentiveModels(conn);
  return new IncentiveGiver({
    models,
    pools: new IncentivePools(models),
    box,
    logger,
    creatorFor: (c, key, secret) =>
      c.platform === 'shopify'
        ? new ShopifyCodeCreator(c.shop, key, { wait: async (ms) => void waits.push(ms) })
        : new WooCommerceCouponCreator(c.shop, key, secret ?? ''),
  });
}

describe('code pools', () => {
  it('reads a CSV: header left out, blanks and repeats dropped, a bad code refused with its line', () => {
    expect(codesFromCsv('code\nAAA-1\n\nBBB_2,unused column\nAAA-1\n"CCC3"\n')).toEqual(['AAA-1', 'BBB_2', 'CCC3']);
    expect(() => codesFromCsv('code\nOK1\nnot ok!\n')).toThrow('Line 3: "not ok!"');
    expect(() => codesFromCsv('code\n')).toThrow('The CSV holds no codes');
  });

  it('gives 5 shoppers 5 different codes from a 5-code pool across two instances, a retry the same, a sixth none', async () => {
    const pools = new IncentivePools(incentiveModels(conn));
    const pool = await pools.create('Five', 'code\nP-1\nP-2\nP-3\nP-4\nP-5\n');
    expect(pool).toMatchObject({ total: 5, remaining: 5, low: 5 < LOW_POOL });
    const target = (ref: number): IncentiveTarget => ({ contact_ref: ref, step_key: 'email-template:1', integration_id: 1, incentive: { kind: 'pool', pool_id: pool.id } });
    // Two instances at once, each with its own giver.
    const [a, b] = await Promise.all([giver().give([1, 2, 3].map(target)), giver().give([4, 5].map(target))]);
    const codes = [...a, ...b].map((r) => r.code);
    expect(new Set(codes).size).toBe(5);
    expect(codes.sort()).toEqual(['P-1', 'P-2', 'P-3', 'P-4', 'P-5']);
    // A retried send of contact 2's step: the same code, nothing more taken.
    const again = await giver().give([target(2)]);
    expect(again[0]!.code).toBe(a[1]!.code);
    const sixth = await giver().give([target(6)]);
    expect(sixth[0]).toEqual({ code: null, note: 'sent without a code: the code pool is empty' });
    expect(await pools.remaining(pool.id)).toBe(0);
    // Another step of the same contact is another claim.
    expect((await pools.get(pool.id)).remaining).toBe(0);
  });
});

describe('pool claims by place', () => {
  const owners = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `${from + i}:email-template:5`);

  it('two instances claiming at once, some owners on both: no code given twice, an owner one code, a retry the same', async () => {
    // A second connection: another instance's driver, not the same pool of sockets.
    const other = await mongoose.createConnection(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017', { dbName: conn.name }).asPromise();
    try {
      const a = new IncentivePools(incentiveModels(conn));
      const b = new IncentivePools(incentiveModels(other));
      const csv = `code\n${Array.from({ length: 100 }, (_, i) => `T-${i}`).join('\n')}\n`;
      const pool = await a.create('Twins', csv);
      // 30 owners on both instances at once, 20 more on one each.
      const both = owners(30);
      const [onA, onB, onlyA, onlyB] = await Promise.all([
        Promise.all(both.map((o) => a.claim(pool.id, o))),
        Promise.all(both.map((o) => b.claim(pool.id, o))),
        Promise.all(owners(10, 30).map((o) => a.claim(pool.id, o))),
        Promise.all(owners(10, 40).map((o) => b.claim(pool.id, o))),
      ]);
      expect(onB).toEqual(onA);
      const firstOwners = [...both, ...owners(10, 30), ...owners(10, 40)];
      const firstCodes = [...onA, ...onlyA, ...onlyB];
      expect(firstCodes.every((c) => c !== null)).toBe(true);
      expect(new Set(firstCodes).size).toBe(50);
      // Retries, on either instance, are given what they were given.
      expect(await Promise.all(both.slice(0, 5).map((o) => b.claim(pool.id, o)))).toEqual(onA.slice(0, 5));
      expect(await Promise.all(owners(5, 30).map((o) => b.claim(pool.id, o)))).toEqual(onlyA.slice(0, 5));
      // An owner's own race may skip a place (never given); the rest is drained by others, then the pool is empty.
      const left = await a.remaining(pool.id);
      expect(left).toBeGreaterThanOrEqual(20);
      expect(left).toBeLessThanOrEqual(50);
      const later = await Promise.all([...owners(left + 5, 100)].map((o, i) => (i % 2 ? a : b).claim(pool.id, o)));
      const laterCodes = later.filter((c) => c !== null);
      expect(laterCodes).toHaveLength(left);
      expect(new Set([...firstCodes, ...laterCodes]).size).toBe(50 + left);
      expect(await a.remaining(pool.id)).toBe(0);
      expect((await b.get(pool.id)).remaining).toBe(0);
      // The pool's rows say the same: each given code is its owner's.
      const rows = await incentiveModels(conn).Code.collection.find({ pool_id: pool.id }).toArray();
      const ownerOf = new Map(rows.map((r) => [r.code as string, r.owner as string | null]));
      expect(firstOwners.every((o, i) => ownerOf.get(firstCodes[i]!) === o)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('a crash after the place was recorded: the retry takes the code at that place; after the counter only: one code skipped', async () => {
    const m = incentiveModels(conn);
    const pools = new IncentivePools(m);
    const pool = await pools.create('Crashes', 'code\nK-0\nK-1\nK-2\nK-3\n');
    const _id = new mongoose.Types.ObjectId(pool.id);
    // An instance moved the counter and recorded place 0 for its owner, then stopped before taking the code.
    await m.Pool.collection.updateOne({ _id }, { $inc: { left: -1, next_seq: 1 } });
    await m.Claim.collection.insertOne({ pool_id: pool.id, owner: '1:sms-template:1', seq: 0, claimed_at: new Date() });
    expect(await pools.claim(pool.id, '1:sms-template:1')).toBe('K-0');
    // Another moved the counter and stopped: place 1 is nobody's, and no longer counted.
    await m.Pool.collection.updateOne({ _id }, { $inc: { left: -1, next_seq: 1 } });
    expect(await pools.remaining(pool.id)).toBe(2);
    expect(await pools.claim(pool.id, '2:sms-template:1')).toBe('K-2');
    expect(await pools.claim(pool.id, '1:sms-template:1')).toBe('K-0');
    // A code taken by an instance that claims by owner: the place's claim moves on to the next code.
    await m.Code.collection.updateOne({ pool_id: pool.id, code: 'K-3' }, { $set: { owner: '7:sms-template:1', claimed_at: new Date() } });
    expect(await pools.claim(pool.id, '3:sms-template:1')).toBeNull();
    expect(await pools.remaining(pool.id)).toBe(0);
  });

  it('a burst claims together: one counter move for its owners, distinct codes on two instances at once, a retry the same', async () => {
    const other = await mongoose.createConnection(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017', { dbName: conn.name }).asPromise();
    try {
      const m = incentiveModels(conn);
      const a = new IncentivePools(m);
      const b = new IncentivePools(incentiveModels(other));
      const pool = await a.create('Bursts', `code\n${Array.from({ length: 60 }, (_, i) => `B-${i}`).join('\n')}\n`);
      const counterMoves = jest.spyOn(m.Pool.collection, 'findOneAndUpdate');
      // Two bursts of 25 on two instances at once, and the first burst again (a retried send of each).
      const [onA, onB] = await Promise.all([a.claimMany(pool.id, owners(25)), b.claimMany(pool.id, owners(25, 25))]);
      expect(counterMoves).toHaveBeenCalledTimes(1); // instance a's burst: one move for its 25 owners
      const given = [...onA.values(), ...onB.values()];
      expect(given.every((c) => c !== null)).toBe(true);
      expect(new Set(given).size).toBe(50);
      expect(await b.claimMany(pool.id, owners(25))).toEqual(onA);
      expect(await a.remaining(pool.id)).toBe(10);
      // A burst larger than what is left: one owner at a time, until the pool is empty.
      const last = await a.claimMany(pool.id, owners(15, 50));
      const lastCodes = [...last.values()].filter((c) => c !== null);
      expect(lastCodes).toHaveLength(10);
      expect(new Set([...given, ...lastCodes]).size).toBe(60);
      expect(await a.remaining(pool.id)).toBe(0);
      // The rows agree: each code given is its owner's.
      const rows = await m.Code.collection.find({ pool_id: pool.id }).toArray();
      const ownerOf = new Map(rows.map((r) => [r.code as string, r.owner as string | null]));
      for (const claims of [onA, onB, last]) for (const [owner, code] of claims) if (code) expect(ownerOf.get(code)).toBe(owner);
    } finally {
      await other.close();
    }
  });

  it('a burst with an owner who holds a place already (a crash before its grant): it keeps that code, the place reserved for it is skipped', async () => {
    const m = incentiveModels(conn);
    const pools = new IncentivePools(m);
    const pool = await pools.create('Burst crash', 'code\nC-0\nC-1\nC-2\nC-3\nC-4\n');
    // An earlier attempt for owner 0 took place 0 and its code, then stopped before writing its grant.
    expect(await pools.claim(pool.id, owners(1)[0]!)).toBe('C-0');
    const burst = await pools.claimMany(pool.id, owners(3));
    expect(burst.get(owners(1)[0]!)).toBe('C-0');
    // Places 1-3 were reserved for the three; owner 0's (place 1) is nobody's, owners 1 and 2 have places 2 and 3.
    expect([...burst.values()]).toEqual(['C-0', 'C-2', 'C-3']);
    expect(await pools.remaining(pool.id)).toBe(1);
    // Two owners for the one code left: one at a time (at once), one of them gets it.
    const lastTwo = await pools.claimMany(pool.id, owners(2, 10));
    expect([...lastTwo.values()].sort()).toEqual(['C-4', null]);
  });

  it('a pool uploaded before places is claimed by owner, once each, a retry the same', async () => {
    const m = incentiveModels(conn);
    const pools = new IncentivePools(m);
    const _id = new mongoose.Types.ObjectId();
    await m.Code.collection.insertOne({ pool_id: String(_id), code: 'OLD-1', owner: null, claimed_at: null });
    await m.Pool.collection.insertOne({ _id, name: 'Before places', total: 1, created_at: new Date() });
    expect((await pools.get(String(_id))).remaining).toBe(1);
    expect(await pools.claim(String(_id), '1:email-template:8')).toBe('OLD-1');
    expect(await pools.claim(String(_id), '1:email-template:8')).toBe('OLD-1');
    expect(await pools.claim(String(_id), '2:email-template:8')).toBeNull();
    expect(await pools.remaining(String(_id))).toBe(0);
  });
});

describe('codes created in the shop', () => {
  it('Shopify: a code created once though the first answer was a 5xx after creating it; the input as documented', async () => {
    const creds = new ShopCredentials(incentiveModels(conn), box);
    const status = await creds.set(7, { platform: 'shopify', shop: shopify.url, key: shopify.token }, { allowHttp: true });
    expect(status).toEqual({ platform: 'shopify', shop: shopify.url, has_key: true, has_secret: false });
    const stored = await incentiveModels(conn).Credentials.findOne({ integration_id: 7 }).lean();
    expect(stored!.key_sealed).not.toContain(shopify.token);

    const target: IncentiveTarget = { contact_ref: 70, step_key: 'email-template:3', integration_id: 7, incentive: { kind: 'shopify', discount: 'percentage', value: 15, days: 7 } };
    shopify.failNext(1, 502, { afterCreate: true });
    const first = await giver().give([target]);
    expect(first[0]).toMatchObject({ code: null, retry: true });
    expect(shopify.discounts).toHaveLength(1);
    const second = await giver().give([target]);
    expect(second[0]).toMatchObject({ code: shopify.discounts[0]!.code, platform: 'shopify', note: null });
    expect(shopify.discounts).toHaveLength(1);
    const third = await giver().give([target]);
    expect(third[0]!.code).toBe(second[0]!.code);
    expect(shopify.calls).toHaveLength(2);
    const d = shopify.discounts[0]!;
    expect(d).toMatchObject({ usageLimit: 1, appliesOncePerCustomer: true, customerGets: { value: { percentage: 0.15 }, items: { all: true } } });
    expect(Date.parse(d.endsAt!) - Date.parse(d.startsAt)).toBe(7 * 86_400_000);
  });

  it('Shopify: a THROTTLED answer is waited out for the documented time (points lacking / restore rate) and retried', async () => {
    const waits: number[] = [];
    const target: IncentiveTarget = { contact_ref: 71, step_key: 'email-template:3', integration_id: 7, incentive: { kind: 'shopify', discount: 'amount', value: 5, days: 3 } };
    shopify.throttleNext(1, { available: 2, restoreRate: 4 });
    const before = shopify.calls.length;
    const [r] = await giver(waits).give([target]);
    expect(r!.code).toMatch(/^CART-[A-Z0-9]{10}$/);
    // (10 requested - 2 available) / 4 points a second = 2 s.
    expect(waits).toEqual([2_000]);
    expect(shopify.calls.slice(before).map((c) => c.throttled)).toEqual([true, false]);
    expect(shopify.discounts.find((x) => x.code === r!.code)!.customerGets).toMatchObject({ value: { discountAmount: { amount: '5.00', appliesOnEachItem: false } } });
    expect(throttleWaitMs({})).toBe(1_000);
  });

  it('WooCommerce: a single-use coupon once per (contact, step), a 5xx retried with the same code; no credentials, no code', async () => {
    const creds = new ShopCredentials(incentiveModels(conn), box);
    await creds.set(8, { platform: 'woocommerce', shop: woo.url, key: woo.key, secret: woo.secret }, { allowHttp: true });
    await expect(creds.set(9, { platform: 'woocommerce', shop: 'http://shop.example.com', key: 'k', secret: 's' })).rejects.toThrow('https://');
    const target: IncentiveTarget = { contact_ref: 80, step_key: 'sms-template:2', integration_id: 8, incentive: { kind: 'woocommerce', discount: 'percentage', value: 10, days: 5 } };
    woo.failNext(1, 500);
    expect((await giver().give([target]))[0]).toMatchObject({ code: null, retry: true });
    const [r] = await giver().give([target]);
    expect(woo.coupons).toHaveLength(1);
    expect(woo.coupons[0]).toMatchObject({ code: r!.code!.toLowerCase(), discount_type: 'percent', amount: '10.00', usage_limit: 1, usage_limit_per_user: 1 });
    await giver().give([target]);
    expect(woo.coupons).toHaveLength(1);
    const none = await giver().give([{ ...target, contact_ref: 81, integration_id: 99 }]);
    expect(none[0]).toEqual({ code: null, note: 'sent without a code: the integration holds no WooCommerce credentials' });
  });
});

describe('redemptions and links', () => {
  it('a purchase with the code marks it redeemed; revenue per step counts it with its discount and the order’s amount', async () => {
    const target: IncentiveTarget = { contact_ref: 90, step_key: 'email-template:9', integration_id: null, incentive: { kind: 'fixed', code: 'SAVE10' } };
    await giver().give([target, { ...target, contact_ref: 91 }]);
    const red = IncentiveRedemptions.of(incentiveModels(conn));
    expect(await red.redeem(90, [{ code: 'save10', discount_minor: 1_250 }], 'EUR', 'order-1', new Date(), 9_900)).toBe(1);
    expect(await red.redeem(92, [{ code: 'SAVE10', discount_minor: 100 }], 'EUR', 'order-2')).toBe(0);
    const step = (await red.perStep()).find((s) => s.step_key === 'email-template:9');
    expect(step).toEqual({ step_key: 'email-template:9', given: 2, redeemed: 1, discount: [{ currency: 'EUR', minor: 1_250 }], revenue: [{ currency: 'EUR', minor: 9_900 }] });
  });

  it('gives a fixed or pool code on a Shopify store for its link (the grant keeps it); elsewhere the code stays in the text', async () => {
    const creds = new ShopCredentials(incentiveModels(conn), box);
    await creds.set(21, { platform: 'shopify', shop: shopify.url, key: shopify.token }, { allowHttp: true });
    const pool = await new IncentivePools(incentiveModels(conn)).create('Shop pool', 'code\nSP-1\nSP-2\n');
    const on = (integration_id: number, ref: number, incentive: IncentiveTarget['incentive']): IncentiveTarget => ({ contact_ref: ref, step_key: 'email-template:21', integration_id, incentive });
    const [fixed, pooled, elsewhere] = await giver().give([on(21, 301, { kind: 'fixed', code: 'WELCOME10' }), on(21, 302, { kind: 'pool', pool_id: pool.id }), on(22, 303, { kind: 'pool', pool_id: pool.id })]);
    expect(fixed).toEqual({ code: 'WELCOME10', note: null, platform: 'shopify' });
    expect(pooled).toMatchObject({ note: null, platform: 'shopify' });
    expect(elsewhere!.platform).toBeUndefined();
    expect(new Set([pooled!.code, elsewhere!.code])).toEqual(new Set(['SP-1', 'SP-2']));
    // A retried send reads the same, and so does the check of an interrupted SMS send.
    expect((await giver().give([on(21, 302, { kind: 'pool', pool_id: pool.id })]))[0]).toEqual(pooled);
    expect(await giver().given(302, 'email-template:21')).toEqual({ code: pooled!.code, platform: 'shopify' });
    expect(await giver().given(303, 'email-template:21')).toEqual({ code: elsewhere!.code, platform: null });
  });

  it('applies a Shopify code in the recovery link; other shops keep their link', () => {
    expect(applyCodeToRecoveryUrl('https://shop.myshopify.com/123/checkouts/abc?key=k1', 'CART-X', 'shopify')).toBe(
      'https://shop.myshopify.com/discount/CART-X?redirect=%2F123%2Fcheckouts%2Fabc%3Fkey%3Dk1',
    );
    expect(applyCodeToRecoveryUrl('https://store.example.com/checkout/order-pay/5?key=wc', 'C1', 'woocommerce')).toBe(
      'https://store.example.com/checkout/order-pay/5?key=wc',
    );
  });
});
