// The email funnel is one aggregation in the database over the range's contacts: for any data it must equal the
// funnel's definition (service-kit's cohortFunnel over the same contacts) and be monotone.
import mongoose from 'mongoose';
import type { Collection } from 'mongodb';
import { cohortFunnel } from '@act/service-kit';
import { testDbName } from '@act/service-kit/testing';
import type { ContactDoc } from '../contacts/model';
import type { EmailLogDoc } from '../email-logs/model';
import { emailRevenueSide } from './side';
import { backfillContactReach, contactReach } from './reach';

let conn: mongoose.Connection;
let contacts: Collection<ContactDoc>;
beforeAll(async () => {
  conn = await mongoose.createConnection(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017', { dbName: testDbName('email_funnel') }).asPromise();
  contacts = conn.db!.collection<ContactDoc>('contacts');
});
afterAll(async () => {
  await conn?.dropDatabase().catch(() => undefined);
  await conn?.close();
});

const DAY = 86_400_000;
const T0 = Date.parse('2026-06-01T00:00:00Z');
const side = () => emailRevenueSide({ contacts, integrations: { byId: async () => undefined, get: async () => ({ byId: new Map() }) } as never, simulated: false });

function random(seed: number) {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe('email revenue funnel', () => {
  it('equals the cohort definition and is monotone for any data (20 seeded data sets)', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      await contacts.deleteMany({});
      const r = random(seed);
      const docs = Array.from({ length: 40 + Math.floor(r() * 60) }, (_, i) => {
        const created = T0 + Math.floor(r() * 30 * DAY);
        const sent = r() < 0.6 ? created + Math.floor(r() * 3 * DAY) : undefined;
        const bought = r() < 0.4 ? created + Math.floor(r() * 6 * DAY) : null;
        return {
          id: i + 1,
          integration_id: 1 + (i % 2),
          created_at: new Date(created),
          purchased_at: bought === null ? null : new Date(bought),
          test: r() < 0.1,
          ...(sent !== undefined ? { first_sent_at: new Date(sent) } : {}),
          ...(sent !== undefined && r() < 0.3 ? { clicked_at: new Date(sent + 60_000) } : {}),
        };
      });
      await contacts.insertMany(docs as never[]);
      const from = new Date(T0 + 5 * DAY);
      const until = new Date(T0 + 25 * DAY);
      for (const integrationId of [undefined, 2]) {
        const inRange = docs.filter((d) => d.created_at >= from && d.created_at < until && !d.test && (integrationId === undefined || d.integration_id === integrationId));
        const expected = cohortFunnel(
          inRange.length,
          inRange.filter((d) => d.first_sent_at).map((d) => ({ remindedAt: d.first_sent_at!, clicked: Boolean(d.clicked_at), purchasedAt: d.purchased_at })),
          true,
        );
        const f = await side().funnel(from, until, integrationId);
        expect({ seed, integrationId, f }).toEqual({ seed, integrationId, f: expected });
        expect(f.contacts).toBeGreaterThanOrEqual(f.reminded);
        expect(f.reminded).toBeGreaterThanOrEqual(f.purchased);
        expect(f.reminded).toBeGreaterThanOrEqual(f.clicked!);
      }
    }
  });

  it('keeps the first real send and first click on the contact; would_send and held logs reach no one', async () => {
    await contacts.deleteMany({});
    const logs = conn.db!.collection<EmailLogDoc>('email_logs');
    await contacts.insertMany([{ id: 1, created_at: new Date(T0) }, { id: 2, created_at: new Date(T0) }] as never[]);
    const reach = contactReach(contacts);
    const entry = (contact_ref: number, status: string, at: number) => ({ contact_id: `c${contact_ref}`, contact_ref, email: 'a@example.com', message: 'm', status, timestamp: new Date(at) });
    await reach.observer([entry(1, 'sent', T0 + 2 * DAY), entry(2, 'would_send', T0 + DAY), entry(2, 'held', T0 + DAY)], new Date());
    await reach.observer([entry(1, 'sent', T0 + DAY)], new Date());
    await reach.observer([entry(1, 'sent', T0 + 3 * DAY)], new Date());
    await logs.insertOne({ id: 1, contact_id: 'c1', contact_ref: 1, email: 'a@example.com', message: 'm', status: 'sent', timestamp: new Date(T0 + DAY), message_id: 'em_1' });
    await reach.clicked(logs, 'em_1', new Date(T0 + 4 * DAY));
    await reach.clicked(logs, 'em_1', new Date(T0 + 5 * DAY));
    await reach.clicked(logs, 'em_unknown', new Date(T0 + 5 * DAY));
    const [one, two] = await contacts.find({}, { sort: { id: 1 } }).toArray();
    expect(one).toMatchObject({ first_sent_at: new Date(T0 + DAY), clicked_at: new Date(T0 + 4 * DAY) });
    expect(two!.first_sent_at).toBeUndefined();
    expect(two!.clicked_at).toBeUndefined();
  });

  it('fills the reach of contacts stored before it was kept, once, from their email logs', async () => {
    await contacts.deleteMany({});
    const logs = conn.db!.collection<EmailLogDoc>('email_logs');
    await logs.deleteMany({});
    const migrations = conn.db!.collection<{ _id: string; at: Date }>('migrations');
    await migrations.deleteMany({});
    await contacts.insertMany([{ id: 1, created_at: new Date(T0) }, { id: 2, created_at: new Date(T0) }, { id: 3, created_at: new Date(T0) }] as never[]);
    const log = (id: number, contact_ref: number, status: string, at: number, delivery: 'clicked' | 'delivered' | null = null) => ({ id, contact_id: `c${contact_ref}`, contact_ref, email: 'a@example.com', message: 'm', status, timestamp: new Date(at), delivery, delivery_at: delivery ? new Date(at + 1000) : null });
    await logs.insertMany([log(1, 1, 'sent', T0 + 2 * DAY), log(2, 1, 'sent', T0 + DAY, 'clicked'), log(3, 2, 'would_send', T0 + DAY), log(4, 3, 'sent', T0 + 3 * DAY, 'delivered')]);
    const logger = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;
    expect(await backfillContactReach({ contacts, logs, migrations, logger })).toBe(2);
    const byId = new Map((await contacts.find({}).toArray()).map((c) => [c.id, c]));
    expect(byId.get(1)).toMatchObject({ first_sent_at: new Date(T0 + DAY), clicked_at: new Date(T0 + DAY + 1000) });
    expect(byId.get(2)!.first_sent_at).toBeUndefined();
    expect(byId.get(3)!.first_sent_at).toEqual(new Date(T0 + 3 * DAY));
    expect(byId.get(3)!.clicked_at).toBeUndefined();
    // A second start finds the marker and reads no log.
    await logs.insertOne(log(5, 2, 'sent', T0 + DAY));
    expect(await backfillContactReach({ contacts, logs, migrations, logger })).toBe(0);
    expect((await contacts.findOne({ id: 2 }))!.first_sent_at).toBeUndefined();
  });
});
