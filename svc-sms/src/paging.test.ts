/**
 * The SMS lists over HTTP against the real service: the plain GET stays the spec's list (newest SMS_LIST_LIMIT
 * rows), and `?page=` answers one page with its total and the summary cards counted over every row, past the
 * limit too (the limit is 5 here, the rows 60). Rows are written straight into the service's database.
 */
import { MongoClient, type Db } from 'mongodb';
import { call, type ServiceProcess } from '@act/service-kit/testing';
import type {
  SmsContact,
  SmsContactPage,
  SmsLog,
  SmsLogPage,
  SmsWebhookEvent,
  SmsWebhookEventPage,
} from '@act/contracts/src/sms-api';
import { dropDb, dropStream, smsTestEnv, startSms, type SmsTestEnv } from './test/helpers';

jest.setTimeout(120_000);

const LIMIT = 5;
const N = 60;
let svc: ServiceProcess;
let t: SmsTestEnv;
let mongo: MongoClient;
let db: Db;
let integrationId: number;

const get = async <T>(path: string) => {
  const r = await call(svc.url, 'GET', path);
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
  return r.body as T;
};
// Within the retention period: logs and events older than it are left out of every list.
const base = Date.now() - 24 * 3600_000;
const at = (i: number) => new Date(base + i * 60_000);
const CONTACT_STATUSES = ['pending', 'sent', 'purchased', 'pending', 'abandoned', 'error', 'skipped_duplicate'];
const LOG_STATUSES = [
  'sent',
  'delivered',
  'failed',
  'undelivered',
  'queued',
  'pending',
  'skipped_duplicate',
  'blocked_toll_free',
];
const EVENT_TYPES = ['contact', 'contact', 'purchase', 'sms_delivery', 'sms_reply', 'handshake', 'invalid'];
const count = <T>(rows: T[], pred: (r: T, i: number) => boolean) => rows.filter(pred).length;
const range = Array.from({ length: N }, (_, i) => i);

beforeAll(async () => {
  t = smsTestEnv('paging', null, { SMS_LIST_LIMIT: String(LIMIT) });
  svc = await startSms(t);
  const r = await call(svc.url, 'POST', '/api/sms-webhook-integrations', {
    body: { name: 'Spring Launch', funnel_id: 'spring' },
  });
  integrationId = (r.body as { id: number }).id;
  mongo = await MongoClient.connect(t.env.MONGODB_URI!);
  db = mongo.db(t.db);
  await db.collection('sms_contacts').insertMany(
    range.map((i) => ({
      id: i + 1,
      phone: `+1555300${String(i).padStart(4, '0')}`,
      contact_id: `c-${i}`,
      funnel_id: i % 2 ? 'spring' : 'other',
      integration_id: i % 2 ? integrationId : null,
      first_name: i === 7 ? 'O.Brien (VIP)' : `Name${i}`,
      email: i === 11 ? 'Mixed.Case@Example.COM' : `person${i}@example.com`,
      checkout_url: null,
      status: CONTACT_STATUSES[i % CONTACT_STATUSES.length],
      remind_at: at(i + 30),
      next_at: null,
      step: 0,
      sent_count: 0,
      last_sent_at: null,
      purchased_at: null,
      created_at: at(i),
      updated_at: at(i),
    })),
  );
  await db.collection('sms_opt_outs').insertOne({ phone: '+15553000059', keyword: 'STOP', opted_out_at: at(0) });
  await db.collection('sms_logs').insertMany(
    range.map((i) => ({
      id: i + 1,
      phone: `+1555300${String(i).padStart(4, '0')}`,
      contact_id: i === 0 ? null : `c-${i}`,
      contact_ref: i + 1,
      integration_id: null,
      template_id: null,
      message: i === 5 ? 'Price: $5.00 (50% off)' : `Message ${i}`,
      sequence_order: 1,
      status: LOG_STATUSES[i % LOG_STATUSES.length],
      message_sid: `SM${i}`,
      timestamp: at(i),
      updated_at: at(i),
      error_message: i % 8 === 2 ? `Carrier error ${i}` : null,
    })),
  );
  await db.collection('sms_webhook_events').insertMany(
    range.map((i) => ({
      id: i + 1,
      type: EVENT_TYPES[i % EVENT_TYPES.length],
      payload: JSON.stringify({ event: 'x', contact: { id: `c-${i}`, note: i === 9 ? 'a.b*c' : 'plain' } }),
      timestamp: at(i),
    })),
  );
});
afterAll(async () => {
  await mongo?.close();
  await svc?.stop();
  await dropStream(t.natsPrefix);
  await dropDb(t.db);
});

describe('plain GET: the spec list', () => {
  it.each(['/api/sms-contacts', '/api/sms-logs', '/api/sms-webhook-events'])(
    '%s answers a plain array of the newest SMS_LIST_LIMIT rows',
    async (path) => {
      const rows = await get<{ id: number }[]>(path);
      expect(Array.isArray(rows)).toBe(true);
      expect(rows.map((r) => r.id)).toEqual([60, 59, 58, 57, 56]);
    },
  );
});

describe('GET /api/sms-contacts?page=', () => {
  it('pages past SMS_LIST_LIMIT with totals and cards over every contact', async () => {
    const cards = {
      total: N,
      pending: count(range, (i) => CONTACT_STATUSES[i % 7] === 'pending'),
      purchased: count(range, (i) => CONTACT_STATUSES[i % 7] === 'purchased'),
      sent: count(range, (i) => CONTACT_STATUSES[i % 7] === 'sent'),
      tests: 0,
    };
    const p1 = await get<SmsContactPage>('/api/sms-contacts?page=1');
    expect(p1).toMatchObject({ total: N, page: 1, pageSize: 50, summary: cards });
    expect(p1.items).toHaveLength(50);
    // The same rows in the same order as the plain list, with the same fields.
    expect(p1.items.slice(0, LIMIT)).toEqual(await get<SmsContact[]>('/api/sms-contacts'));
    expect(p1.items[0]).toMatchObject({ id: 60, opted_out: true, integration_name: 'Spring Launch' });
    expect(p1.items[1]).toMatchObject({ id: 59, opted_out: false, integration_name: null });

    const p3 = await get<SmsContactPage>('/api/sms-contacts?page=3&pageSize=25');
    expect(p3.items.map((c) => c.id)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(p3.summary).toEqual(cards);
    // A page past the end is empty, with the total.
    expect(await get<SmsContactPage>('/api/sms-contacts?page=9&pageSize=25')).toMatchObject({ items: [], total: N });
  });

  it('filters by status and integration; the cards stay over every contact', async () => {
    const pending = await get<SmsContactPage>('/api/sms-contacts?page=1&pageSize=100&status=pending');
    expect(pending.total).toBe(pending.summary.pending);
    expect(pending.items.every((c) => c.status === 'pending')).toBe(true);
    expect(pending.summary.total).toBe(N);

    const none = await get<SmsContactPage>('/api/sms-contacts?page=1&pageSize=100&integration_id=none');
    expect(none.total).toBe(N / 2);
    expect(none.items.every((c) => c.integration_id === null)).toBe(true);
    const one = await get<SmsContactPage>(
      `/api/sms-contacts?page=1&pageSize=100&integration_id=${integrationId}&status=sent`,
    );
    expect(one.total).toBe(count(range, (i) => i % 2 === 1 && CONTACT_STATUSES[i % 7] === 'sent'));
    expect(one.items.every((c) => c.integration_id === integrationId && c.status === 'sent')).toBe(true);
  });

  it('searches the page fields as plain, case-insensitive substrings, the integration name included', async () => {
    const ids = async (search: string, extra = '') =>
      (
        await get<SmsContactPage>(`/api/sms-contacts?page=1&pageSize=100&search=${encodeURIComponent(search)}${extra}`)
      ).items.map((c) => c.id);
    expect(await ids('+15553000042')).toEqual([43]);
    // Written as people write phone numbers.
    expect(await ids('(555) 300-0042')).toEqual([43]);
    expect(await ids('555.300.0042')).toEqual([43]);
    expect(await ids('+1 555 300 0042')).toEqual([43]);
    expect(await ids('mixed.case@example')).toEqual([12]);
    expect(await ids('o.brien (vip)')).toEqual([8]);
    // Regular-expression characters match themselves only.
    expect(await ids('o.b')).toEqual([8]);
    expect(await ids('n.me')).toEqual([]);
    expect(await ids('.*')).toEqual([]);
    expect(await ids('$where')).toEqual([]);
    expect(await ids('SPRING LAUNCH')).toHaveLength(N / 2);
    expect(await ids('c-1', '&status=pending')).toEqual(
      range
        .filter((i) => `c-${i}`.includes('c-1') && CONTACT_STATUSES[i % 7] === 'pending')
        .map((i) => i + 1)
        .reverse(),
    );
    const searched = await get<SmsContactPage>('/api/sms-contacts?page=1&search=person1');
    expect(searched.total).toBe(count(range, (i) => i !== 11 && `person${i}@`.includes('person1')));
    expect(searched.summary.total).toBe(N);
  });

  it.each([
    ['page=0', 'page must be a positive integer'],
    ['page=x', 'page must be a positive integer'],
    ['page=1&pageSize=30', 'pageSize must be one of: 25, 50, 100, 250, 500'],
    ['page=1&pageSize=-1', 'pageSize must be a positive integer'],
    ['page=1&status=shipped', 'status must be one of: pending, sent, purchased, abandoned, skipped_duplicate, error, opted_out'],
    [
      'page=1&status=pending&status=sent',
      'status must be one of: pending, sent, purchased, abandoned, skipped_duplicate, error, opted_out',
    ],
    ['page=1&integration_id=abc', 'integration_id must be a positive integer or none'],
    ['page=1&integration_id=0', 'integration_id must be a positive integer or none'],
    ['page=1&search=a&search=b', 'search must be a single text'],
    [`page=1&search=${'x'.repeat(201)}`, 'search must be at most 200 characters'],
    ['page=1&sort=phone', 'sort must be one of: created_at'],
    ['status=pending', 'page is required with status'],
    ['pageSize=25&search=x', 'page is required with pageSize, search'],
  ])('refuses ?%s', async (query, error) => {
    const r = await call(svc.url, 'GET', `/api/sms-contacts?${query}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error });
  });
});

describe('GET /api/sms-logs?page=', () => {
  const group = (i: number) => LOG_STATUSES[i % LOG_STATUSES.length]!;

  it('pages past SMS_LIST_LIMIT with the five cards over every log', async () => {
    const p2 = await get<SmsLogPage>('/api/sms-logs?page=2&pageSize=25');
    expect(p2.items.map((l) => l.id)).toEqual(
      range
        .slice(10, 35)
        .map((i) => i + 1)
        .reverse(),
    );
    expect(p2.total).toBe(N);
    expect(p2.summary).toEqual({
      total: N,
      // Sent: every message Twilio accepted (queued there, sent on or delivered).
      sent: count(range, (i) => ['queued', 'sent', 'delivered'].includes(group(i))),
      delivered: count(range, (i) => group(i) === 'delivered'),
      failed: count(range, (i) => ['failed', 'undelivered'].includes(group(i))),
      pending: count(range, (i) => ['queued', 'pending'].includes(group(i))),
    });
    const first = await get<SmsLogPage>('/api/sms-logs?page=1');
    expect(first.items.slice(0, LIMIT)).toEqual(await get<SmsLog[]>('/api/sms-logs'));
  });

  it('filters by status group and searches phone, contact, message, SID and error', async () => {
    const failed = await get<SmsLogPage>('/api/sms-logs?page=1&pageSize=100&status=failed');
    expect(failed.total).toBe(failed.summary.failed);
    expect(new Set(failed.items.map((l) => l.status))).toEqual(new Set(['failed', 'undelivered']));
    const pending = await get<SmsLogPage>('/api/sms-logs?page=1&pageSize=100&status=queued');
    expect(pending.total).toBe(pending.summary.pending);

    const ids = async (search: string) =>
      (await get<SmsLogPage>(`/api/sms-logs?page=1&search=${encodeURIComponent(search)}`)).items.map((l) => l.id);
    expect(await ids('$5.00 (50%')).toEqual([6]);
    expect(await ids('carrier ERROR 50')).toEqual([51]);
    expect(await ids('sm42')).toEqual([43]);
    expect(await ids('.')).toEqual([6]);
  });

  it.each([
    [
      'page=1&status=undelivered',
      'status must be one of: sent, delivered, failed, queued, skipped_duplicate, blocked_toll_free',
    ],
    ['page=1&pageSize=1000', 'pageSize must be one of: 25, 50, 100, 250, 500'],
    ['search=x', 'page is required with search'],
  ])('refuses ?%s', async (query, error) => {
    const r = await call(svc.url, 'GET', `/api/sms-logs?${query}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error });
  });
});

describe('GET /api/sms-webhook-events?page=', () => {
  it('pages past SMS_LIST_LIMIT with a count per type over every event', async () => {
    const p = await get<SmsWebhookEventPage>('/api/sms-webhook-events?page=2&pageSize=50');
    expect(p.items.map((e) => e.id)).toEqual(
      range
        .slice(0, 10)
        .map((i) => i + 1)
        .reverse(),
    );
    expect(p.total).toBe(N);
    const byType: Record<string, number> = {};
    for (const i of range) byType[EVENT_TYPES[i % 7]!] = (byType[EVENT_TYPES[i % 7]!] ?? 0) + 1;
    expect(p.summary).toEqual({ total: N, by_type: byType });
    const first = await get<SmsWebhookEventPage>('/api/sms-webhook-events?page=1');
    expect(first.items.slice(0, LIMIT)).toEqual(await get<SmsWebhookEvent[]>('/api/sms-webhook-events'));
  });

  it('filters by type and searches type and payload', async () => {
    const purchases = await get<SmsWebhookEventPage>('/api/sms-webhook-events?page=1&pageSize=100&type=purchase');
    expect(purchases.total).toBe(purchases.summary.by_type.purchase);
    expect(purchases.items.every((e) => e.type === 'purchase')).toBe(true);
    const ids = async (search: string) =>
      (await get<SmsWebhookEventPage>(`/api/sms-webhook-events?page=1&search=${encodeURIComponent(search)}`)).items.map(
        (e) => e.id,
      );
    expect(await ids('A.B*C')).toEqual([10]);
    expect(await ids('"c-42"')).toEqual([43]);
    expect((await ids('SMS_REPLY')).length).toBe(count(range, (i) => EVENT_TYPES[i % 7] === 'sms_reply'));
  });

  it.each([
    ['page=1&type=other', 'type must be one of: contact, purchase, sms_delivery, sms_reply, handshake, invalid, ignored, rejected'],
    ['type=contact', 'page is required with type'],
  ])('refuses ?%s', async (query, error) => {
    const r = await call(svc.url, 'GET', `/api/sms-webhook-events?${query}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error });
  });
});
