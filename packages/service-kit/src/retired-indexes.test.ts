// A deployment keeps an index its model stopped declaring until something drops it: start-up does, by name.
import mongoose from 'mongoose';
import { dropRetiredIndexes } from './retired-indexes';
import { testDbName } from './testing';

let conn: mongoose.Connection;
beforeAll(async () => {
  conn = await mongoose.createConnection(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017', { dbName: testDbName('kit_retired_indexes') }).asPromise();
});
afterAll(async () => {
  await conn?.dropDatabase().catch(() => undefined);
  await conn?.close();
});

const names = async (collection: string) => (await conn.db!.collection(collection).indexes()).map((i) => i.name).sort();

describe('dropRetiredIndexes', () => {
  it('drops the named indexes and keeps every other', async () => {
    const coll = conn.db!.collection('contacts');
    await coll.createIndex({ id: 1 }, { unique: true, name: 'id_1' });
    await coll.createIndex({ id: 1, status: 1 }, { unique: true, name: 'id_1_status_1' });
    await coll.createIndex({ id: 1, step: 1, next_at: 1 }, { unique: true, name: 'step_cas' });
    await dropRetiredIndexes(coll, ['id_1_status_1', 'step_cas']);
    expect(await names('contacts')).toEqual(['_id_', 'id_1']);
  });

  it('is quiet when the index or the collection is already gone (a second instance, a new database)', async () => {
    await expect(dropRetiredIndexes(conn.db!.collection('contacts'), ['step_cas'])).resolves.toBeUndefined();
    await expect(dropRetiredIndexes(conn.db!.collection('never_made'), ['step_cas'])).resolves.toBeUndefined();
  });
});
