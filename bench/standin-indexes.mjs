// Why the email flow rows keep their exact-key indexes on the MongoDB stand-in (MONGO_STANDIN_INDEXES): the take and
// the lease writes as the step store sends them (one bulk write of 100 conditional updates each: take filtered on
// { contact_ref, state, due_at, lease_id }, the end of the lease on { contact_ref, lease_id }), over N rows all due,
// with and without those indexes. Usage: node bench/standin-indexes.mjs [rows=10000] [bursts=10]
import { MongoClient } from 'mongodb';
import { randomUUID } from 'node:crypto';
import { startStandIn } from '../infra/scripts/lib/mongo-standin.mjs';

const N = Number(process.argv[2] ?? 10_000);
const BURSTS = Number(process.argv[3] ?? 10);
const server = await startStandIn({});
const client = await MongoClient.connect(server.uri);
try {
  for (const exact of [true, false]) {
    const db = client.db(`m_${exact ? 'exact' : 'plain'}`);
    const coll = db.collection('email_sequence_steps');
    await coll.createIndex({ contact_ref: 1 }, { unique: true });
    await coll.createIndex({ state: 1, due_at: 1 });
    await coll.createIndex({ state: 1, stage: 1, due_at: 1 });
    if (exact) {
      await coll.createIndex({ contact_ref: 1, state: 1, due_at: 1, lease_id: 1 }, { unique: true });
      await coll.createIndex({ contact_ref: 1, lease_id: 1 }, { unique: true });
    }
    const due = new Date(Date.now() - 60_000);
    for (let i = 0; i < N; i += 1000)
      await coll.insertMany(Array.from({ length: Math.min(1000, N - i) }, (_, j) => ({ contact_ref: i + j + 1, state: 'waiting', due_at: due, lease_id: null, sent: 0 })));
    let takeMs = 0;
    let releaseMs = 0;
    for (let b = 0; b < BURSTS; b++) {
      const refs = Array.from({ length: 100 }, (_, j) => b * 100 + j + 1);
      const lease = randomUUID();
      const until = new Date(Date.now() + 300_000);
      let t = performance.now();
      const taken = await coll.bulkWrite(
        refs.map((r) => ({ updateOne: { filter: { contact_ref: r, state: 'waiting', due_at: due, lease_id: null }, update: { $set: { due_at: until, lease_id: lease } } } })),
        { ordered: false },
      );
      takeMs += performance.now() - t;
      t = performance.now();
      const released = await coll.bulkWrite(
        refs.map((r) => ({ updateOne: { filter: { contact_ref: r, lease_id: lease }, update: { $set: { lease_id: null, due_at: null, state: 'finished' }, $inc: { sent: 1 } } } })),
        { ordered: false },
      );
      releaseMs += performance.now() - t;
      if (taken.modifiedCount !== 100 || released.modifiedCount !== 100) throw new Error('not all rows written');
    }
    console.log(
      `${exact ? 'with the exact-key indexes   ' : 'without them (contact_ref only)'}: ${N} rows, per burst of 100: take ${(takeMs / BURSTS).toFixed(1)} ms, release ${(releaseMs / BURSTS).toFixed(1)} ms`,
    );
  }
} finally {
  await client.close();
  await server.stop();
}
