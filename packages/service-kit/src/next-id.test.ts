import mongoose, { type Connection } from 'mongoose';
import { insertWithNextId, nextId } from './mongo';
import { testDbName } from './testing';

// Against the MongoDB stand-in that infra/scripts/test.mjs provides.
const dbName = testDbName('kit_next_id');
let conns: Connection[] = [];

beforeAll(async () => {
  // Several connections, as several service instances have: their upserts reach the server side by side.
  conns = await Promise.all(
    Array.from({ length: 4 }, () =>
      mongoose.createConnection(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017', { dbName }).asPromise(),
    ),
  );
});
afterAll(async () => {
  await conns[0]?.dropDatabase();
  await Promise.all(conns.map((c) => c.close()));
});

describe('nextId', () => {
  it('hands out distinct ids when many first uses of a counter arrive at once (concurrent upserts)', async () => {
    for (let round = 0; round < 20; round++) {
      const name = `burst_${round}`;
      const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => nextId(conns[i % conns.length]!, name)));
      // Distinct and positive; not contiguous (a call that loses a race in this process asks again).
      expect(new Set(ids).size).toBe(40);
      expect(ids.every((id) => Number.isInteger(id) && id >= 1)).toBe(true);
    }
  });
});

describe('nextId in one process', () => {
  it('never hands out an id at or below one it already gave, even if the counter answers a stale value', async () => {
    const conn = conns[0]!;
    const first = await nextId(conn, 'stale');
    expect(first).toBe(1);
    // A stale answer, as the stand-in once gave under load: the counter reads as if nothing had been handed out.
    await conn.collection('counters').updateOne({ _id: 'stale' as never }, { $set: { seq: 0 } });
    const second = await nextId(conn, 'stale');
    expect(second).toBeGreaterThan(first);
  });
});

describe('insertWithNextId', () => {
  it('takes the next id when the counter is behind the stored ids; throws the caller\'s own conflict as is', async () => {
    const conn = conns[1]!;
    const coll = conn.collection<{ id: number; name: string }>('things');
    await coll.createIndex({ id: 1 }, { unique: true });
    await coll.createIndex({ name: 1 }, { unique: true });
    // Ids 1 and 2 are stored while the counter says nothing was handed out (a restored backup, another instance's
    // stale answer): plain nextId + insert would fail with a duplicate key on the id.
    await coll.insertMany([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ]);
    const taken = new Error('name taken');
    const conflict = async () => ((await coll.countDocuments({ name: 'c' })) > 0 ? taken : null);
    const id = await insertWithNextId(conn, 'things', async (id) => (await coll.insertOne({ id, name: 'c' }), id), conflict);
    expect(id).toBe(3);
    await expect(insertWithNextId(conn, 'things', async (id) => (await coll.insertOne({ id, name: 'c' }), id), conflict)).rejects.toBe(taken);
    expect(await coll.countDocuments({})).toBe(3);
  });
});
