/**
 * Batches under the deployment's budget (bench:delivery's load): the provider itself against the fake Resend,
 * with the emails asked for at known moments, so the test does not depend on how fast the engine reaches them.
 */
import mongoose, { type Connection } from 'mongoose';
import { testDbName } from '@act/service-kit/testing';
import { startFakeResend, type FakeResend } from '@act/testing';
import { MONGODB_URI, dropDb, sleep } from '../test/helpers';
import { ResendProvider } from './resend';
import { ResendPacer } from './resend-pace';
import type { SendResult } from './types';

describe('Resend batches under RESEND_MAX_RPS', () => {
  let fake: FakeResend;
  let conn: Connection;
  const db = testDbName('email_resend_batching');
  beforeAll(async () => {
    fake = await startFakeResend();
    conn = await mongoose.createConnection(MONGODB_URI, { dbName: db }).asPromise();
  });
  afterAll(async () => {
    await conn?.close();
    await dropDb(db);
    await fake?.close();
  });

  it('a call takes its emails when its slot comes: those asked for while it waited join it, up to 100', async () => {
    const provider = new ResendProvider(conn, {
      envApiKey: 're_batching',
      envFrom: 'shop@example.com',
      baseUrl: fake.url,
      timeoutMs: 10_000,
      retryDeadlineMs: 30_000,
      backoff: { baseMs: 100, maxMs: 2_000 },
      maxPerSecond: 1,
      batchLingerMs: 20,
    });
    // Five waves of 50, 300 ms apart, with one call a second: the first wave leaves at once; the next three come
    // while the second call waits for its second, the last while the third waits.
    const sends: Promise<SendResult>[] = [];
    for (let wave = 0; wave < 5; wave++) {
      for (let j = 0; j < 50; j++) {
        const i = wave * 50 + j;
        sends.push(
          provider.send({
            from: 'Shop <shop@example.com>',
            to: `wave${i}@example.com`,
            subject: 'Your cart',
            html: '<p>Hi</p>',
            headers: { 'List-Unsubscribe': `<https://carts.example.com/u?i=${i}>` },
            idempotencyKey: `act-email-wave-${i}`,
          }),
        );
      }
      await sleep(300);
    }
    const results = await Promise.all(sends);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(new Set(fake.emails.map((e) => e.to[0])).size).toBe(250);
    expect(fake.emails).toHaveLength(250);
    const sizes = fake.requests.filter((r) => r.path === '/emails/batch').map((r) => (r.body as unknown[]).length);
    // Choosing a call's emails before waiting for its slot sent one wave a call: five calls of 50.
    expect(sizes.length).toBeLessThanOrEqual(4);
    expect(Math.max(...sizes)).toBe(100);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(250);
  });

  it("a failed count in MongoDB is tried again, not passed on to every email waiting for the call", async () => {
    const pacer = new ResendPacer(conn, 5);
    const limiter = (pacer as unknown as { limiter: { consume: (key: string, points: number) => Promise<unknown> } }).limiter;
    const real = limiter.consume.bind(limiter);
    let failures = 2;
    limiter.consume = (key, points) => (failures-- > 0 ? Promise.reject(new Error('Unknown error: null')) : real(key, points));
    await expect(pacer.take(Date.now() + 5_000)).resolves.toBe(true);
    // Both failures tried again, then counted: once, or again in the next second when the count ended in a
    // second's last 60 ms.
    expect(failures).toBeLessThanOrEqual(-1);
    expect(failures).toBeGreaterThanOrEqual(-2);
    // Past the deadline the error is the caller's (the email fails with it). Asked well inside a second: at its
    // edge the call would wait for the next instead, past this deadline, and answer false.
    while (Date.now() % 1000 > 800) await sleep(5);
    failures = 100;
    await expect(pacer.take(Date.now() + 50)).rejects.toThrow('Unknown error: null');
  });

  it("counts clock seconds: a call asked for in a second's last 60 ms waits for the next", async () => {
    const pacer = new ResendPacer(conn, 5);
    // Asked 20-40 ms before a second ends, with places left in it: too late for that second all the same.
    while (Date.now() % 1000 < 960 || Date.now() % 1000 > 980) await sleep(2);
    const askedIn = Math.floor(Date.now() / 1000);
    const at = await Promise.all(Array.from({ length: 5 }, async () => ((await pacer.take(Date.now() + 5_000)) ? Date.now() : null)));
    for (const t of at) {
      expect(t).not.toBeNull();
      // In the next second (or later, on a machine slow enough to have been there already when asking).
      expect(Math.floor(t! / 1000)).toBeGreaterThan(askedIn);
    }
  });
});
