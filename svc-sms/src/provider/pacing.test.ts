/**
 * Twilio's per-sender pace (TWILIO_MAX_MPS), shared by every instance: the pacer's slots never collide across two
 * connections, and two svc-sms instances sending one campaign to contacts due at once stay under the rate, each
 * text once, the ones left over waiting for the sender's next free second instead of holding their lease.
 */
import mongoose, { type Connection } from 'mongoose';
import type { SmsContact } from '@act/contracts/src/sms-api';
import { call, testDbName, type ServiceProcess } from '@act/service-kit/testing';
import { startFakeTwilio, type FakeTwilio } from '@act/testing';
import { SenderPacer, defaultMessagesPerSecond } from './pacing';
import {
  configureSending,
  createFunnel,
  dropDb,
  dropStream,
  postContact,
  smsTestEnv,
  startSms,
  waitFor,
  waitUntilSequencesClosed,
  type SmsTestEnv,
} from '../test/helpers';

jest.setTimeout(120_000);

const MONGODB_URI = process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017';

describe('SenderPacer', () => {
  const db = testDbName('sms_pacer');
  let a: Connection;
  let b: Connection;
  beforeAll(async () => {
    [a, b] = await Promise.all([
      mongoose.createConnection(MONGODB_URI, { dbName: db }).asPromise(),
      mongoose.createConnection(MONGODB_URI, { dbName: db }).asPromise(),
    ]);
  });
  afterAll(async () => {
    await a?.dropDatabase().catch(() => undefined);
    await Promise.all([a?.close(), b?.close()]);
  });

  it('hands out distinct slots one interval apart across instances, and no more than fit before the deadline', async () => {
    // A clock that stands still: the slots depend on the reservations alone, not on how long the machine takes to
    // make them (on a loaded machine that may be seconds, after which the sender is no longer busy past a deadline
    // read from the wall clock).
    const t0 = Date.now();
    const clock = () => new Date(t0);
    const pacers = [new SenderPacer(a, () => 4, clock), new SenderPacer(b, () => 4, clock)];
    const until = new Date(t0 + 60_000);
    const got = await Promise.all(
      Array.from({ length: 8 }, (_, i) => pacers[i % 2]!.reserve('+15005550006', 3, until)),
    );
    const slots = got.flatMap((r) => r.slots.map((d) => d.getTime())).sort((x, y) => x - y);
    // Exactly the next 24 quarter seconds from now, each handed out once.
    expect(slots).toEqual(Array.from({ length: 24 }, (_, i) => t0 + i * 250));
    // Busy for 6 s now: within the next 2 s there is no room, and the answer says when there is.
    const none = await pacers[0]!.reserve('+15005550006', 5, new Date(t0 + 2_000));
    expect(none.slots).toEqual([]);
    expect(none.nextFree.getTime()).toBe(t0 + 24 * 250);
    // Up to a deadline 6.5 s ahead: room for exactly the slots at 6 s and 6.25 s and 6.5 s.
    expect((await pacers[1]!.reserve('+15005550006', 5, new Date(t0 + 6_500))).slots.map((d) => d.getTime())).toEqual([
      t0 + 6_000,
      t0 + 6_250,
      t0 + 6_500,
    ]);
    // Another sender has its own pace.
    expect((await pacers[1]!.reserve('+15005550007', 2, until)).slots).toHaveLength(2);
  });

  it('gives every one of many reservations made at once, from two instances, a slot of its own', async () => {
    const t0 = Date.now();
    const clock = () => new Date(t0);
    const pacers = [new SenderPacer(a, () => 10, clock), new SenderPacer(b, () => 10, clock)];
    const until = new Date(t0 + 600_000);
    // As many bursts reserving for one sender at once as two instances under load run: each read-and-set that
    // loses to another tries again, not in step with the others.
    const got = await Promise.all(Array.from({ length: 80 }, (_, i) => pacers[i % 2]!.reserve('+15005550010', 1, until)));
    const slots = got.flatMap((r) => r.slots.map((d) => d.getTime())).sort((x, y) => x - y);
    expect(slots).toEqual(Array.from({ length: 80 }, (_, i) => t0 + i * 100));
  });

  it('spends the slots of refused attempts on the slots ahead, spread over the next 2 s and at most a fifth closer, and drops them once idle', async () => {
    let t = Date.now();
    const clock = () => new Date(t);
    const [p, q] = [new SenderPacer(a, () => 10, clock), new SenderPacer(b, () => 10, clock)];
    const sender = '+15005550016';
    const until = new Date(t + 60_000);
    const first = await p.reserve(sender, 10, until);
    expect(first.slots.map((d) => d.getTime() - t)).toEqual(Array.from({ length: 10 }, (_, i) => i * 100));
    // Two of them refused (from either instance): 200 ms of the pace unused, to be spread over the next 2 s (20
    // slots at 10/s): 10 ms off each of the next 10 slots, then 5 ms off each (half the credit is left), ...
    await Promise.all([p.refund(sender), q.refund(sender)]);
    const gaps = (r: { slots: Date[] }) => r.slots.slice(1).map((d, i) => d.getTime() - r.slots[i]!.getTime());
    const second = await q.reserve(sender, 10, until);
    expect(second.slots[0]!.getTime() - t).toBe(1000);
    expect(gaps(second)).toEqual(Array(9).fill(90));
    const third = await p.reserve(sender, 10, until);
    expect(third.slots[0]!.getTime() - t).toBe(1900);
    expect(gaps(third)).toEqual(Array(9).fill(95));
    // However much was refused, slots come at most a fifth closer than the rate (no burst after a run of refusals),
    // and the credit stops growing at a second of the pace.
    await p.refund(sender, 1000);
    await p.refund(sender, 5);
    expect((await a.db!.collection('sms_send_pace').findOne({ _id: sender as never }))?.credit_ms).toBeLessThan(1_100);
    expect(gaps(await q.reserve(sender, 10, until))).toEqual(Array(9).fill(80));
    // The backlog passes and the sender rests: the credit is not carried into an idle pace (that time is gone), nor
    // given at all while there is no backlog.
    t += 20_000;
    await p.refund(sender, 4);
    expect(gaps(await q.reserve(sender, 5, new Date(t + 60_000)))).toEqual(Array(4).fill(100));
    expect(gaps(await q.reserve(sender, 5, new Date(t + 60_000)))).toEqual(Array(4).fill(100));
  });

  it('gives a retry its slot at once, after its backoff, while there is credit for a whole interval; else behind the pace', async () => {
    const t = Date.now();
    const clock = () => new Date(t);
    const p = new SenderPacer(a, () => 10, clock);
    const sender = '+15005550026';
    const until = new Date(t + 60_000);
    await p.reserve(sender, 50, until); // a backlog: the next free slot is 5 s ahead
    await p.refund(sender); // one refused attempt: 100 ms of credit
    // The retry whose backoff ends in 300 ms leaves then, not 5 s from now, and spends the credit.
    expect((await p.retrySlot(sender, new Date(t + 300), until))?.getTime()).toBe(t + 300);
    // No credit left: the next one waits for the pace like a first attempt.
    expect((await p.retrySlot(sender, new Date(t + 300), until))?.getTime()).toBe(t + 5_000);
    // Nor is credit of less than an interval enough.
    await p.refund(sender);
    await p.reserve(sender, 10, until); // spends part of it spacing these slots
    expect((await p.retrySlot(sender, new Date(t + 300), until))?.getTime()).toBeGreaterThanOrEqual(t + 5_100);
  });

  it('defaults by the kind of sender (long code 1/s, toll-free 3/s, short code 100/s)', () => {
    expect(defaultMessagesPerSecond('+15005550006')).toBe(1);
    expect(defaultMessagesPerSecond('+18885550006')).toBe(3);
    expect(defaultMessagesPerSecond('55555')).toBe(100);
    expect(defaultMessagesPerSecond(`MG${'a'.repeat(32)}`)).toBe(1);
  });
});

describe('two instances sending at the sender pace', () => {
  const MPS = 2;
  const N = 10;
  let twilio: FakeTwilio;
  let t: SmsTestEnv;
  let x: ServiceProcess;
  let y: ServiceProcess;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    // A lease of 4 s: a burst may keep slots for 2 s only, so most steps go back to waiting for the sender's room.
    t = smsTestEnv('paced', twilio, { TWILIO_MAX_MPS: String(MPS), SMS_STEP_LEASE_MS: '4000', SMS_DUE_SCAN_MS: '200' });
    [x, y] = await Promise.all([startSms(t), startSms(t)]);
    await configureSending(x.url);
  });
  afterAll(async () => {
    await Promise.all([x?.stop(), y?.stop()]);
    await twilio?.stop();
    await dropStream(t.natsPrefix);
    await dropDb(t.db);
  });

  it(`sends ${N} texts due at once no faster than ${MPS} a second, each once`, async () => {
    await createFunnel(x.url, 'paced-funnel', [{ message: 'Paced {first_name}' }], 1);
    const phone = (i: number) => `+1555206${String(i).padStart(4, '0')}`;
    const posted = Date.now();
    await Promise.all(
      Array.from({ length: N }, (_, i) => postContact(i % 2 ? x.url : y.url, 'paced-funnel', `pc-${i}`, phone(i))),
    );
    const ours = () => twilio.messages.filter((m) => m.to.startsWith('+1555206'));
    await waitFor(async () => ours().length >= N, 60_000);
    // The positive control of "each once": every sequence is closed, and every slot either instance reserved on the
    // sender's pace has come (so no text holding one is still waiting to leave).
    await waitUntilSequencesClosed(x.url, (c) => c.contact_id.startsWith('pc-'), N);
    const pace = mongoose.createConnection(MONGODB_URI, { dbName: t.db });
    try {
      await pace.asPromise();
      await waitFor(async () => {
        const doc = await pace
          .db!.collection<{ _id: string; next_at: Date }>('sms_send_pace')
          .findOne({ _id: '+15005550006' });
        return doc !== null && doc.next_at.getTime() <= Date.now();
      }, 30_000);
    } finally {
      await pace.close();
    }
    const sent = ours();
    expect(new Set(sent.map((m) => m.to)).size).toBe(N);
    expect(sent).toHaveLength(N);
    // The pace, from the slots taken rather than from how evenly a loaded machine let the texts leave: slots are
    // 1/MPS s apart and the first is no earlier than the first due time (created + 1 s), and a text never leaves
    // before its slot, so the k-th text to arrive came no earlier than k slots after that. A machine too busy to
    // send on time only makes texts later (and may bunch them after a stall: no upper bound on a window here, the
    // pacer's own test above checks the spacing of the slots). Unpaced, all ten arrive about 1 s after posting.
    const times = sent.map((m) => m.at).sort((p, q) => p - q);
    // (5 ms: a timer may fire a millisecond before the wall clock says its time has come.)
    times.forEach((at, k) => expect(at).toBeGreaterThanOrEqual(posted + 1000 + (k * 1000) / MPS - 5));
    const contacts = (await call(x.url, 'GET', '/api/sms-contacts')).body as SmsContact[];
    expect(contacts.filter((c) => c.contact_id.startsWith('pc-')).map((c) => c.status)).toEqual(Array(N).fill('sent'));
  });
});
