// On a server without a TTL monitor (the stand-in), raw webhook payloads and logs older than DATA_RETENTION_DAYS are
// purged by the service's own schedule; younger rows, and everything else, stay.
import { MongoClient } from 'mongodb';
import type { ServiceProcess } from '@act/service-kit/testing';
import { dropDb, dropStream, smsTestEnv, startSms, waitFor } from '../test/helpers';

const t = smsTestEnv('retention', null, { DATA_RETENTION_DAYS: '30', RETENTION_PURGE_EVERY_MS: '300' });
let svc: ServiceProcess;
let client: MongoClient;

beforeAll(async () => {
  client = await MongoClient.connect(t.env.MONGODB_URI!);
  svc = await startSms(t);
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await client?.close();
  await dropDb(t.db);
  await dropStream(t.natsPrefix);
});

it('removes webhook deliveries and logs older than the period, keeps the younger ones', async () => {
  const db = client.db(t.db);
  const old = new Date(Date.now() - 31 * 86_400_000);
  const young = new Date(Date.now() - 29 * 86_400_000);
  await db.collection('sms_webhook_events').insertMany([
    { id: 900_001, type: 'contact_created', timestamp: old, payload: '{"old":true}' },
    { id: 900_002, type: 'contact_created', timestamp: young, payload: '{"young":true}' },
  ]);
  await db.collection('sms_logs').insertMany([
    { id: 900_001, phone: '+14155550100', timestamp: old, updated_at: old, status: 'sent', message: 'old' },
    { id: 900_002, phone: '+14155550101', timestamp: young, updated_at: young, status: 'sent', message: 'young' },
  ]);
  await waitFor(async () => (await db.collection('sms_webhook_events').countDocuments({ id: 900_001 })) === 0 && (await db.collection('sms_logs').countDocuments({ id: 900_001 })) === 0, 15_000, 200);
  expect(await db.collection('sms_webhook_events').countDocuments({ id: 900_002 })).toBe(1);
  expect(await db.collection('sms_logs').countDocuments({ id: 900_002 })).toBe(1);
});
