import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { parse as parseUrl } from 'node:url';
import httpProxy from 'http-proxy';
import type { Logger } from '@act/service-kit';
import type { ServiceName } from './routes';

export interface Upstream {
  name: ServiceName;
  /** Parsed once: http-proxy would otherwise parse a string target on every request. */
  target: ReturnType<typeof parseUrl>;
}

export function upstream(name: ServiceName, url: string): Upstream {
  return { name, target: parseUrl(url) };
}

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

export interface ProxyOptions {
  timeoutMs: number;
  logger: Logger;
  agent: http.Agent;
}

/**
 * Streams requests to the services with http-proxy over one keep-alive agent. A refused connection answers
 * 503 at once; a service that does not answer within `timeoutMs` answers 503 then.
 */
export function createProxy({ timeoutMs, logger, agent }: ProxyOptions) {
  // proxyTimeout bounds the wait for the service; timeout bounds an idle client socket, and is longer so that
  // a slow service still gets its 503 written before the client's socket would be cut.
  const proxy = httpProxy.createProxyServer({ agent, xfwd: true, proxyTimeout: timeoutMs, timeout: timeoutMs + 5_000 });
  // With a callback per call http-proxy reports errors there; this only keeps a stray one from crashing us.
  proxy.on('error', (err) => logger.warn({ err: err.message }, 'proxy error'));
  const responseHooks = new WeakMap<IncomingMessage, (status: number) => void>();
  proxy.on('proxyRes', (proxyRes, req) => responseHooks.get(req)?.(proxyRes.statusCode ?? 0));

  return {
    /** `onResponse` runs when the service's answer arrives, before it is passed on. */
    web(req: IncomingMessage, res: ServerResponse, to: Upstream, onResponse?: (status: number) => void): void {
      if (onResponse) responseHooks.set(req, onResponse);
      proxy.web(req, res, { target: to.target as httpProxy.ServerOptions['target'] }, (err) => {
        logger.warn(
          { service: to.name, code: (err as NodeJS.ErrnoException).code, err: err.message, url: req.url },
          'service unavailable',
        );
        unavailable(res, to.name);
      });
    },
    close(): void {
      proxy.close();
    },
  };
}

export type Proxy = ReturnType<typeof createProxy>;
