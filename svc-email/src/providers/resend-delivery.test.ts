/**
 * Resend answering like Resend does when it is busy or failing: 429 with retry-after, 5xx, a per-team
 * rate; svc-email retries with the same Idempotency-Key until its deadline, paces its calls, and fails at once on
 * what cannot succeed. Through the service over HTTP, the real SDK against the fake.
 */
import { testUser } from '@act/service-kit/testing';
import { startFakeResend, type FakeResend } from '@act/testing';
import { dropDb, startEmail, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';
import { isRetryable, waitBeforeRetry } from './resend-retry';

describe('which Resend answers are retried, and after how long', () => {
  it('retries 429 rate limits, 5xx, no answer and a concurrent idempotent request; not quotas or 4xx', () => {
    expect(isRetryable({ statusCode: 429, name: 'rate_limit_exceeded' })).toBe(true);
    expect(isRetryable({ statusCode: 429, name: 'daily_quota_exceeded' })).toBe(false);
    expect(isRetryable({ statusCode: 500, name: 'application_error' })).toBe(true);
    expect(isRetryable({ statusCode: null, name: 'application_error' })).toBe(true);
    expect(isRetryable({ statusCode: 409, name: 'concurrent_idempotent_requests' })).toBe(true);
    expect(isRetryable({ statusCode: 409, name: 'invalid_idempotent_request' })).toBe(false);
    expect(isRetryable({ statusCode: 422, name: 'validation_error' })).toBe(false);
    expect(isRetryable({ statusCode: 403, name: 'validation_error' })).toBe(false);
  });

  it("waits Resend's retry-after, else backs off exponentially with jitter, capped", () => {
    const policy = { baseMs: 500, maxMs: 30_000 };
    expect(waitBeforeRetry(1, { 'retry-after': '2' }, policy)).toBe(2_000);
    expect(waitBeforeRetry(1, { 'ratelimit-reset': '1' }, policy)).toBe(1_000);
    expect(waitBeforeRetry(1, null, policy, () => 1)).toBe(500);
    expect(waitBeforeRetry(4, null, policy, () => 1)).toBe(4_000);
    expect(waitBeforeRetry(4, null, policy, () => 0)).toBe(2_000);
    expect(waitBeforeRetry(20, null, policy, () => 1)).toBe(30_000);
  });
});

describe('sending through a Resend that refuses for a while', () => {
  let fake: FakeResend;
  let email: EmailUnderTest;
  let templateId: number;
  beforeAll(async () => {
    fake = await startFakeResend({ maxPerSecond: 2 });
    email = await startEmail('resend_retry', {
      RESEND_BASE_URL: fake.url,
      RESEND_API_KEY: 're_test_key',
      RESEND_FROM: 'carts@example.com',
      RESEND_RETRY_BASE_MS: '100',
      RESEND_RETRY_DEADLINE_MS: '8000',
      RESEND_MAX_RPS: '2',
      // One call per email here: these tests are about each call's pacing and retries (batches have their own test).
      RESEND_BATCH_LINGER_MS: '0',
    });
    templateId = (
      await email.api('POST', '/api/resend/templates', {
        body: { name: 'T', subject: 'S', from_name: 'Cart Team', html_content: '<p>Hi</p>' },
      })
    ).body.id;
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await email?.svc.stop();
    if (email) await dropDb(email.db);
    await fake?.close();
  });

  const sendTest = (to: string) =>
    email.api('POST', `/api/resend/templates/${templateId}/test`, { body: { testEmail: to }, user: testUser });
  const callsFor = (to: string) =>
    fake.requests.filter((r) => r.path === '/emails' && JSON.stringify(r.body).includes(to));

  it('a 429 with retry-after and a 500 are retried with the same Idempotency-Key; one email arrives', async () => {
    fake.failNext(429, 1, { retryAfterSec: 1 });
    fake.failNext(500, 1);
    const started = Date.now();
    const r = await sendTest('retry@example.com');
    expect(r.status).toBe(200);
    const calls = callsFor('retry@example.com');
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.headers['idempotency-key'])).size).toBe(1);
    expect(calls[0]!.headers['idempotency-key']).toMatch(/^act-test-/);
    expect(fake.emailsTo('retry@example.com')).toHaveLength(1);
    // The retry-after second was honoured before the second call.
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('gives up at the deadline with the reason and the attempt count; nothing was sent', async () => {
    fake.failNext(503, 1_000);
    const r = await sendTest('down@example.com');
    fake.clearFailures();
    expect(r.status).toBe(502);
    expect(r.body.error).toMatch(/^Internal server error \(after \d+ attempts\)$/);
    expect(Number(/after (\d+)/.exec(r.body.error)![1])).toBeGreaterThan(2);
    expect(fake.emailsTo('down@example.com')).toHaveLength(0);
  });

  it('a refusal that cannot succeed (invalid recipient, a quota) fails at once', async () => {
    const invalid = await sendTest('reject-me@example.com');
    expect([invalid.status, callsFor('reject-me@example.com')]).toEqual([502, [expect.anything()]]);
    fake.failNext(429, 1, { name: 'daily_quota_exceeded' });
    const quota = await sendTest('quota@example.com');
    // The last call is the quota refusal (one before it may have met the fake's per-second limit and been retried).
    expect(quota.status).toBe(502);
    expect(quota.body.error).toMatch(/^Too many requests( \(after \d+ attempts\))?$/);
    expect(fake.emailsTo('quota@example.com')).toHaveLength(0);
  });

  it('paces its calls under RESEND_MAX_RPS: ten sends at once all arrive, spread over the seconds', async () => {
    const before = fake.rateLimited;
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => sendTest(`burst${i}@example.com`)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    // The budget is the clock's second, shared through MongoDB, as the fake counts: only a call sent in the last
    // milliseconds of a second and counted by the fake in the next may meet a 429 (then retried after retry-after).
    // Without pacing, 8 of the 10 would; with windows opened by a first call, up to 3 did.
    expect(fake.rateLimited - before).toBeLessThanOrEqual(1);
    const times = Array.from({ length: 10 }, (_, i) => callsFor(`burst${i}@example.com`)[0]!.at).sort((a, b) => a - b);
    // 10 calls at 2 per second take at least 4 whole seconds.
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(3_000);
  });
});
