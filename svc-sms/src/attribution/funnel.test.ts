// The SMS funnel is one aggregation in the database over the range's contacts: for any data it must equal the
// funnel's definition (service-kit's cohortFunnel over the same contacts, at each contact's last text) and be
// monotone.
import mongoose from 'mongoose';
import type { Collection } from 'mongodb';
import { cohortFunnel } from '@act/service-kit';
import { testDbName } from '@act/service-kit/testing';
import type { ContactDoc } from '../contacts/model';
import type { IntegrationDoc } from '../integrations/model';
import { smsRevenueSide } from './side';

let conn: mongoose.Connection;
let contacts: Collection<ContactDoc>;
beforeAll(async () => {
  conn = await mongoose.createConnection(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017', { dbName: testDbName('sms_funnel') }).asPromise();
  contacts = conn.db!.collection<ContactDoc>('sms_contacts');
});
afterAll(async () => {
  await conn?.dropDatabase().catch(() => undefined);
  await conn?.close();
});

const DAY = 86_400_000;
const T0 = Date.parse('2026-06-01T00:00:00Z');

function random(seed: number) {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe('SMS revenue funnel', () => {
  it('equals the cohort definition and is monotone for any data (20 seeded data sets)', async () => {
    const side = smsRevenueSide({ contacts, integrations: conn.db!.collection<IntegrationDoc>('sms_integrations') });
    for (let seed = 1; seed <= 20; seed++) {
      await contacts.deleteMany({});
      const r = random(seed);
      const docs = Array.from({ length: 40 + Math.floor(r() * 60) }, (_, i) => {
        const created = T0 + Math.floor(r() * 30 * DAY);
        const sent = r() < 0.6 ? 1 + Math.floor(r() * 3) : 0;
        const last = sent && r() < 0.95 ? new Date(created + Math.floor(r() * 3 * DAY)) : null;
        const bought = r() < 0.4 ? new Date(created + Math.floor(r() * 6 * DAY)) : null;
        return { id: i + 1, integration_id: 1 + (i % 2), created_at: new Date(created), sent_count: sent, last_sent_at: last, purchased_at: bought, test: r() < 0.1 };
      });
      await contacts.insertMany(docs as never[]);
      const from = new Date(T0 + 5 * DAY);
      const until = new Date(T0 + 25 * DAY);
      for (const integrationId of [undefined, 2]) {
        const inRange = docs.filter((d) => d.created_at >= from && d.created_at < until && !d.test && (integrationId === undefined || d.integration_id === integrationId));
        const expected = cohortFunnel(
          inRange.length,
          inRange.filter((d) => d.sent_count > 0).map((d) => ({ remindedAt: d.last_sent_at ?? new Date(0), clicked: null, purchasedAt: d.purchased_at })),
          false,
        );
        const f = await side.funnel(from, until, integrationId);
        expect({ seed, integrationId, f }).toEqual({ seed, integrationId, f: expected });
        expect(f.contacts).toBeGreaterThanOrEqual(f.reminded);
        expect(f.reminded).toBeGreaterThanOrEqual(f.purchased);
      }
    }
  });
});
