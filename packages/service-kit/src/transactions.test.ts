// inTransaction on the test stand-in, which has no sessions: it is told apart from a replica set by its `hello`
// answer and the work runs as it is, in its own order, with what comes after the commit run after it. (The
// transaction path needs a replica-set member; none runs in this suite.)
import mongoose from 'mongoose';
import { inTransaction, supportsTransactions } from './transactions';
import { testDbName } from './testing';

let conn: mongoose.Connection;
beforeAll(async () => {
  conn = await mongoose.createConnection(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017', { dbName: testDbName('kit_tx') }).asPromise();
});
afterAll(async () => {
  await conn?.dropDatabase().catch(() => undefined);
  await conn?.close();
});

describe('inTransaction without transactions', () => {
  it('knows the stand-in offers none', async () => {
    expect(await supportsTransactions(conn)).toBe(false);
  });

  it('runs the writes in their order without a session, then what follows the commit', async () => {
    const seen: string[] = [];
    const result = await inTransaction(conn, async (tx) => {
      expect(tx.session).toBeUndefined();
      await conn.db!.collection('rows').insertOne({ n: 1 }, { session: tx.session });
      tx.afterCommit(() => seen.push('after'));
      seen.push('work');
      return 7;
    });
    expect(result).toBe(7);
    expect(seen).toEqual(['work', 'after']);
    expect(await conn.db!.collection('rows').countDocuments({ n: 1 })).toBe(1);
  });

  it('runs nothing after a commit that did not happen', async () => {
    const seen: string[] = [];
    await expect(
      inTransaction(conn, async (tx) => {
        tx.afterCommit(() => seen.push('after'));
        throw new Error('write failed');
      }),
    ).rejects.toThrow('write failed');
    expect(seen).toEqual([]);
  });
});
