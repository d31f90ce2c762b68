/**
 * Test helper: a local stand-in for the Resend API (RESEND_BASE_URL points at it) that records what the real
 * SDK sends. Knows POST /emails and GET /domains. Keys: `re_bad` is refused (401), `re_restricted` may send
 * but not list domains (Resend's restricted_api_key). A recipient starting with `reject` is refused (422).
 * The same Idempotency-Key twice answers the first id again without recording a second email, as Resend does.
 * Like Resend it can refuse for a while: `failNext` queues 429 / 5xx answers (with `retry-after` when given), and
 * `maxPerSecond` enforces a per-team rate with 429 rate_limit_exceeded and the ratelimit-* headers.
 */
import { createServer, type Server } from 'node:http';
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
  /** An outage: every POST /emails answers 503 for `ms` from now (nothing is sent meanwhile). */
  downFor(ms: number): void;
  /** POST /emails refused with 429 for exceeding the per-second rate. */
  rateLimited: number;
  emailsTo(address: string): SentEmail[];
  close(): Promise<void>;
}

export async function startFakeResend({ maxPerSecond = 0 }: { maxPerSecond?: number } = {}): Promise<FakeResend> {
  const requests: RecordedRequest[] = [];
  const emails: SentEmail[] = [];
  const failures: { status: number; name: string; retryAfterSec?: number }[] = [];
  const window = { second: 0, used: 0 };
  let downUntil = 0;
  let rateLimited = 0;
  const byKey = new Map<string, string>();
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
    requests.push({ method: req.method ?? '', path, headers, body: parsed, at: Date.now() });
    const answer = (status: number, json: unknown, extra: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...extra });
      res.end(JSON.stringify(json));
    };
    const key = (headers.authorization ?? '').replace(/^Bearer /, '');
    if (!key || key === 're_bad')
      return answer(401, { statusCode: 401, name: 'validation_error', message: 'API key is invalid' });

    if (req.method === 'POST' && path === '/emails') {
      if (Date.now() < downUntil)
        return answer(503, { statusCode: 503, name: 'application_error', message: 'Service unavailable' });
      const second = Math.floor(Date.now() / 1000);
      if (window.second !== second) Object.assign(window, { second, used: 0 });
      if (maxPerSecond > 0 && ++window.used > maxPerSecond) {
        rateLimited += 1;
        return answer(
          429,
          { statusCode: 429, name: 'rate_limit_exceeded', message: 'Too many requests. You can only make 5 requests per second.' },
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
      const to: string[] = (Array.isArray(body.to) ? body.to : [body.to]).map(String);
      if (to.some((t) => String(t).startsWith('reject')))
        return answer(422, {
          statusCode: 422,
          name: 'validation_error',
          message: `Invalid \`to\` field: ${to.join(', ')}`,
        });
      const idem = headers['idempotency-key'] || null;
      if (idem && byKey.has(idem)) return answer(200, { id: byKey.get(idem) });
      const id = `fake-${++n}`;
      if (idem) byKey.set(idem, id);
      emails.push({
        id,
        from: body.from ?? '',
        to,
        subject: body.subject ?? '',
        html: body.html ?? '',
        headers: body.headers ?? {},
        idempotencyKey: idem,
        at: Date.now(),
      });
      return answer(200, { id });
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
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    emails,
    failNext: (status, times, opts = {}) => {
      const name = opts.name ?? (status === 429 ? 'rate_limit_exceeded' : 'application_error');
      for (let i = 0; i < times; i++) failures.push({ status, name, retryAfterSec: opts.retryAfterSec });
    },
    clearFailures: () => void failures.splice(0),
    downFor: (ms) => {
      downUntil = Date.now() + ms;
    },
    get rateLimited() {
      return rateLimited;
    },
    emailsTo: (address) => emails.filter((e) => e.to.includes(address)),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
