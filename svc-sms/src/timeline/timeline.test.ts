import { MongoClient } from 'mongodb';
import { call, type ServiceProcess } from '@act/service-kit/testing';
import type { TimelineEntry, TimelinePart } from '@act/contracts/src/timeline';
import { createFunnel, postContact, sleep, smsTestEnv, startSms, waitFor, type SmsTestEnv } from '../test/helpers';

let t: SmsTestEnv;
let svc: ServiceProcess;
let client: MongoClient;

beforeAll(async () => {
  t = smsTestEnv('timeline', null);
  svc = await startSms(t);
  client = await MongoClient.connect(t.env.MONGODB_URI!);
  // The first message is due in ten test minutes: the stories below are made of what the test writes.
  await createFunnel(svc.url, 'shop', [{ message: 'Your cart is waiting {{firstName}}' }], 600);
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await client?.db(t.db).dropDatabase();
  await client?.close();
});

const db = () => client.db(t.db);
const part = async (query: string) => {
  const r = await call(svc.url, 'GET', `/internal/timeline?${query}`);
  expect([query, r.status]).toEqual([query, 200]);
  return r.body as TimelinePart;
};
const smsContact = async (contactId: string) => (await db().collection('sms_contacts').findOne({ contact_id: contactId }))! as unknown as { id: number; phone: string };
const isNewestFirst = (entries: TimelineEntry[]) =>
  entries.every((e, i) => i === 0 || Date.parse(entries[i - 1]!.at) > Date.parse(e.at) || (entries[i - 1]!.at === e.at && entries[i - 1]!.key > e.key));

describe('GET /internal/timeline (the SMS side of a contact page)', () => {
  it('tells a person\'s story on this side: the delivery, messages sent, held and skipped with the reason, Twilio\'s report, the opt-out and the purchase', async () => {
    expect((await postContact(svc.url, 'shop', 'ann-1', '(555) 010-2000', { email: 'ann@example.com' })).status).toBe(200);
    const ann = await smsContact('ann-1');
    expect(ann.phone).toBe('+15550102000');
    const t0 = Date.now() - 3_600_000;
    const log = (id: number, minutes: number, status: string, extra: Record<string, unknown> = {}) => ({
      id,
      phone: ann.phone,
      contact_id: 'ann-1',
      contact_ref: ann.id,
      integration_id: null,
      template_id: 1,
      message: 'Your cart is waiting Ann',
      sequence_order: 1,
      status,
      message_sid: null,
      timestamp: new Date(t0 + minutes * 60_000),
      updated_at: new Date(t0 + minutes * 60_000),
      error_message: null,
      ...extra,
    });
    await db().collection('sms_logs').insertMany([
      log(501, 1, 'held_blackout', { held_until: new Date(t0 + 5 * 60_000), error_message: 'Held by the blackout window' }),
      log(502, 5, 'delivered', { message_sid: 'SM1', updated_at: new Date(t0 + 6 * 60_000) }),
      log(503, 10, 'skipped_duplicate', { sequence_order: 2, error_message: 'This phone already has a sequence' }),
    ]);
    await db().collection('sms_opt_outs').insertOne({ phone: ann.phone, keyword: 'STOP', opted_out_at: new Date(t0 + 20 * 60_000) });
    await sleep(5);
    const purchase = await call(svc.url, 'POST', '/api/sms/webhook', {
      user: null,
      body: { event: 'purchase_created', funnel_id: 'shop', contact: { id: 'ann-1', phone: '+15550102000' }, purchase: { amount: 20, currency: 'EUR' } },
    });
    expect(purchase.status).toBe(200);
    // The ledger hears the purchase over NATS.
    await waitFor(async () => (await part(`contact=${ann.id}`)).entries.some((e) => e.kind === 'purchase'), 20_000);
    // A stranger's number is not in Ann's story.
    await postContact(svc.url, 'shop', 'bob-1', '(555) 010-3000');

    const body = await part(`contact=${ann.id}`);
    expect(body.contact).toMatchObject({ side: 'sms', id: ann.id, contact_id: 'ann-1', phone: '+15550102000', email: 'ann@example.com', funnel_id: 'shop', integration_name: 'Integration shop' });
    expect(isNewestFirst(body.entries)).toBe(true);
    expect(body.entries.map((e) => `${e.kind}:${e.status}`)).toEqual([
      'delivery:purchase',
      'purchase:purchased',
      'delivery:contact',
      'opt_out:STOP',
      'message:skipped_duplicate',
      'provider:delivered',
      'message:sent',
      'message:held_blackout',
    ]);
    const byStatus = (s: string) => body.entries.find((e) => e.status === s)!;
    expect(byStatus('contact')).toMatchObject({ side: 'sms', title: 'Delivery received: contact created on the SMS webhook', source: 'generic', verification: 'unsigned' });
    expect(byStatus('held_blackout').title).toBe(`SMS held by the blackout until ${new Date(t0 + 5 * 60_000).toISOString()} (step 1)`);
    expect(byStatus('skipped_duplicate')).toMatchObject({ title: 'SMS skipped: this phone already has a sequence (step 2)', detail: 'This phone already has a sequence' });
    expect(byStatus('delivered')).toMatchObject({ title: 'Twilio: delivered', at: new Date(t0 + 6 * 60_000).toISOString() });
    expect(byStatus('STOP').title).toBe('Opted out of SMS (replied STOP)');
    // The rows above were written here, not sent: the ledger heard of no reminder to credit.
    expect(byStatus('purchased')).toMatchObject({ amount: 20, currency: 'EUR', attributed: null, title: 'Purchase (no reminder within the attribution window)' });

    // Asked by the person as the email side knows them: any of the names finds the same story.
    for (const q of ['phone=%2B1%20555%20010%202000', 'contact_key=shop%3Aann-1', 'email=ann%40example.com']) {
      const byPerson = await part(q);
      expect([q, byPerson.contact, byPerson.entries.map((e) => e.key)]).toEqual([q, null, body.entries.map((e) => e.key)]);
    }
    expect((await part('phone=%2B15550109999')).entries).toEqual([]);
    // The SMS Logs rows name the contact's number, for their link to this page.
    const logs = (await call(svc.url, 'GET', '/api/sms-logs')).body as { id: number; contact_ref: number | null }[];
    expect(logs.filter((l) => l.id >= 501 && l.id <= 503).map((l) => l.contact_ref)).toEqual([ann.id, ann.id, ann.id]);
  });

  it('pages 1,000 entries of one person newest first with a cursor, each page quickly, none twice, none missed', async () => {
    await postContact(svc.url, 'shop', 'dee-1', '(555) 010-4000');
    const dee = await smsContact('dee-1');
    const base = Date.now() - 10 * 86_400_000;
    // 999 messages (a third of them at a shared instant, as a burst writes them), plus the delivery: 1,000 entries.
    await db()
      .collection('sms_logs')
      .insertMany(
        Array.from({ length: 999 }, (_, i) => ({
          id: 100_000 + i,
          phone: dee.phone,
          contact_id: 'dee-1',
          contact_ref: dee.id,
          integration_id: null,
          template_id: 1,
          message: `Message ${i}`,
          sequence_order: 1,
          status: i % 3 ? 'sent' : 'skipped_no_link',
          message_sid: i % 3 ? `SM${i}` : null,
          timestamp: new Date(base + Math.floor(i / 3) * 60_000),
          updated_at: new Date(base + Math.floor(i / 3) * 60_000),
          error_message: null,
        })),
      );
    const seen: string[] = [];
    let before = '';
    let slowest = 0;
    for (let pages = 0; pages < 50; pages++) {
      const started = performance.now();
      const r = await call(svc.url, 'GET', `/internal/timeline?contact=${dee.id}&limit=200${before ? `&before=${encodeURIComponent(before)}` : ''}`);
      slowest = Math.max(slowest, performance.now() - started);
      expect(r.status).toBe(200);
      const page = r.body as TimelinePart;
      expect(isNewestFirst(page.entries)).toBe(true);
      seen.push(...page.entries.map((e) => e.key));
      if (!page.more) break;
      const last = page.entries[page.entries.length - 1]!;
      before = `${Date.parse(last.at)}~${last.key}`;
    }
    expect(seen).toHaveLength(1000);
    expect(new Set(seen).size).toBe(1000);
    expect(slowest).toBeLessThan(2_000);
  });

  it('refuses bad questions with a 400, an unknown contact with a 404, and a call without the gateway\'s identity', async () => {
    for (const q of ['', 'contact=-1', 'limit=abc&contact=1', 'before=1~%24where&contact=1']) {
      const r = await call(svc.url, 'GET', `/internal/timeline?${q}`);
      expect([q, r.status, typeof r.body.error]).toEqual([q, 400, 'string']);
    }
    expect((await call(svc.url, 'GET', '/internal/timeline?contact=987654')).status).toBe(404);
    expect((await call(svc.url, 'GET', '/internal/timeline?contact=1', { user: null })).status).toBe(401);
  });
});
