// Raw webhook deliveries and SMS logs expire by a TTL index on their timestamp (DATA_RETENTION_DAYS), read back from
// the stand-in after the service declared them; and every list (plain, paged, and its cards) leaves out rows past
// the period though the TTL monitor (60 s period on MongoDB; none on the stand-in, whose purge is kept daily here so
// it never runs) has not removed them yet.
import { MongoClient } from 'mongodb';
import type { ServiceProcess } from '@act/service-kit/testing';
import { call } from '@act/service-kit/testing';
import { dropDb, dropStream, smsTestEnv, startSms, waitFor } from '../test/helpers';

const DAY = 86_400_000;
const RETENTION_DAYS = 30;
const t = smsTestEnv('expiry', null, { DATA_RETENTION_DAYS: String(RETENTION_DAYS), RETENTION_PURGE_EVERY_MS: String(DAY) });
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

it('sms_webhook_events and sms_logs declare their TTL index with DATA_RETENTION_DAYS', async () => {
  for (const collection of ['sms_webhook_events', 'sms_logs']) {
    const index = await waitFor(
      async () => (await client.db(t.db).collection(collection).indexes()).find((i) => i.name === 'timestamp_-1' && i.expireAfterSeconds !== undefined),
      10_000,
      100,
    );
    expect(index).toMatchObject({ key: { timestamp: -1 }, expireAfterSeconds: RETENTION_DAYS * 86_400 });
  }
});

it('SMS Webhook Events and SMS Logs leave out rows past the period: plain list, page, total and cards', async () => {
  const db = client.db(t.db);
  const old = new Date(Date.now() - (RETENTION_DAYS + 1) * DAY);
  const young = new Date(Date.now() - (RETENTION_DAYS - 1) * DAY);
  await db.collection('sms_webhook_events').insertMany([
    { id: 900_001, type: 'contact_created', timestamp: old, payload: '{"old":true}' },
    { id: 900_002, type: 'contact_created', timestamp: young, payload: '{"young":true}' },
  ]);
  const log = (id: number, timestamp: Date) => ({ id, phone: '+14155550100', contact_id: null, contact_ref: null, integration_id: null, template_id: null, sequence_order: null, message_sid: null, error_message: null, timestamp, updated_at: timestamp, status: 'delivered', message: `m${id}` });
  await db.collection('sms_logs').insertMany([log(900_001, old), log(900_002, young)]);

  const events = await call(svc.url, 'GET', '/api/sms-webhook-events');
  expect(events.body.map((e: { id: number }) => e.id)).toEqual([900_002]);
  const eventPage = await call(svc.url, 'GET', '/api/sms-webhook-events?page=1&pageSize=25');
  expect(eventPage.body).toMatchObject({ total: 1, items: [{ id: 900_002 }], summary: { total: 1, by_type: { contact_created: 1 } } });
  const logs = await call(svc.url, 'GET', '/api/sms-logs');
  expect(logs.body.map((l: { id: number }) => l.id)).toEqual([900_002]);
  const logPage = await call(svc.url, 'GET', '/api/sms-logs?page=1&pageSize=25');
  expect(logPage.body).toMatchObject({ total: 1, items: [{ id: 900_002 }], summary: { total: 1, delivered: 1 } });
  // Still stored: only the TTL monitor removes them (and on the stand-in, the daily purge).
  expect(await db.collection('sms_logs').countDocuments({ id: 900_001 })).toBe(1);
});
