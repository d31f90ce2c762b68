import mongoose from 'mongoose';
import { dropStandInIndexes, standInIndex, standInIndexesOn } from './standin-indexes';
import { testDbName } from './testing';

let conn: mongoose.Connection;
const setting = process.env.MONGO_STANDIN_INDEXES;
beforeAll(async () => {
  conn = await mongoose.createConnection(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017', { dbName: testDbName('kit_standin_indexes') }).asPromise();
});
afterEach(() => {
  if (setting === undefined) delete process.env.MONGO_STANDIN_INDEXES;
  else process.env.MONGO_STANDIN_INDEXES = setting;
});
afterAll(async () => {
  await conn?.dropDatabase().catch(() => undefined);
  await conn?.close();
});

const names = async () => (await conn.db!.collection('steps').indexes()).map((i) => i.name).sort();

describe("the MongoDB stand-in's indexes (MONGO_STANDIN_INDEXES)", () => {
  it('are declared only with the switch at 1', () => {
    const declared = (value: string | undefined) => {
      if (value === undefined) delete process.env.MONGO_STANDIN_INDEXES;
      else process.env.MONGO_STANDIN_INDEXES = value;
      const schema = new mongoose.Schema({ contact_ref: Number, lease_id: String });
      standInIndex(schema, { contact_ref: 1, lease_id: 1 }, 'standin_lease');
      return schema.indexes();
    };
    expect(declared('1')).toEqual([[{ contact_ref: 1, lease_id: 1 }, expect.objectContaining({ unique: true, name: 'standin_lease' })]]);
    expect(declared(undefined)).toEqual([]);
    expect(declared('0')).toEqual([]);
    expect(standInIndexesOn({ MONGO_STANDIN_INDEXES: 'true' })).toBe(false);
  });

  it('are dropped at start-up with the switch off (production), under either name, and kept with it on', async () => {
    const coll = conn.db!.collection('steps');
    await coll.createIndex({ contact_ref: 1 }, { unique: true, name: 'contact_ref_1' });
    await coll.createIndex({ contact_ref: 1, lease_id: 1 }, { unique: true, name: 'standin_lease' });
    await coll.createIndex({ contact_ref: 1, state: 1 }, { unique: true, name: 'contact_ref_1_state_1' });
    const retired = ['standin_lease', 'contact_ref_1_state_1'];
    process.env.MONGO_STANDIN_INDEXES = '1';
    await dropStandInIndexes(coll, retired);
    expect(await names()).toEqual(['_id_', 'contact_ref_1', 'contact_ref_1_state_1', 'standin_lease']);
    delete process.env.MONGO_STANDIN_INDEXES;
    await dropStandInIndexes(coll, retired);
    expect(await names()).toEqual(['_id_', 'contact_ref_1']);
  });
});
