import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@act/service-kit';
import type { ServiceName } from './routes';
import type { Instance, Upstreams } from './upstreams/instances';

/** Errors that mean "the service is not there" (as opposed to a client that went away). */
function unavailable(res: ServerResponse, name: ServiceName): void {
  if (res.headersSent) {
    // The answer had started: the only honest thing left is to cut it.
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: `${name} unavailable` });
  res.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

// Hop-by-hop headers (RFC 9110 7.6.1) belong to one connection and are not forwarded; `expect` is answered by
// nobody here (a 100-continue would stall the pool's connection).
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect']);

/** The request's headers for the service, with X-Forwarded-* as the gateway settled them. */
function forwardedHeaders(req: IncomingMessage): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const h: IncomingHttpHeaders = req.headers;
  for (const name in h) if (!HOP_BY_HOP.has(name) && h[name] !== undefined) out[name] = h[name]!;
  const host = h.host ?? '';
  const port = /:(\d+)$/.exec(host)?.[1] ?? '80';
  const append = (name: string, value: string) => (out[name] = typeof h[name] === 'string' && h[name] ? `${h[name]},${value}` : value);
  // The gateway has already replaced X-Forwarded-For / -Proto with the client's address and scheme (app.ts).
  out['x-forwarded-for'] = (h['x-forwarded-for'] as string | undefined) || (req.socket.remoteAddress ?? '');
  out['x-forwarded-proto'] = (h['x-forwarded-proto'] as string | undefined) || 'http';
  append('x-forwarded-port', port);
  out['x-forwarded-host'] = (h['x-forwarded-host'] as string | undefined) || host;
  return out;
}

export interface ProxyOptions {
  upstreams: Upstreams;
  timeoutMs: number;
  /** Largest body read into memory for a request that may be sent twice. */
  bodyLimit: number;
  logger: Logger;
}

/** Failures that mean the request never reached a live service process (refused, reset, closed under it). */
const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const isConnectionError = (err: Error) => CONNECTION_ERRORS.has((err as NodeJS.ErrnoException).code ?? '');

/** The whole request body, or null past `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        resolve(null);
      } else chunks.push(c);
    });
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

function tooLarge(res: ServerResponse): void {
  const body = JSON.stringify({ error: 'Request body too large' });
  res.writeHead(413, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
}

/**
 * Streams requests to the services over undici's keep-alive pools (about a third less CPU per request than
 * http-proxy over http.Agent, measured on the webhook path), balancing over each service's instances. A request
 * that may be sent twice (`retry`: no body, or a route whose handler is idempotent) goes to a second instance when
 * the first one's connection fails before any answer: an instance killed mid-request costs the caller nothing.
 * Other requests stream their body and fail with 503. A service that sends no answer (or stalls in its body)
 * within `timeoutMs` answers 503 then, never retried (it may still be working on it). A client that goes away
 * aborts the call to the service.
 */
export function createProxy({ upstreams, timeoutMs, bodyLimit, logger }: ProxyOptions) {
  function send(
    req: IncomingMessage,
    res: ServerResponse,
    service: ServiceName,
    body: Buffer | IncomingMessage | null,
    onResponse: ((status: number) => void) | undefined,
    retriesLeft: number,
    not?: Instance,
  ): void {
    const instance = upstreams.pick(service, not);
    // undici takes an EventEmitter as its abort signal: an AbortController per request cost more CPU than the rest
    // of the proxying (it is an EventTarget).
    const abort = new EventEmitter();
    let aborted = false;
    const onClose = () => {
      if (res.writableFinished) return;
      aborted = true;
      abort.emit('abort');
    };
    res.once('close', onClose);
    instance.pool.stream(
      {
        path: req.url ?? '/',
        method: req.method as 'GET',
        headers: forwardedHeaders(req),
        body,
        signal: abort,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        opaque: res,
      },
      ({ statusCode, headers }) => {
        onResponse?.(statusCode);
        const out: Record<string, string | string[]> = {};
        for (const name in headers) if (!HOP_BY_HOP.has(name)) out[name] = headers[name]!;
        res.writeHead(statusCode, out);
        return res;
      },
      (err) => {
        res.off('close', onClose);
        if (!err || aborted) return;
        const code = (err as NodeJS.ErrnoException).code;
        if (isConnectionError(err)) upstreams.failed(instance, code ?? err.message);
        if (retriesLeft > 0 && !res.headersSent && isConnectionError(err) && upstreams.instances(service).length > 1) {
          logger.warn({ service, instance: instance.url, code, url: req.url }, 'instance failed; retrying on another');
          send(req, res, service, body, onResponse, retriesLeft - 1, instance);
          return;
        }
        logger.warn({ service, instance: instance.url, code, err: err.message, url: req.url }, 'service unavailable');
        unavailable(res, service);
      },
    );
  }

  return {
    /**
     * `onResponse` runs when the service's answer arrives, before it is passed on. `retry`: the request may be sent
     * to a second instance (its body, if any, is read into memory first).
     */
    web(req: IncomingMessage, res: ServerResponse, service: ServiceName, onResponse?: (status: number) => void, retry = false): void {
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      if (!retry || !hasBody) {
        send(req, res, service, hasBody ? req : null, onResponse, retry ? 1 : 0);
        return;
      }
      readBody(req, bodyLimit).then(
        (body) => (body === null ? tooLarge(res) : send(req, res, service, body, onResponse, 1)),
        () => res.destroy(),
      );
    },
    close(): void {
      upstreams.close();
    },
  };
}

export type Proxy = ReturnType<typeof createProxy>;
