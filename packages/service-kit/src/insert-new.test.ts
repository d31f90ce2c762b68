import { MongoClient, type Collection } from 'mongodb';
import { insertNew } from './insert-new';
import { testDbName } from './testing';

// Against the MongoDB stand-in that infra/scripts/test.mjs provides.
const dbName = testDbName('kit_insert_new');
let client: MongoClient;
let coll: Collection<{ a: number; b: number; id: number; note?: string }>;

beforeAll(async () => {
  client = await MongoClient.connect(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017');
  coll = client.db(dbName).collection('docs');
  await coll.createIndex({ a: 1, b: 1 }, { unique: true, name: 'a_b' });
  await coll.createIndex({ id: 1 }, { unique: true, name: 'id_1' });
});

afterAll(async () => {
  await client?.db(dbName).dropDatabase();
  await client?.close();
});

describe('insertNew', () => {
  it('inserts what is new and leaves what exists by the named index untouched', async () => {
    await coll.insertOne({ a: 1, b: 1, id: 1, note: 'first' });
    const inserted = await insertNew(
      coll,
      [
        { a: 2, b: 1, id: 2 },
        { a: 1, b: 1, id: 3, note: 'second' },
        { a: 3, b: 1, id: 4 },
        { a: 3, b: 1, id: 5 },
      ],
      'a_b',
    );
    expect(inserted).toEqual([true, false, true, false]);
    const docs = await coll.find({}, { projection: { _id: 0 } }).sort({ id: 1 }).toArray();
    expect(docs).toEqual([
      { a: 1, b: 1, id: 1, note: 'first' },
      { a: 2, b: 1, id: 2 },
      { a: 3, b: 1, id: 4 },
    ]);
  });

  it('fails on a duplicate of another unique index (that is a conflict, not "exists")', async () => {
    await expect(insertNew(coll, [{ a: 9, b: 9, id: 1 }], 'a_b')).rejects.toThrow(/E11000.*id_1/);
  });

  it('does nothing for no documents', async () => {
    await expect(insertNew(coll, [], 'a_b')).resolves.toEqual([]);
  });
});
