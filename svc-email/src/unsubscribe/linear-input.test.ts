import { performance } from 'node:perf_hooks';
import { call } from '@act/service-kit/testing';
import { dropDb, startEmail, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

// The address shape that backtracked: "a@", a long run of dots, "@". Every email check must refuse it in linear
// time, so the service's one thread stays free for everyone else (docs/security.md).
const hostile = (dots: number) => `a@${'.'.repeat(dots)}@`;
const INVALID = { error: 'Please enter a valid email address' };
/** What an answer may take beyond an ordinary call's: a parse and a refusal, not a search. */
const SLACK_MS = 100;
/**
 * Dots that fit in a query string: Node refuses a request head over 16 KB (431) before any handler, so the
 * GET's worst case is this long (a quadratic check on it still cost a few hundred milliseconds).
 */
const QUERY_DOTS = 15_500;

describe('email checks on hostile input', () => {
  let email: EmailUnderTest;
  let ip = 0;
  let templateId: number;

  beforeAll(async () => {
    email = await startEmail('linear', { UNSUBSCRIBE_RATE_LIMIT: '1000' });
    const created = await email.api('POST', '/api/resend/templates', { body: { name: 'Linear', html_content: '<p>x</p>' } });
    expect(created.status).toBe(201);
    templateId = created.body.id;
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await email?.svc.stop();
    if (email) await dropDb(email.db);
  });

  /** A public call as the gateway makes it, each from its own client address (the per-address limit). */
  const pub = (method: string, path: string, body?: unknown) =>
    call(email.svc.url, method, path, { user: null, body, headers: { 'x-forwarded-for': `10.9.${ip >> 8}.${++ip & 255}` } });
  const timed = async <T>(p: Promise<T>) => {
    const t0 = performance.now();
    const r = await p;
    return { r, ms: performance.now() - t0 };
  };
  const normal = () => pub('GET', '/api/unsubscribe?email=someone%40example.com');

  /** The median of a few ordinary calls: what "quickly" is measured against on this machine, now. */
  async function baselineMs(): Promise<number> {
    const times: number[] = [];
    for (let i = 0; i < 7; i++) times.push((await timed(normal())).ms);
    return times.sort((a, b) => a - b)[3]!;
  }

  const cases: [string, () => Promise<Awaited<ReturnType<typeof call>>>][] = [
    ['POST /api/unsubscribe, 128,000 dots', () => pub('POST', '/api/unsubscribe', { email: hostile(128_000) })],
    [
      `GET /api/unsubscribe?email=, ${QUERY_DOTS} dots`,
      () => pub('GET', `/api/unsubscribe?email=${encodeURIComponent(hostile(QUERY_DOTS))}`),
    ],
    [
      'POST /api/resend/templates/:id/test, testEmail of 128,000 dots',
      () => email.api('POST', `/api/resend/templates/${templateId}/test`, { body: { testEmail: hostile(128_000) } }),
    ],
  ];

  it.each(cases)('%s: a clear 400 within an ordinary call’s time, and a call alongside it is not held up', async (_label, hostileCall) => {
    // Timing on a shared machine: the best of three tries counts (noise only ever adds time; a pattern that
    // backtracks is slow every time).
    const tries: string[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const base = await baselineMs();
      // The ordinary call starts while the hostile one is being handled: a service stuck in a pattern answers
      // neither until the pattern ends.
      const bad = timed(hostileCall());
      await new Promise((r) => setTimeout(r, 5));
      const alongside = await timed(normal());
      const { r, ms } = await bad;

      expect([r.status, r.body]).toEqual([400, INVALID]);
      expect([alongside.r.status, alongside.r.body.status]).toEqual([200, 'subscribed']);
      // The hostile body itself travels (128 KB over loopback, parsed as JSON): allowed for in the same slack.
      const limit = base + SLACK_MS;
      if (ms <= limit && alongside.ms <= limit) return;
      tries.push(`hostile ${Math.round(ms)} ms, alongside ${Math.round(alongside.ms)} ms, ordinary ${Math.round(base)} ms`);
    }
    expect(tries).toEqual([]);
  });

  it('still answers an ordinary address', async () => {
    expect((await pub('POST', '/api/unsubscribe', { email: 'first.last+tag@mail.example.com' })).body).toEqual({
      status: 'unsubscribed',
      message: 'You have been unsubscribed and will no longer receive these emails.',
    });
    expect((await pub('GET', '/api/unsubscribe?email=first.last%2Btag%40mail.example.com')).body.status).toBe('already-unsubscribed');
    expect((await pub('GET', '/api/unsubscribe?email=a%40b')).body).toEqual(INVALID);
  });
});
