// On a server without a TTL monitor (the stand-in), raw webhook payloads and logs older than DATA_RETENTION_DAYS are
// purged by the service's own schedule; younger rows, and everything else, stay. The email side's twin of svc-sms/src/privacy/retention.test.ts.
import { MongoClient } from 'mongodb';
import { dropDb, MONGODB_URI, startEmail, waitFor, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

let email: EmailUnderTest;
let client: MongoClient;

beforeAll(async () => {
  client = await MongoClient.connect(MONGODB_URI);
  email = await startEmail('retention', { DATA_RETENTION_DAYS: '30', RETENTION_PURGE_EVERY_MS: '300' });
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await email?.svc.stop();
  await client?.close();
  if (email) await dropDb(email.db);
});

it('removes webhook deliveries and logs older than the period, keeps the younger ones and the contacts', async () => {
  const db = client.db(email.db);
  const old = new Date(Date.now() - 31 * 86_400_000);
  const young = new Date(Date.now() - 29 * 86_400_000);
  await db.collection('webhook_events').insertMany([
    { id: 900_001, type: 'contact_created', timestamp: old, payload: '{"old":true}' },
    { id: 900_002, type: 'contact_created', timestamp: young, payload: '{"young":true}' },
  ]);
  await db.collection('email_logs').insertMany([
    {
      id: 900_001,
      contact_id: 'old',
      contact_ref: 1,
      email: 'old@example.com',
      timestamp: old,
      message: 'old',
      status: 'would_send',
    },
    {
      id: 900_002,
      contact_id: 'young',
      contact_ref: 2,
      email: 'young@example.com',
      timestamp: young,
      message: 'young',
      status: 'would_send',
    },
  ]);
  await db
    .collection('contacts')
    .insertOne({
      id: 900_001,
      contact_id: 'old',
      email: 'old@example.com',
      email_lower: 'old@example.com',
      phone: null,
      first_name: null,
      integration_id: null,
      created_at: old,
      remind_at: old,
      purchased_at: null,
      sent_at: old,
      status: 'sent',
    });
  await waitFor(
    async () =>
      (await db.collection('webhook_events').countDocuments({ id: 900_001 })) === 0 &&
      (await db.collection('email_logs').countDocuments({ id: 900_001 })) === 0,
    { timeoutMs: 15_000, intervalMs: 200, what: 'the purge' },
  );
  expect(await db.collection('webhook_events').countDocuments({ id: 900_002 })).toBe(1);
  expect(await db.collection('email_logs').countDocuments({ id: 900_002 })).toBe(1);
  expect(await db.collection('contacts').countDocuments({ id: 900_001 })).toBe(1);
});
