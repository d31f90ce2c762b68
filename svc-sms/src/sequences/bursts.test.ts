/**
 * Due steps handled in bursts (one set of reads and writes for many contacts, the provider calls side by side), by
 * two instances on one database: each contact's outcome is its own (sent, duplicate phone, toll-free, refused,
 * purchased, opted out), and every (contact, template) goes out at most once.
 */
import type { SmsContact, SmsLog } from '@act/contracts/src/sms-api';
import { MongoClient } from 'mongodb';
import { call, type ServiceProcess } from '@act/service-kit/testing';
import { startFakeTwilio, type FakeTwilio } from '@act/testing';
import {
  configureSending,
  createFunnel,
  dropDb,
  dropStream,
  postContact,
  waitUntilSequencesClosed,
  smsTestEnv,
  startSms,
  waitFor,
  type SmsTestEnv,
} from '../test/helpers';

// Starting the service takes a while on a loaded machine (tsx, the twilio SDK, Agenda).
jest.setTimeout(120_000);

let twilio: FakeTwilio;
let a: ServiceProcess;
let b: ServiceProcess;
let t: SmsTestEnv;
let mongo: MongoClient;

beforeAll(async () => {
  twilio = await startFakeTwilio();
  // Small bursts, so one due minute is several of them; both instances also scan often and collide.
  t = smsTestEnv('burst', twilio, { SMS_DUE_BURST: '16', SMS_DUE_SCAN_MS: '50' });
  [a, b] = await Promise.all([startSms(t), startSms(t)]);
  await configureSending(a.url);
  mongo = await MongoClient.connect(t.env.MONGODB_URI!);
});
afterAll(async () => {
  await mongo?.close();
  await Promise.all([a?.stop(), b?.stop()]);
  await twilio?.stop();
  await dropStream(t.natsPrefix);
  await dropDb(t.db);
});

const contacts = async (prefix: string) =>
  ((await call(b.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).filter((c) => c.contact_id.startsWith(prefix));
const logs = async (prefix: string) =>
  ((await call(a.url, 'GET', '/api/sms-logs')).body as SmsLog[]).filter((l) => l.contact_id?.startsWith(prefix));
const bodiesByPhone = (phones: Set<string>) => {
  const by = new Map<string, string[]>();
  for (const m of twilio.messages) if (phones.has(m.to)) by.set(m.to, [...(by.get(m.to) ?? []), m.body]);
  return by;
};

it('sends a burst of due contacts once each, with its duplicates, toll-free numbers and refusals handled per contact', async () => {
  await createFunnel(a.url, 'burst-funnel', [{ message: 'One {first_name}' }, { message: 'Two', delay_minutes: 1 }], 2);
  const phone = (i: number) => `+1555206${String(i).padStart(4, '0')}`;
  const N = 60;
  const posts: Promise<unknown>[] = [];
  for (let i = 0; i < N; i++) posts.push(postContact(i % 2 ? a.url : b.url, 'burst-funnel', `b-${i}`, phone(i)));
  // Same phone as b-0..b-2, other funnel contacts of the integration: one of each pair is messaged.
  for (let i = 0; i < 3; i++) posts.push(postContact(i % 2 ? b.url : a.url, 'burst-funnel', `b-dup-${i}`, phone(i)));
  for (let i = 0; i < 2; i++) posts.push(postContact(a.url, 'burst-funnel', `b-tf-${i}`, `+1800555${1000 + i}`));
  twilio.refuse.add(phone(900));
  twilio.refuse.add(phone(901));
  for (const i of [900, 901]) posts.push(postContact(b.url, 'burst-funnel', `b-bad-${i}`, phone(i)));
  await Promise.all(posts);

  const phones = new Set(Array.from({ length: N }, (_, i) => phone(i)));
  await twilio.waitForMessages(2 * N, 60_000);
  // The positive control: every contact's sequence is closed (both steps sent, or skipped, blocked or refused).
  await waitUntilSequencesClosed(b.url, (c) => c.contact_id.startsWith('b-'), N + 3 + 2 + 2);
  const by = bodiesByPhone(phones);
  expect(by.size).toBe(N);
  for (const bodies of by.values()) expect(bodies).toEqual(['One Jane', 'Two']);
  expect(twilio.messages.filter((m) => /^\+1800/.test(m.to) || m.to === phone(900) || m.to === phone(901))).toEqual([]);

  const all = await contacts('b-');
  expect(all).toHaveLength(N + 3 + 2 + 2);
  const status = (id: string) => all.find((c) => c.contact_id === id)!.status;
  for (let i = 0; i < 3; i++) {
    // Whichever of the two reached its step first owns the phone.
    expect([status(`b-${i}`), status(`b-dup-${i}`)].sort()).toEqual(['sent', 'skipped_duplicate']);
  }
  for (let i = 3; i < N; i++) expect(status(`b-${i}`)).toBe('sent');
  expect(all.filter((c) => c.status === 'sent').every((c) => c.messages_sent === 2 && !c.next_send_at)).toBe(true);
  expect([status('b-tf-0'), status('b-tf-1'), status('b-bad-900'), status('b-bad-901')]).toEqual([
    'abandoned',
    'abandoned',
    'error',
    'error',
  ]);

  const rows = await logs('b-');
  const count = (s: string) => rows.filter((l) => l.status === s).length;
  expect(count('queued')).toBe(2 * N);
  expect(count('skipped_duplicate')).toBe(3);
  expect(count('blocked_toll_free')).toBe(2);
  expect(rows.filter((l) => l.status === 'failed').map((l) => l.error_message)).toEqual([
    expect.stringContaining('is not a valid phone number'),
    expect.stringContaining('is not a valid phone number'),
  ]);
  expect(rows).toHaveLength(2 * N + 3 + 2 + 2);
  // One log id each, message sids as Twilio answered.
  expect(new Set(rows.map((l) => l.id)).size).toBe(rows.length);
  const sids = new Set(twilio.messages.map((m) => m.sid));
  expect(rows.filter((l) => l.status === 'queued').every((l) => sids.has(l.message_sid!))).toBe(true);
});

it('leaves out of a burst the contacts purchased or opted out before their step, and sends the rest of it', async () => {
  await createFunnel(a.url, 'burst-stop-funnel', [{ message: 'Hello' }], 6);
  const phone = (i: number) => `+1555207${String(i).padStart(4, '0')}`;
  const N = 30;
  const created = await Promise.all(
    Array.from({ length: N }, (_, i) => postContact(i % 2 ? a.url : b.url, 'burst-stop-funnel', `s-${i}`, phone(i))),
  );
  const ids = created.map((r) => (r as { body: { id: number } }).body.id);
  // Purchased through either instance; opted out behind the service's back (a STOP row only: the contacts stay
  // open, so the burst's own opt-out check is what keeps them from being messaged).
  const purchased = [0, 3, 6, 9, 12, 15, 18, 21, 24, 27];
  const optedOut = [1, 4, 7, 10, 13, 16, 19, 22, 25, 28];
  await Promise.all(
    purchased.map((i) =>
      call(i % 2 ? a.url : b.url, 'POST', '/api/sms-contacts/mark-purchased', { body: { contact_id: ids[i] } }),
    ),
  );
  await mongo
    .db(t.db)
    .collection('sms_opt_outs')
    .insertMany(optedOut.map((i) => ({ phone: phone(i), keyword: 'STOP', opted_out_at: new Date() })));
  const rest = Array.from({ length: N }, (_, i) => i).filter((i) => !purchased.includes(i) && !optedOut.includes(i));
  const before = await contacts('s-');
  // Still ahead of their step: the test is about the burst, not about a step that went out first.
  expect(before.every((c) => c.status === 'pending' || c.status === 'purchased')).toBe(true);
  expect(before.filter((c) => c.status === 'pending').every((c) => c.messages_sent === 0)).toBe(true);

  await waitFor(async () => bodiesByPhone(new Set(rest.map(phone))).size === rest.length, 30_000);
  await waitFor(
    async () => (await contacts('s-')).filter((c) => c.status === 'opted_out').length === optedOut.length,
    15_000,
  );
  // The positive control: every contact's sequence is closed (sent, purchased or opted out).
  await waitUntilSequencesClosed(b.url, (c) => c.contact_id.startsWith('s-'), N);
  const by = bodiesByPhone(new Set(Array.from({ length: N }, (_, i) => phone(i))));
  expect([...by.keys()].sort()).toEqual(rest.map(phone).sort());
  for (const bodies of by.values()) expect(bodies).toEqual(['Hello']);
  const after = await contacts('s-');
  const of = (i: number) => after.find((c) => c.contact_id === `s-${i}`)!;
  for (const i of purchased) expect(of(i)).toMatchObject({ status: 'purchased', messages_sent: 0 });
  for (const i of optedOut)
    expect(of(i)).toMatchObject({ status: 'opted_out', messages_sent: 0, opted_out: true, next_send_at: null });
  for (const i of rest) expect(of(i)).toMatchObject({ status: 'sent', messages_sent: 1, next_send_at: null });
  expect((await logs('s-')).map((l) => l.phone).sort()).toEqual(rest.map(phone).sort());
});

it('settles the claims of an attempt interrupted mid-burst: sends what had not gone out, logs what had, never twice', async () => {
  const { templates } = await createFunnel(a.url, 'burst-crash-funnel', [{ message: 'Back {first_name}' }], 5);
  const phone = (i: number) => `+1555208${String(i).padStart(4, '0')}`;
  const N = 12;
  const created = await Promise.all(
    Array.from({ length: N }, (_, i) => postContact(i % 2 ? a.url : b.url, 'burst-crash-funnel', `k-${i}`, phone(i))),
  );
  const ids = created.map((r) => (r as { body: { id: number } }).body.id);
  // An attempt claimed contacts 0-5 and died (long enough ago that it cannot still be sending): before calling
  // Twilio for 0-3, after Twilio took the message for 4-5. It had taken them first: its lease id is on them.
  const claimedAt = new Date(Date.now() - 10 * 60_000);
  await mongo
    .db(t.db)
    .collection('sms_sends')
    .insertMany(
      [0, 1, 2, 3, 4, 5].map((i) => ({
        contact_ref: ids[i],
        template_id: templates[0].id,
        step: 0,
        claimed_at: claimedAt,
      })),
    );
  await mongo
    .db(t.db)
    .collection('sms_contacts')
    .updateMany({ id: { $in: [0, 1, 2, 3, 4, 5].map((i) => ids[i]) } }, { $set: { lease_id: 'the-attempt-that-died' } });
  const gone = [4, 5].map((i) => ({
    sid: `SM${String(i).padStart(32, '0')}`,
    accountSid: twilio.accountSid,
    to: phone(i),
    from: '+15005550006',
    messagingServiceSid: null,
    body: 'Back Jane',
    statusCallback: null,
    at: Date.now(),
    host: 'api.twilio.com',
  }));
  twilio.messages.push(...gone);

  await waitFor(async () => {
    const all = await contacts('k-');
    return all.length === N && all.every((c) => c.status === 'sent');
  }, 30_000);
  // The positive control: every sequence (one template) is closed.
  await waitUntilSequencesClosed(b.url, (c) => c.contact_id.startsWith('k-'), N);
  const by = bodiesByPhone(new Set(ids.map((_, i) => phone(i))));
  expect(by.size).toBe(N);
  for (const bodies of by.values()) expect(bodies).toEqual(['Back Jane']);
  expect((await contacts('k-')).every((c) => c.messages_sent === 1 && !c.next_send_at)).toBe(true);
  const rows = await logs('k-');
  expect(rows).toHaveLength(N);
  expect(
    rows
      .filter((l) => l.contact_id === 'k-4' || l.contact_id === 'k-5')
      .map((l) => l.message_sid)
      .sort(),
  ).toEqual(gone.map((m) => m.sid).sort());
});
