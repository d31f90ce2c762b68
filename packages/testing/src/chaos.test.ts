import { Chaos } from './chaos';
import { startFakeTwilio } from './fake-twilio';
import { startFakeResend } from './fake-resend';

describe('injected provider trouble', () => {
  it('the same seed gives the same decisions, at about the asked shares', () => {
    const opts = { rate429: 0.1, rate500: 0.02, rateTimeout: 0.01, seed: 7 };
    const a = new Chaos(opts);
    const b = new Chaos(opts);
    const da = Array.from({ length: 20_000 }, () => a.decide());
    expect(Array.from({ length: 20_000 }, () => b.decide())).toEqual(da);
    expect(a.counts.injected429 / 20_000).toBeCloseTo(0.1, 1);
    expect(a.counts.injected500 / 20_000).toBeCloseTo(0.02, 2);
    expect((a.counts.timeoutAccepted + a.counts.timeoutDropped) / 20_000).toBeCloseTo(0.01, 2);
    expect(a.counts.timeoutAccepted).toBeGreaterThan(0);
    expect(a.counts.timeoutDropped).toBeGreaterThan(0);
  });

  it('forced calls get their decision and leave the others as the seed gives them', () => {
    const opts = { rate429: 0.1, rate500: 0.02, rateTimeout: 0.01, seed: 1401 };
    const plain = Array.from({ length: 113 }, ((c) => () => c.decide())(new Chaos(opts)));
    const chaos = new Chaos({ ...opts, forced: { 20: 'timeout-accepted', 40: 'timeout-dropped' } });
    const forced = Array.from({ length: 113 }, () => chaos.decide());
    expect(forced[19]).toBe('timeout-accepted');
    expect(forced[39]).toBe('timeout-dropped');
    expect(forced.filter((_, i) => i !== 19 && i !== 39)).toEqual(plain.filter((_, i) => i !== 19 && i !== 39));
    expect(chaos.counts.timeoutAccepted).toBeGreaterThanOrEqual(1);
    expect(chaos.counts.timeoutDropped).toBeGreaterThanOrEqual(1);
  });
});

describe('fake Twilio: messages per second per sender', () => {
  it('takes at most the rate per sender in each second and refuses the rest with 20429; each sender has its own', async () => {
    // One second that never ends: the burst below stays inside one window however slowly the machine sends it.
    const second = Date.now();
    const fake = await startFakeTwilio({ maxPerSecondPerSender: 3, rateClock: () => second });
    try {
      const auth = `Basic ${Buffer.from(`${fake.accountSid}:${fake.authToken}`).toString('base64')}`;
      const send = (from: string, to: string) =>
        fetch(`${fake.url}/2010-04-01/Accounts/${fake.accountSid}/Messages.json`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ From: from, To: to, Body: 'hi' }),
        });
      const a = await Promise.all(Array.from({ length: 5 }, (_, i) => send('+14155550100', `+1415555020${i}`)));
      const b = await Promise.all(Array.from({ length: 2 }, (_, i) => send('+14155550101', `+1415555030${i}`)));
      expect(a.map((r) => r.status).sort()).toEqual([201, 201, 201, 429, 429]);
      const refused = await a.find((r) => r.status === 429)!.json();
      expect(refused).toMatchObject({ code: 20429, status: 429 });
      expect(b.map((r) => r.status)).toEqual([201, 201]);
      expect(fake.rateLimited).toBe(2);
      expect(fake.messages).toHaveLength(5);
    } finally {
      await fake.stop();
    }
  });
});

describe('fake Resend: a call taken before it went silent', () => {
  it('records the email and answers its retry (same key) from memory, sending nothing twice', async () => {
    // Every call unanswered, every one taken: the first records, the retry is a replay.
    const fake = await startFakeResend({ chaos: { rateTimeout: 1, timeoutAcceptedShare: 1 } });
    try {
      const post = () =>
        fetch(`${fake.url}/emails`, {
          method: 'POST',
          headers: { authorization: 'Bearer re_x', 'content-type': 'application/json', 'idempotency-key': 'k-1' },
          body: JSON.stringify({ from: 'a@example.com', to: ['b@example.com'], subject: 's', html: 'h' }),
          signal: AbortSignal.timeout(300),
        }).catch((err: Error) => err.name);
      expect(await post()).toBe('TimeoutError');
      expect(await post()).toBe('TimeoutError');
      expect(fake.emails).toHaveLength(1);
      expect(fake.idempotentReplays).toBe(1);
      expect(fake.chaosCounts.timeoutAccepted).toBe(2);
    } finally {
      await fake.close();
    }
  });
});
