/**
 * A retry takes a slot of the sender's pace like a first attempt (in bench:delivery, a retry sent right after its
 * backoff, outside the pace, is an over-the-rate 429): the provider waits for the slot it is given, and the pacer
 * hands out none before a retry's backoff ends.
 */
import mongoose, { type Connection } from 'mongoose';
import { testDbName } from '@act/service-kit/testing';
import { startFakeTwilio, type FakeTwilio } from '@act/testing';
import { createTwilioProvider } from './twilio';
import { SenderPacer } from './pacing';

jest.setTimeout(60_000);

describe('a retried text and the sender pace', () => {
  let twilio: FakeTwilio;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
  });
  afterAll(() => twilio?.stop());

  const provider = () =>
    createTwilioProvider({
      accountSid: twilio.accountSid,
      authToken: twilio.authToken,
      baseUrl: twilio.url,
      retryDeadlineMs: 20_000,
      retryBaseMs: 50,
    });

  it('leaves at the slot the pace gives it, asked for once the backoff is over', async () => {
    twilio.failNext(429, 1);
    const asked: { notBefore: number; until: number; at: number }[] = [];
    const started = Date.now();
    let slot = 0;
    const sent = await provider().send({
      to: '+15552080001',
      body: 'Hi',
      from: '+15005550006',
      retrySlot: async (notBefore, until) => {
        asked.push({ notBefore: notBefore.getTime(), until: until.getTime(), at: Date.now() });
        slot = notBefore.getTime() + 1_500;
        return new Date(slot);
      },
    });
    expect(sent.sid).toMatch(/^SM/);
    const to = twilio.messages.filter((m) => m.to === '+15552080001');
    expect(to).toHaveLength(1);
    expect(asked).toHaveLength(1);
    // The backoff (50 ms, jitter halving it at most) is what the slot may not come before.
    expect(asked[0]!.notBefore).toBeGreaterThanOrEqual(asked[0]!.at + 20);
    expect(asked[0]!.until).toBeGreaterThan(asked[0]!.notBefore);
    expect(to[0]!.at).toBeGreaterThanOrEqual(slot);
    expect(slot).toBeGreaterThan(started);
  });

  it('without a slot before its deadline, a retry still goes after its backoff (no message fails for want of a slot)', async () => {
    twilio.failNext(503, 1);
    let asked = 0;
    const sent = await provider().send({
      to: '+15552080002',
      body: 'Hi',
      from: '+15005550006',
      retrySlot: async () => {
        asked += 1;
        return null;
      },
    });
    expect(sent.sid).toMatch(/^SM/);
    expect(asked).toBe(1);
    expect(twilio.messages.filter((m) => m.to === '+15552080002')).toHaveLength(1);
  });
  it('when the pace cannot be read, says so in a warning with the error and still goes after its backoff', async () => {
    twilio.failNext(503, 1);
    const warned: { obj: unknown; msg: string }[] = [];
    const sent = await createTwilioProvider({
      accountSid: twilio.accountSid,
      authToken: twilio.authToken,
      baseUrl: twilio.url,
      retryDeadlineMs: 20_000,
      retryBaseMs: 50,
      logger: { warn: ((obj: unknown, msg: string) => warned.push({ obj, msg })) as never },
    }).send({
      to: '+15552080003',
      body: 'Hi',
      from: '+15005550006',
      retrySlot: async () => {
        throw new Error('pace unreadable');
      },
    });
    expect(sent.sid).toMatch(/^SM/);
    expect(twilio.messages.filter((m) => m.to === '+15552080003')).toHaveLength(1);
    expect(warned).toEqual([
      {
        obj: { err: expect.objectContaining({ message: 'pace unreadable' }) },
        msg: expect.stringContaining('sender pace not read'),
      },
    ]);
  });

  it('hands back the slot of every answered refusal (no message was created), not of an attempt left unanswered', async () => {
    twilio.failNext(429, 1);
    twilio.failNext(503, 1);
    let unused = 0;
    const msg = { body: 'Hi', from: '+15005550006', retrySlot: async () => null, slotUnused: () => void (unused += 1) };
    expect((await provider().send({ ...msg, to: '+15552080004' })).sid).toMatch(/^SM/);
    expect(unused).toBe(2);
    // A refusal that cannot succeed (21211 invalid number) created no message either.
    twilio.refuse.add('+15552080005');
    await expect(provider().send({ ...msg, to: '+15552080005' })).rejects.toThrow(/not a valid phone number/);
    expect(unused).toBe(3);
    // No answer at all: Twilio may have taken it, so its slot stays spent.
    const silent = createTwilioProvider({
      accountSid: twilio.accountSid,
      authToken: twilio.authToken,
      baseUrl: 'http://127.0.0.1:9',
    });
    await expect(silent.send({ ...msg, to: '+15552080006' })).rejects.toThrow(/Could not reach Twilio/);
    expect(unused).toBe(3);
  });
});

describe('SenderPacer with a retry not before its backoff', () => {
  const db = testDbName('sms_retry_pace');
  let conn: Connection;
  beforeAll(async () => {
    conn = await mongoose.createConnection(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017', { dbName: db }).asPromise();
  });
  afterAll(async () => {
    await conn?.dropDatabase().catch(() => undefined);
    await conn?.close();
  });

  it('hands the retry a slot no earlier than asked and after the ones already given out, which later sends follow', async () => {
    let t = 1_000_000;
    const pacer = new SenderPacer(
      conn,
      () => 2,
      () => new Date(t),
    );
    const until = new Date(t + 60_000);
    const first = await pacer.reserve('+15005550006', 3, until);
    expect(first.slots.map((d) => d.getTime() - t)).toEqual([0, 500, 1000]);
    // A retry whose backoff ends 200 ms from now waits behind the three slots taken.
    const retry = await pacer.reserve('+15005550006', 1, until, new Date(t + 200));
    expect(retry.slots.map((d) => d.getTime() - t)).toEqual([1500]);
    // One whose backoff ends well after them takes its own time, without moving the pace there (the seconds between
    // stay free for others): the next sends come at the pace's next free moment, spaced a fifth wider while the
    // interval the late retry took is owed.
    const late = await pacer.reserve('+15005550006', 1, until, new Date(t + 5_000));
    expect(late.slots.map((d) => d.getTime() - t)).toEqual([5000]);
    expect(late.nextFree.getTime() - t).toBe(2000);
    const after = await pacer.reserve('+15005550006', 2, until);
    expect(after.slots.map((d) => d.getTime() - t)).toEqual([2000, 2600]);
    // First attempts one at a time on a sender at rest keep to the pace (only a retry leaves the pace where it is).
    t += 60_000;
    const single = [];
    for (let i = 0; i < 3; i++) single.push(...(await pacer.reserve('+15005550006', 1, new Date(t + 60_000))).slots);
    expect(single.map((d) => d.getTime() - t)).toEqual([0, 500, 1000]);
    // None before the deadline: no slot, and the answer says when there is room.
    t += 1;
    const none = await pacer.reserve('+15005550006', 1, new Date(t + 1_000), new Date(t + 2_000));
    expect(none.slots).toEqual([]);
  });
});
