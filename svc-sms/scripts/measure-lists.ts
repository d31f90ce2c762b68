/**
 * The list figures of svc-sms/README.md (Paged lists): a MongoDB stand-in of its own, svc-sms on it, N contacts,
 * logs and webhook events written straight into the database (N=50000 by default), then each list call timed over
 * HTTP (7 runs after a warm-up; median and max). Needs Java for the stand-in and NATS on 127.0.0.1:4222.
 *   node node_modules/tsx/dist/cli.mjs svc-sms/scripts/measure-lists.ts      (ONLY=<path> times one call)
 */
import { MongoClient } from 'mongodb';
import { startStandIn } from '../../infra/scripts/lib/mongo-standin.mjs';
import { call, startServiceProcess } from '@act/service-kit/testing';

const N = Number(process.env.N ?? 50_000);
async function main() {
  const server = await startStandIn({});
  const db = 'act_sms_meas';
  const env = {
    MONGODB_URI: server.uri,
    MONGODB_DB: db,
    NATS_URL: 'nats://127.0.0.1:4222',
    NATS_PREFIX: 'meas_sms_' + Date.now() + '_',
    SMS_DUE_SCAN_MS: '0',
  };
  const svc = await startServiceProcess('svc-sms', env, 120_000);
  const r = await call(svc.url, 'POST', '/api/sms-webhook-integrations', {
    body: { name: 'Spring Launch', funnel_id: 'spring' },
  });
  const integrationId = (r.body as { id: number }).id;
  const mongo = await MongoClient.connect(server.uri);
  const d = mongo.db(db);
  const statuses = ['pending', 'sent', 'purchased', 'abandoned', 'skipped_duplicate', 'error'];
  const logStatuses = ['sent', 'delivered', 'failed', 'undelivered', 'queued'];
  const base = Date.now() - N * 1000;
  for (let b = 0; b < N; b += 5000) {
    const c = [],
      l = [],
      e = [];
    for (let i = b; i < b + 5000; i++) {
      const ts = new Date(base + i * 1000);
      c.push({
        id: i + 1,
        phone: '+1555' + String(1000000 + i),
        contact_id: 'c' + i,
        funnel_id: 'spring',
        integration_id: i % 3 ? integrationId : null,
        first_name: 'Name' + i,
        email: `u${i}@example.com`,
        checkout_url: 'https://shop.example.com/checkout/' + i,
        status: statuses[i % 6],
        remind_at: ts,
        next_at: null,
        step: 1,
        sent_count: 1,
        last_sent_at: ts,
        purchased_at: null,
        created_at: ts,
        updated_at: ts,
      });
      l.push({
        id: i + 1,
        phone: '+1555' + String(1000000 + i),
        contact_id: 'c' + i,
        contact_ref: i + 1,
        integration_id: integrationId,
        template_id: 1,
        message: `Hi Name${i}, your cart is waiting: https://shop.example.com/checkout/${i}`,
        sequence_order: 1,
        status: logStatuses[i % 5],
        message_sid: 'SM' + i.toString(16).padStart(32, '0'),
        timestamp: ts,
        updated_at: ts,
        error_message: i % 5 === 2 ? 'Carrier rejected the message' : null,
      });
      e.push({
        id: i + 1,
        type: ['contact', 'purchase', 'sms_delivery', 'sms_reply'][i % 4],
        payload: JSON.stringify({
          event: 'contact.created',
          funnel_id: 'spring',
          contact: {
            id: 'c' + i,
            email: `u${i}@example.com`,
            phone: '+1555' + String(1000000 + i),
            first_name: 'Name' + i,
            checkout_url: 'https://shop.example.com/checkout/' + i,
          },
        }),
        timestamp: ts,
      });
    }
    await Promise.all([
      d.collection('sms_contacts').insertMany(c),
      d.collection('sms_logs').insertMany(l),
      d.collection('sms_webhook_events').insertMany(e),
    ]);
  }
  const time = async (path: string) => {
    const s = performance.now();
    const res = await call(svc.url, 'GET', path);
    const ms = performance.now() - s;
    if (res.status !== 200) throw new Error(`${path} ${res.status} ${res.text}`);
    return { ms, bytes: res.text.length };
  };
  const paths = process.env.ONLY
    ? [process.env.ONLY]
    : [
        '/api/sms-contacts',
        '/api/sms-contacts?page=1',
        '/api/sms-contacts?page=500&pageSize=100',
        '/api/sms-contacts?page=1&status=pending',
        '/api/sms-contacts?page=1&integration_id=none',
        '/api/sms-contacts?page=1&search=u4999',
        '/api/sms-contacts?page=1&search=spring%20launch',
        '/api/sms-logs',
        '/api/sms-logs?page=1',
        '/api/sms-logs?page=3&status=failed',
        '/api/sms-logs?page=1&search=carrier',
        '/api/sms-webhook-events',
        '/api/sms-webhook-events?page=1',
        '/api/sms-webhook-events?page=1&type=purchase',
        '/api/sms-webhook-events?page=1&search=c4999',
      ];
  for (const p of paths) await time(p); // warm-up (JIT of the stand-in and node)
  const results: Record<string, { median: number; max: number; bytes: number }> = {};
  for (const p of paths) {
    const runs = [];
    let bytes = 0;
    for (let k = 0; k < 7; k++) {
      const t = await time(p);
      runs.push(t.ms);
      bytes = t.bytes;
    }
    runs.sort((a, b) => a - b);
    results[p] = { median: Math.round(runs[3]!), max: Math.round(runs[6]!), bytes };
  }
  console.log(
    JSON.stringify({ N, load: (await import('node:os')).loadavg().map((x) => x.toFixed(1)), results }, null, 1),
  );
  await mongo.close();
  await svc.stop();
  await server.stop();
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
