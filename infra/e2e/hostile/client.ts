// HTTP for the hostile suites: raw bodies (malformed JSON must reach the server as written), a chosen source
// address, bounded concurrency, and a tally of every answer by status class.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { readStack } from '../stack';

export interface RawRequest {
  method: string;
  /** Path with query string, sent exactly as written. */
  path: string;
  headers?: Record<string, string>;
  /** Sent as is; a string is sent as UTF-8. */
  body?: string | Buffer;
  /** Send the body chunked, without Content-Length (the gateway then cannot refuse it up front). */
  chunked?: boolean;
  /** Default: the gateway's port. */
  port?: number;
  /**
   * Source address (any 127.x.y.z reaches 127.0.0.1). The services' per-address limits (login, unsubscribe)
   * then count this suite apart from the browser tests, which come from 127.0.0.1.
   */
  from?: string;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const stack = readStack();
export const gatewayPort = Number(new URL(stack.url).port);

const TRANSIENT = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE']);

function once(req: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body);
    const headers: Record<string, string | number> = { ...req.headers };
    if (body && !req.chunked) headers['content-length'] = body.length;
    if (body && req.chunked) headers['transfer-encoding'] = 'chunked';
    let answered = false;
    const r = http.request(
      {
        host: '127.0.0.1',
        port: req.port ?? gatewayPort,
        method: req.method,
        path: req.path,
        headers,
        agent,
        localAddress: req.from,
        timeout: 20_000,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    r.on('timeout', () => r.destroy(new Error(`no answer within 20 s: ${req.method} ${req.path.slice(0, 80)}`)));
    // A server that answers 413 and closes while the body is still being written: the answer counts, not EPIPE.
    r.on('error', (err) => {
      if (!answered) reject(err);
    });
    if (body && req.chunked) {
      // Several chunks, so the body really arrives in pieces.
      const step = 64 * 1024;
      for (let i = 0; i < body.length; i += step) r.write(body.subarray(i, i + step));
      r.end();
    } else r.end(body);
  });
}

/**
 * One request. A refused or reset connection is retried a few times: other e2e files restart the gateway of the
 * shared stack, and a keep-alive socket may be closed under us; a request that got an answer is never repeated.
 */
export async function send(req: RawRequest): Promise<RawResponse> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await once(req);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (!TRANSIENT.has(code) || attempt >= 8) throw err;
      await new Promise((r) => setTimeout(r, 250 * (attempt + 1)));
    }
  }
}

/** Closes the kept-alive sockets (one pool per source address). */
export function closeConnections(): void {
  agent.destroy();
}

/** JSON request with a session cookie (or none). */
export function json(
  method: string,
  path: string,
  body?: unknown,
  opts: { cookie?: string; from?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return send({ method, path, headers, body: body === undefined ? undefined : JSON.stringify(body), from: opts.from });
}

/** Like json(), but throws unless the answer is 2xx; returns the parsed body. */
export async function ok<T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  opts: { cookie?: string; from?: string } = {},
): Promise<T> {
  const res = await json(method, path, body, opts);
  if (res.status < 200 || res.status >= 300)
    throw new Error(`${method} ${path} → ${res.status} ${res.text.slice(0, 300)}`);
  return res.json as T;
}

/** `name=value` pairs of Set-Cookie, joined for a Cookie header. */
export function cookieHeader(res: RawResponse): string {
  const set = res.headers['set-cookie'] ?? [];
  return set.map((c) => c.split(';')[0]).join('; ');
}

/** Signs in through the gateway; returns the Cookie header of the session. */
export async function login(username: string, password: string): Promise<string> {
  const res = await json('POST', '/api/login', { username, password });
  if (res.status !== 200) throw new Error(`login ${username} → ${res.status} ${res.text}`);
  return cookieHeader(res);
}

/** The gateway's identity header (docs/conventions.md), signed with `secret` at time `iat`. */
export function signIdentity(
  user: { id: number; username: string; role: 'admin' | 'user' } | null,
  secret: string,
  iat = Date.now(),
): string {
  const payload = Buffer.from(JSON.stringify({ user, iat })).toString('base64url');
  return `${payload}.${createHmac('sha256', secret).update(payload).digest('hex')}`;
}

/** Runs `tasks` with at most `limit` in flight; results keep the tasks' order. */
export async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** Count of answers by status class (2xx, 3xx, 4xx, 5xx) and by exact status. */
export class Tally {
  readonly byClass: Record<string, number> = {};
  readonly byStatus: Record<number, number> = {};
  total = 0;
  add(status: number): void {
    this.total++;
    const cls = `${Math.floor(status / 100)}xx`;
    this.byClass[cls] = (this.byClass[cls] ?? 0) + 1;
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
  }
  line(label: string): string {
    const classes = Object.entries(this.byClass)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    const statuses = Object.entries(this.byStatus)
      .map(([k, v]) => `${k}×${v}`)
      .join(' ');
    return `${label}: ${this.total} requests sent: ${classes} (${statuses})`;
  }
}

/** The `{ error }` rule for a refused request: a JSON object with a non-empty string `error`. */
export function errorMessage(res: RawResponse): string | null {
  const body = res.json as { error?: unknown } | undefined;
  return body && typeof body === 'object' && typeof body.error === 'string' && body.error.trim() !== ''
    ? body.error
    : null;
}
