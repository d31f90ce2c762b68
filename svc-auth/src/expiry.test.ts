// svc-auth's expiring collections: each declares its TTL index (read back from the stand-in after the service
// synced them), and reads leave out what is past its expiry though MongoDB's TTL monitor (60 s period; none on the
// stand-in) has not removed it yet.
import { MongoClient } from 'mongodb';
import { call, testDbName, type ServiceProcess } from '@act/service-kit/testing';
import { ADMIN_PASSWORD, asIdentity, login, startAuth } from './testing';
import { EXPORT_KEEP_DAYS } from './privacy/service';

jest.setTimeout(60_000);

const DAY = 86_400_000;
const RETENTION_DAYS = 30;
const DB = testDbName('expiry');
let svc: ServiceProcess;
let mongo: MongoClient;
let db: ReturnType<MongoClient['db']>;
let admin: ReturnType<typeof asIdentity>;

beforeAll(async () => {
  svc = await startAuth('expiry', { MONGODB_DB: DB, AUDIT_RETENTION_DAYS: String(RETENTION_DAYS) });
  admin = asIdentity((await login(svc.url, 'admin', ADMIN_PASSWORD)).user);
  mongo = await MongoClient.connect(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017');
  db = mongo.db(DB);
});
afterAll(async () => {
  await svc?.stop();
  await db?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

async function ttlOf(collection: string, name: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const index = (await db.collection(collection).indexes()).find((i) => i.name === name);
    if (index || Date.now() > deadline) return index;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('TTL indexes', () => {
  it('audit_log, privacy_exports and sessions each declare theirs with the right expireAfterSeconds', async () => {
    expect(await ttlOf('audit_log', 'at_retention')).toMatchObject({ key: { at: -1 }, expireAfterSeconds: RETENTION_DAYS * 86_400 });
    expect(await ttlOf('privacy_exports', 'created_ttl')).toMatchObject({ key: { created_at: 1 }, expireAfterSeconds: EXPORT_KEEP_DAYS * 86_400 });
    // A session ends at its own expiresAt.
    expect(await ttlOf('sessions', 'expiresAt_1')).toMatchObject({ key: { expiresAt: 1 }, expireAfterSeconds: 0 });
  });
});

describe('reads before the TTL monitor runs', () => {
  it('the audit log leaves out records past AUDIT_RETENTION_DAYS', async () => {
    const record = (id: string, daysAgo: number) => ({
      id,
      service: 'svc-auth',
      actor: { id: 1, username: 'ttl-probe', role: 'admin' },
      action: 'ttl.probe',
      route: 'POST /api/ttl',
      status: 200,
      at: new Date(Date.now() - daysAgo * DAY),
      mentions: [],
    });
    await db.collection('audit_log').insertMany([record('ttl-old', RETENTION_DAYS + 1), record('ttl-recent', RETENTION_DAYS - 1)]);
    const page = await call(svc.url, 'GET', '/api/audit-log?user=ttl-probe&pageSize=100', { user: admin });
    expect(page.status).toBe(200);
    expect(page.body.items.map((r: { id: string }) => r.id)).toEqual(['ttl-recent']);
    expect(page.body.total).toBe(1);
    const csv = await call(svc.url, 'GET', '/api/audit-log/export.csv?user=ttl-probe', { user: admin });
    expect(csv.text).not.toContain('ttl-old');
    // An explicit older "from" does not reach past the retention either.
    const from = new Date(Date.now() - 100 * DAY).toISOString();
    const wide = await call(svc.url, 'GET', `/api/audit-log?user=ttl-probe&from=${encodeURIComponent(from)}`, { user: admin });
    expect(wide.body.items.map((r: { id: string }) => r.id)).toEqual(['ttl-recent']);
  });

  it('a privacy export leaves out answers older than its keeping time', async () => {
    const created = await call(svc.url, 'POST', '/api/privacy-requests', { user: admin, body: { email: 'ttl@example.com' } });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    await db.collection('privacy_exports').insertMany([
      { request_id: id, service: 'svc-email', records: { contacts: [{ email: 'ttl@example.com' }] }, created_at: new Date(Date.now() - (EXPORT_KEEP_DAYS + 1) * DAY) },
      { request_id: id, service: 'svc-sms', records: { contacts: [{ phone: '+14155550101' }] }, created_at: new Date() },
    ]);
    const exported = await call(svc.url, 'GET', `/api/privacy-requests/${id}/export.json`, { user: admin });
    expect(exported.status).toBe(200);
    expect(exported.body.data).toEqual({ 'svc-email': {}, 'svc-sms': { contacts: [{ phone: '+14155550101' }] } });
  });

  it('a session past its expiresAt no longer signs anyone in', async () => {
    const { cookie } = await login(svc.url, 'admin', ADMIN_PASSWORD);
    const asBrowser = { user: null, headers: { cookie } };
    expect((await call(svc.url, 'GET', '/api/user', asBrowser)).body).toMatchObject({ authenticated: true, username: 'admin' });
    await db.collection('sessions').updateMany({}, { $set: { expiresAt: new Date(Date.now() - 1_000) } });
    expect((await call(svc.url, 'GET', '/api/user', asBrowser)).body).toEqual({ authenticated: false });
  });
});
