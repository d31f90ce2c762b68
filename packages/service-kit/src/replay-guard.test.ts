// The replay guard's expiry: its TTL index as the stand-in holds it after init, and a claim past the retention
// period no longer refuses the delivery though MongoDB's TTL monitor has not removed it yet.
import mongoose from 'mongoose';
import { ReplayGuard } from './replay-guard';
import { testDbName } from './testing';

const DAY = 86_400_000;
let conn: mongoose.Connection;
beforeAll(async () => {
  conn = await mongoose.createConnection(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017', { dbName: testDbName('kit_replay') }).asPromise();
});
afterAll(async () => {
  await conn?.dropDatabase().catch(() => undefined);
  await conn?.close();
});

describe('ReplayGuard', () => {
  it('declares its TTL index with the retention period', async () => {
    await new ReplayGuard(conn, 'deliveries_ttl', 12).init();
    const indexes = await conn.db!.collection('deliveries_ttl').indexes();
    expect(indexes.find((i) => i.name === 'received_at_ttl')).toMatchObject({ key: { received_at: 1 }, expireAfterSeconds: 12 * 86_400 });
    expect(indexes.find((i) => i.name === 'integration_delivery_unique')).toMatchObject({ unique: true });
  });

  it('refuses a delivery seen within the period and takes one past it, once', async () => {
    const guard = new ReplayGuard(conn, 'deliveries', 30);
    await guard.init();
    const coll = conn.db!.collection('deliveries');
    await coll.insertMany([
      { integration_id: 1, delivery_id: 'old', received_at: new Date(Date.now() - 31 * DAY) },
      { integration_id: 1, delivery_id: 'recent', received_at: new Date(Date.now() - 29 * DAY) },
    ]);
    expect(await guard.claim(1, 'recent')).toBe(false);
    expect(await guard.claim(1, 'new')).toBe(true);
    expect(await guard.claim(1, 'new')).toBe(false);
    // Two instances at once: one takes the expired claim over.
    expect((await Promise.all([guard.claim(1, 'old'), new ReplayGuard(conn, 'deliveries', 30).claim(1, 'old')])).sort()).toEqual([false, true]);
    expect(await guard.claim(1, 'old')).toBe(false);
    expect(await coll.countDocuments({ delivery_id: 'old' })).toBe(1);
  });
});
