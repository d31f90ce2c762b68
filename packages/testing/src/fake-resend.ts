/**
 * Test helper: a local stand-in for the Resend API (RESEND_BASE_URL points at it) that records what the real
 * SDK sends. Knows POST /emails and GET /domains. Keys: `re_bad` is refused (401), `re_restricted` may send
 * but not list domains (Resend's restricted_api_key). A recipient starting with `reject` is refused (422).
 * The same Idempotency-Key twice answers the first id again without recording a second email, as Resend does.
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
  emailsTo(address: string): SentEmail[];
  close(): Promise<void>;
}

export async function startFakeResend(): Promise<FakeResend> {
  const requests: RecordedRequest[] = [];
  const emails: SentEmail[] = [];
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
    const answer = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    const key = (headers.authorization ?? '').replace(/^Bearer /, '');
    if (!key || key === 're_bad')
      return answer(401, { statusCode: 401, name: 'validation_error', message: 'API key is invalid' });

    if (req.method === 'POST' && path === '/emails') {
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
    emailsTo: (address) => emails.filter((e) => e.to.includes(address)),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
