// The staff actions on a person's contacts, as the gateway asks for them for the contact page's timeline.
import { MongoClient } from 'mongodb';
import { call, testDbName, type ServiceProcess } from '@act/service-kit/testing';
import type { TimelineEntry } from '@act/contracts/src/timeline';
import { startAuth } from '../testing';

jest.setTimeout(60_000);

const db = testDbName('stafftimeline');
let svc: ServiceProcess;
let client: MongoClient;
beforeAll(async () => {
  svc = await startAuth('stafftimeline', { MONGODB_DB: db });
  client = await MongoClient.connect(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017');
  const record = (id: string, minute: number, service: string, target_kind: string, target_id: string) => ({
    id,
    at: new Date(Date.UTC(2026, 10, 27, 12, minute)),
    service,
    actor: { id: 1, username: 'admin', role: 'admin' },
    ip: '203.0.113.9',
    action: `${target_kind}.mark-purchased`,
    route: 'POST /api/contacts/mark-purchased',
    status: 200,
    target_kind,
    target_id,
    change: { before: { purchased: false }, after: { purchased: true } },
  });
  // Records arrive over NATS in production; written here as svc-auth's consumer stores them.
  await client.db(db).collection('audit_log').insertMany([
    record('a-1', 10, 'svc-email', 'contact', '7'),
    record('a-2', 20, 'svc-sms', 'sms-contact', '3'),
    record('a-3', 30, 'svc-email', 'contact', '8'),
    record('a-4', 40, 'svc-auth', 'user', '7'),
  ]);
});
afterAll(async () => {
  await svc?.stop();
  await client?.db(db).dropDatabase();
  await client?.close();
});

describe('GET /internal/timeline (staff actions on a person\'s contacts)', () => {
  it('answers the records whose target is one of the contacts, newest first, paged by the cursor', async () => {
    const r = await call(svc.url, 'GET', '/internal/timeline?target=contact:7&target=sms-contact:3');
    expect(r.status).toBe(200);
    const entries = r.body.entries as TimelineEntry[];
    expect(entries.map((e) => [e.key, e.side, e.kind, e.title])).toEqual([
      ['staff:a-2', 'sms', 'staff', 'Staff action by admin: sms-contact.mark-purchased'],
      ['staff:a-1', 'email', 'staff', 'Staff action by admin: contact.mark-purchased'],
    ]);
    expect(r.body.more).toBe(false);
    const older = await call(svc.url, 'GET', `/internal/timeline?target=contact:7&target=sms-contact:3&limit=1&before=${encodeURIComponent(`${Date.parse(entries[0]!.at)}~${entries[0]!.key}`)}`);
    expect(older.body).toEqual({ entries: [entries[1]], more: false });
  });

  it('is for admins only, as the Audit Log, and refuses bad targets with a 400', async () => {
    expect((await call(svc.url, 'GET', '/internal/timeline?target=contact:7', { user: { id: 2, username: 'op', role: 'user' } })).status).toBe(403);
    for (const q of ['', '?target=user:7', '?target=contact:']) {
      const r = await call(svc.url, 'GET', `/internal/timeline${q}`);
      expect([q, r.status, typeof r.body.error]).toEqual([q, 400, 'string']);
    }
  });
});
