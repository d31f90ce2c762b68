/**
 * Test helper: a local stand-in for the Resend API (RESEND_BASE_URL points at it) that records what the real
 * SDK sends. Knows POST /emails, POST /emails/batch (up to 100; `x-batch-validation: permissive` sends the valid
 * ones and lists the others in `errors`, strict refuses the whole batch) and GET /domains. Keys: `re_bad` is refused (401), `re_restricted` may send
 * but not list domains (Resend's restricted_api_key). A recipient starting with `reject` is refused (422).
 * The same Idempotency-Key twice answers the first answer again without recording a second email, as Resend does;
 * the same key with a different body answers 409 invalid_idempotent_request. Both endpoints count against the rate.
 * Like Resend it can refuse for a while: `failNext` queues 429 / 5xx answers (with `retry-after` when given), and
 * `maxPerSecond` enforces a per-team rate with 429 rate_limit_exceeded and the ratelimit-* headers (every call counts,
 * whatever its answer, in wall-clock seconds). `chaos` (bench:delivery) injects 429 / 500 / unanswered calls at random
 * among those within the rate; an unanswered call may have been taken (chaos.ts). `acceptThenHang` does the latter on
 * purpose: the call is taken (its emails sent, its key remembered with its answer) and never answered.
 */
import { createServer, type Server } from 'node:http';
import { Chaos, neverAnswer, type ChaosCounts, type ChaosOptions } from './chaos';
import { readBody } from './http';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  at: number;
}

export interface SentEmail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  html: string;
  headers: Record<string, string>;
  idempotencyKey: string | null;
  at: number;
}

export interface FakeResend {
  url: string;
  requests: RecordedRequest[];
  emails: SentEmail[];
  /** The next `times` POST /emails answer `status` (429: rate_limit_exceeded unless `name` says otherwise). */
  failNext(status: number, times: number, opts?: { name?: string; retryAfterSec?: number }): void;
  /** Drops the failures still queued. */
  clearFailures(): void;
  /**
   * The next `times` POST /emails or /emails/batch are taken and never answered: the emails are recorded and the
   * Idempotency-Key remembered with the answer Resend would have given, as when Resend processed a request whose
   * answer was lost; the client only sees its own timeout. A retry with the same key and body then gets that answer
   * and sends nothing (Resend: "the same response, without actually sending the email again").
   */
  acceptThenHang(times: number): void;
  /** Calls taken and left unanswered by `acceptThenHang`. */
  hungAfterAccept: number;
  /** An outage: every POST /emails answers 503 for `ms` from now (nothing is sent meanwhile). */
  downFor(ms: number): void;
  /**
   * From now, every POST /emails or /emails/batch is taken (its emails recorded) at once and answered `ms` later, as
   * a slow Resend does; 0 answers at once again.
   */
  answerAfter(ms: number): void;
  /**
   * The server gone for `ms`: the port refuses connections (open ones are cut), then listens again on the same
   * port. Unlike `downFor`, no call gets an answer meanwhile, so none is recorded.
   */
  unreachableFor(ms: number): Promise<void>;
  /** POST /emails refused with 429 for exceeding the per-second rate. */
  rateLimited: number;
  /** Calls answered by POST /emails/batch (each holds up to 100 emails). */
  batchCalls: number;
  /** Calls answered with an earlier answer because their Idempotency-Key was seen (nothing sent again). */
  idempotentReplays: number;
  /** What the injected trouble did so far (all zero without `chaos`). */
  chaosCounts: ChaosCounts;
  emailsTo(address: string): SentEmail[];
  close(): Promise<void>;
}

export async function startFakeResend({
  maxPerSecond = 0,
  chaos: chaosOptions,
  recordRequests = true,
}: {
  maxPerSecond?: number;
  chaos?: ChaosOptions;
  /** false: `requests` stays empty (a benchmark's tens of thousands of calls would only fill memory). */
  recordRequests?: boolean;
} = {}): Promise<FakeResend> {
  const chaos = new Chaos(chaosOptions);
  let idempotentReplays = 0;
  const requests: RecordedRequest[] = [];
  const emails: SentEmail[] = [];
  const failures: { status: number; name: string; retryAfterSec?: number }[] = [];
  const window = { second: 0, used: 0 };
  let downUntil = 0;
  let answerDelayMs = 0;
  let rateLimited = 0;
  let hangNext = 0;
  let hungAfterAccept = 0;
  const byKey = new Map<string, { body: string; answer: unknown }>();
  let batchCalls = 0;
  let n = 0;
  const server: Server = createServer(async (req, res) => {
    const text = await readBody(req);
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    const body = (parsed ?? {}) as {
      to?: unknown;
      from?: string;
      subject?: string;
      html?: string;
      headers?: Record<string, string>;
    };
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
    );
    const path = (req.url ?? '/').split('?')[0]!;
    if (recordRequests) requests.push({ method: req.method ?? '', path, headers, body: parsed, at: Date.now() });
    const delay = req.method === 'POST' ? answerDelayMs : 0;
    const answer = (status: number, json: unknown, extra: Record<string, string> = {}) => {
      const write = () => {
        res.writeHead(status, { 'content-type': 'application/json', ...extra });
        res.end(JSON.stringify(json));
      };
      if (delay > 0) setTimeout(write, delay);
      else write();
    };
    const key = (headers.authorization ?? '').replace(/^Bearer /, '');
    if (!key || key === 're_bad')
      return answer(401, { statusCode: 401, name: 'validation_error', message: 'API key is invalid' });

    if (req.method === 'POST' && (path === '/emails' || path === '/emails/batch')) {
      if (Date.now() < downUntil)
        return answer(503, { statusCode: 503, name: 'application_error', message: 'Service unavailable' });
      const second = Math.floor(Date.now() / 1000);
      if (window.second !== second) Object.assign(window, { second, used: 0 });
      if (maxPerSecond > 0 && ++window.used > maxPerSecond) {
        rateLimited += 1;
        return answer(
          429,
          {
            statusCode: 429,
            name: 'rate_limit_exceeded',
            message: `Too many requests. You can only make ${maxPerSecond} requests per second. See rate limit response headers for more information. Or contact support to increase rate limit.`,
          },
          { 'retry-after': '1', 'ratelimit-limit': String(maxPerSecond), 'ratelimit-remaining': '0', 'ratelimit-reset': '1' },
        );
      }
      const failure = failures.shift();
      if (failure)
        return answer(
          failure.status,
          { statusCode: failure.status, name: failure.name, message: failure.status === 429 ? 'Too many requests' : 'Internal server error' },
          failure.retryAfterSec !== undefined ? { 'retry-after': String(failure.retryAfterSec) } : {},
        );
      const decision = chaosOptions ? chaos.decide() : 'ok';
      if (decision === 429)
        return answer(
          429,
          { statusCode: 429, name: 'rate_limit_exceeded', message: 'Too many requests. Please try again later.' },
          { 'retry-after': '1', 'ratelimit-limit': String(maxPerSecond || 2), 'ratelimit-remaining': '0', 'ratelimit-reset': '1' },
        );
      if (decision === 500)
        return answer(500, { statusCode: 500, name: 'application_error', message: 'An unexpected error occurred.' });
      if (decision === 'timeout-dropped') return neverAnswer(req.socket);
      // Taken, then silent: the emails below are recorded (and the key remembered), the client hears nothing.
      const hang = hangNext > 0;
      if (hang) {
        hangNext -= 1;
        hungAfterAccept += 1;
      }
      const silent = decision === 'timeout-accepted' || hang;
      const idem = headers['idempotency-key'] || null;
      if (idem && byKey.has(idem)) {
        const seen = byKey.get(idem)!;
        if (seen.body !== text)
          return answer(409, {
            statusCode: 409,
            name: 'invalid_idempotent_request',
            message: 'Same idempotency key used with a different request payload.',
          });
        idempotentReplays += 1;
        if (silent) return neverAnswer(req.socket);
        return answer(200, seen.answer);
      }
      const refusal = (e: typeof body) => {
        const to: string[] = (Array.isArray(e.to) ? e.to : [e.to]).map(String);
        return to.some((t) => t.startsWith('reject')) ? `Invalid \`to\` field: ${to.join(', ')}` : null;
      };
      const record = (e: typeof body) => {
        const id = `fake-${++n}`;
        emails.push({
          id,
          from: e.from ?? '',
          to: (Array.isArray(e.to) ? e.to : [e.to]).map(String),
          subject: e.subject ?? '',
          html: e.html ?? '',
          headers: e.headers ?? {},
          idempotencyKey: idem,
          at: Date.now(),
        });
        return id;
      };
      let result: unknown;
      if (path === '/emails') {
        const why = refusal(body);
        if (why) return silent ? neverAnswer(req.socket) : answer(422, { statusCode: 422, name: 'validation_error', message: why });
        result = { id: record(body) };
      } else {
        const list = Array.isArray(parsed) ? (parsed as (typeof body)[]) : null;
        if (!list || list.length === 0 || list.length > 100)
          return answer(422, { statusCode: 422, name: 'validation_error', message: 'The batch must hold 1 to 100 emails' });
        const refusals = list.map((e, index) => ({ index, message: refusal(e) })).filter((r) => r.message !== null);
        const permissive = headers['x-batch-validation'] === 'permissive';
        if (refusals.length && !permissive)
          return answer(422, { statusCode: 422, name: 'validation_error', message: refusals[0]!.message });
        batchCalls += 1;
        const data = list.filter((_, i) => !refusals.some((r) => r.index === i)).map((e) => ({ id: record(e) }));
        result = permissive ? { data, errors: refusals } : { data };
      }
      if (idem) byKey.set(idem, { body: text, answer: result });
      if (silent) return neverAnswer(req.socket);
      return answer(200, result);
    }
    if (req.method === 'GET' && path === '/domains') {
      if (key === 're_restricted')
        return answer(401, {
          statusCode: 401,
          name: 'restricted_api_key',
          message: 'This API key is restricted to only send emails',
        });
      return answer(200, {
        object: 'list',
        has_more: false,
        data: [{ id: 'd1', name: 'example.com', status: 'verified' }],
      });
    }
    return answer(404, { statusCode: 404, name: 'not_found', message: 'Route not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  let backTimer: NodeJS.Timeout | null = null;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    emails,
    failNext: (status, times, opts = {}) => {
      const name = opts.name ?? (status === 429 ? 'rate_limit_exceeded' : 'application_error');
      for (let i = 0; i < times; i++) failures.push({ status, name, retryAfterSec: opts.retryAfterSec });
    },
    clearFailures: () => void failures.splice(0),
    acceptThenHang: (times) => {
      hangNext += times;
    },
    get hungAfterAccept() {
      return hungAfterAccept;
    },
    answerAfter: (ms) => {
      answerDelayMs = ms;
    },
    downFor: (ms) => {
      downUntil = Date.now() + ms;
    },
    unreachableFor: async (ms) => {
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
      backTimer = setTimeout(() => {
        backTimer = null;
        server.listen(port, '127.0.0.1');
      }, ms);
    },
    get rateLimited() {
      return rateLimited;
    },
    get batchCalls() {
      return batchCalls;
    },
    get idempotentReplays() {
      return idempotentReplays;
    },
    chaosCounts: chaos.counts,
    emailsTo: (address) => emails.filter((e) => e.to.includes(address)),
    close: () => {
      if (backTimer) clearTimeout(backTimer);
      backTimer = null;
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
