// Retention's TTL index as the stand-in holds it: set from the period, changed when the setting changes, plain when
// everything is kept; and the stand-in (no collMod, no TTL monitor) is told apart so the purge covers for it.
import mongoose from 'mongoose';
import { ensureRetentionIndex, retainedFilter, startRetentionPurge } from './retention';
import { testDbName } from './testing';
import { createLogger } from './logger';

const DAY = 86_400_000;
let conn: mongoose.Connection;
beforeAll(async () => {
  conn = await mongoose.createConnection(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017', { dbName: testDbName('kit_retention') }).asPromise();
});
afterAll(async () => {
  await conn?.dropDatabase().catch(() => undefined);
  await conn?.close();
});

const indexOf = async (collection: string, name = 'timestamp_-1') => (await conn.db!.collection(collection).indexes()).find((i) => i.name === name);

describe('ensureRetentionIndex', () => {
  it('makes the existing date index a TTL index, follows a changed period, and keeps it plain for 0', async () => {
    const coll = conn.db!.collection('logs_a');
    // The newest-first index the reads had before expiry: it is the one that becomes the TTL index.
    await coll.createIndex({ timestamp: -1 });
    const rule = { collection: 'logs_a', field: 'timestamp' };
    // The stand-in does not know collMod, so it has no TTL monitor: the caller keeps its purge.
    expect(await ensureRetentionIndex(conn, rule, 30)).toBe(false);
    expect(await indexOf('logs_a')).toMatchObject({ key: { timestamp: -1 }, expireAfterSeconds: 30 * 86_400 });
    await ensureRetentionIndex(conn, rule, 7);
    expect(await indexOf('logs_a')).toMatchObject({ key: { timestamp: -1 }, expireAfterSeconds: 7 * 86_400 });
    await ensureRetentionIndex(conn, rule, 0);
    const plain = await indexOf('logs_a');
    expect(plain).toMatchObject({ key: { timestamp: -1 } });
    expect(plain).not.toHaveProperty('expireAfterSeconds');
    expect((await coll.indexes()).filter((i) => i.key.timestamp !== undefined)).toHaveLength(1);
  });

  it('creates the index on a collection that has none yet', async () => {
    await ensureRetentionIndex(conn, { collection: 'logs_b', field: 'at', index: 'at_ttl' }, 12);
    expect(await indexOf('logs_b', 'at_ttl')).toMatchObject({ key: { at: -1 }, expireAfterSeconds: 12 * 86_400 });
  });
});

describe('startRetentionPurge', () => {
  it('on a server without a TTL monitor, removes rows past the period every everyMs and keeps younger ones', async () => {
    const coll = conn.db!.collection('logs_c');
    await coll.insertMany([
      { n: 'old', timestamp: new Date(Date.now() - 31 * DAY) },
      { n: 'young', timestamp: new Date(Date.now() - 29 * DAY) },
    ]);
    const retention = startRetentionPurge({ conn, logger: createLogger('retention-test'), rules: [{ collection: 'logs_c', field: 'timestamp' }], days: 30, everyMs: 100 });
    try {
      expect(await retention.ready).toBe(false);
      const deadline = Date.now() + 10_000;
      while ((await coll.countDocuments({ n: 'old' })) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect((await coll.find({}).toArray()).map((d) => d.n)).toEqual(['young']);
    } finally {
      retention.stop();
    }
  });
});

describe('retainedFilter', () => {
  it('bounds the field at the period, and is empty when everything is kept', () => {
    const f = retainedFilter('timestamp', 30) as { timestamp: { $gte: Date } };
    expect(Math.abs(f.timestamp.$gte.getTime() - (Date.now() - 30 * DAY))).toBeLessThan(1_000);
    expect(retainedFilter('timestamp', 0)).toEqual({});
  });
});
