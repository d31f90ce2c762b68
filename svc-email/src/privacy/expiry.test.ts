// Raw webhook deliveries and email logs expire by a TTL index on their timestamp (DATA_RETENTION_DAYS), read back
// from the stand-in after the service declared them; and every list leaves out rows past the period though the TTL
// monitor (60 s period on MongoDB; none on the stand-in, whose purge is kept daily here so it never runs) has not
// removed them yet.
import { MongoClient } from 'mongodb';
import { dropDb, MONGODB_URI, startEmail, waitFor, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

const DAY = 86_400_000;
const RETENTION_DAYS = 30;
let email: EmailUnderTest;
let client: MongoClient;

beforeAll(async () => {
  client = await MongoClient.connect(MONGODB_URI);
  email = await startEmail('expiry', { DATA_RETENTION_DAYS: String(RETENTION_DAYS), RETENTION_PURGE_EVERY_MS: String(DAY) });
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await email?.svc.stop();
  await client?.close();
  if (email) await dropDb(email.db);
});

const ttlOf = (collection: string) =>
  waitFor(async () => (await client.db(email.db).collection(collection).indexes()).find((i) => i.name === 'timestamp_-1' && i.expireAfterSeconds !== undefined), { what: `${collection}'s TTL index` });

it('webhook_events and email_logs declare their TTL index with DATA_RETENTION_DAYS', async () => {
  for (const collection of ['webhook_events', 'email_logs']) {
    expect(await ttlOf(collection)).toMatchObject({ key: { timestamp: -1 }, expireAfterSeconds: RETENTION_DAYS * 86_400 });
  }
});

it('Webhook Events and Email Logs leave out rows past the period, whole and paged', async () => {
  const db = client.db(email.db);
  const old = new Date(Date.now() - (RETENTION_DAYS + 1) * DAY);
  const young = new Date(Date.now() - (RETENTION_DAYS - 1) * DAY);
  await db.collection('webhook_events').insertMany([
    { id: 900_001, type: 'contact_created', timestamp: old, payload: '{"old":true}', source: 'generic', verification: 'unsigned', outcome: 'created' },
    { id: 900_002, type: 'contact_created', timestamp: young, payload: '{"young":true}', source: 'generic', verification: 'unsigned', outcome: 'created' },
  ]);
  const log = (id: number, name: string, timestamp: Date) => ({ id, contact_id: name, contact_ref: id, email: `${name}@example.com`, timestamp, message: name, status: 'would_send' });
  await db.collection('email_logs').insertMany([log(900_001, 'old', old), log(900_002, 'young', young)]);

  const events = await email.api('GET', '/api/webhook-events');
  expect(events.body.map((e: { id: number }) => e.id)).toEqual([900_002]);
  const eventPage = await email.api('GET', '/api/webhook-events?page=1&pageSize=10&source=generic');
  expect(eventPage.body).toMatchObject({ total: 1, items: [{ id: 900_002 }] });
  const logs = await email.api('GET', '/api/email-logs');
  expect(logs.body.map((l: { id: number }) => l.id)).toEqual([900_002]);
  const logPage = await email.api('GET', '/api/email-logs?page=1&pageSize=10&sort=timestamp');
  expect(logPage.body).toMatchObject({ total: 1, items: [{ id: 900_002 }] });
  // Still stored: only the TTL monitor removes them (and on the stand-in, the daily purge).
  expect(await db.collection('webhook_events').countDocuments({ id: 900_001 })).toBe(1);
});
