import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import Koa, { type Context, type Next } from 'koa';
import compress from 'koa-compress';
import { HttpError, PayloadTooLargeError, metricsResponse, observeRequest, type Logger } from '@act/service-kit';
import type { GatewayConfig } from './config';
import { healthRoutes } from './health';
import { createOpenApiDocument, OPENAPI_PATH } from './openapi';
import { createRecorder } from './record';
import { createProxy } from './proxy';
import { createUpstreams } from './upstreams/instances';
import { isApiPath, routeFor, trackedLinkApiPath } from './routes';
import { clientAddress, clientProto } from './security/client-address';
import { checkBrowserRequest, ownOrigins } from './security/csrf';
import { securityHeaders } from './security/headers';
import { createSessionResolver } from './session';
import { staticFiles } from './static';
import { createTimeline, serveTimeline, timelineTarget } from './timeline';

const FORWARDED = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port'];
/**
 * What HTTP methods /api answers; anything else (TRACE, PROPFIND, QUERY...) is a 405 here, not the services'
 * router failing on a method it has no table for (a 500). 405 rather than 501: no /api resource has them.
 */
const API_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

class MethodNotAllowed extends HttpError {
  constructor(method: string) {
    super(405, `Method ${method} is not allowed`);
  }
}

/** The gateway's own errors (health, static files) as `{ error }`. */
function errors(logger: Logger) {
  return async function handleErrors(ctx: Context, next: Next) {
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null) {
        ctx.status = 404;
        ctx.body = { error: 'Not found' };
      }
    } catch (err) {
      if (err instanceof HttpError) {
        ctx.status = err.status;
        ctx.body = { error: err.message };
      } else {
        logger.error({ err, path: ctx.path }, 'gateway error');
        ctx.status = 500;
        ctx.body = { error: 'Internal server error' };
      }
    }
  };
}

export function createGateway(config: GatewayConfig, logger: Logger) {
  // Keep-alive sockets for the gateway's own calls (session lookups, readiness probes). Idle sockets are dropped after
  // 30 s, before the services' own 65 s keep-alive timeout, so a request is never written onto a socket the service
  // is closing. Proxied requests go through the proxy's pools.
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: 1024,
    maxFreeSockets: 256,
    timeout: 30_000,
    scheduling: 'lifo',
  });
  const upstreams = createUpstreams(config.upstreams, { agent, logger, checkEveryMs: config.healthCheckMs, timeoutMs: 2_000 });
  const proxy = createProxy({ upstreams, timeoutMs: config.proxyTimeoutMs, bodyLimit: config.bodyLimit, logger });
  const sessions = createSessionResolver({
    auth: upstreams,
    secret: config.identitySecret,
    agent,
    ttlMs: config.sessionCacheMs,
    maxEntries: config.sessionCacheMax,
    timeoutMs: Math.min(config.proxyTimeoutMs, 5_000),
    logger,
  });
  const debug = logger.isLevelEnabled('debug');
  const record = config.recordFile ? createRecorder(config.recordFile) : null;
  const openapi = createOpenApiDocument({ upstreams, identity: () => sessions.anonymous().token, timeoutMs: 5_000, logger });
  const setSecurityHeaders = securityHeaders(config);
  const timeline = createTimeline({ upstreams, timeoutMs: config.proxyTimeoutMs, logger });

  async function api(req: IncomingMessage, res: ServerResponse, path: string) {
    const method = req.method ?? 'GET';
    if (!API_METHODS.has(method)) throw new MethodNotAllowed(method.slice(0, 20));
    const route = routeFor(path);
    const proto = clientProto(req, config.trustedHops);
    if (!route.public) checkBrowserRequest(method, req.headers, ownOrigins(config.publicUrl, req.headers, proto));
    // Bodies are streamed, never parsed here; a declared size over the cap is refused before any upstream work.
    // (Chunked bodies without a length are capped by the service itself.)
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > config.bodyLimit) {
      res.setHeader('Connection', 'close');
      throw new PayloadTooLargeError();
    }
    const identity = route.access === 'anonymous' ? sessions.anonymous() : await sessions.resolve(req.headers.cookie);
    // Overwrites whatever the client sent: services trust only this header.
    req.headers['x-act-identity'] = identity.token;
    // The services read only what the gateway settled on: the client's address and scheme, never a client's claim.
    const client = clientAddress(req, config.trustedHops);
    const forwardedHost = config.trustedHops > 0 ? req.headers['x-forwarded-host'] : undefined;
    for (const h of FORWARDED) delete req.headers[h];
    req.headers['x-forwarded-for'] = client;
    req.headers['x-forwarded-proto'] = proto;
    if (forwardedHost) req.headers['x-forwarded-host'] = forwardedHost;
    if (!req.headers['x-request-id']) req.headers['x-request-id'] = randomUUID();

    let onResponse: ((status: number) => void) | undefined;
    if (route.prefix === '/api/login' || route.prefix === '/api/logout') {
      const cookie = req.headers.cookie;
      onResponse = () => sessions.forget(cookie);
    } else if ((route.prefix === '/api/users' || route.prefix === '/api/profile') && req.method !== 'GET') {
      // A user changed, was deleted or had sessions ended; their cookies are unknown here, so start afresh.
      onResponse = (status) => status < 400 && sessions.clear();
    }
    if (debug) {
      const started = performance.now();
      res.once('finish', () =>
        logger.debug(
          {
            method: req.method,
            url: req.url,
            service: route.service,
            status: res.statusCode,
            ms: Math.round(performance.now() - started),
          },
          'proxied',
        ),
      );
    }
    // Sent again to another instance when the first one's connection fails: reads, and the routes whose handlers
    // make a repeat harmless (routes.ts).
    proxy.web(req, res, route.service, onResponse, route.retry === true || method === 'GET' || method === 'HEAD' || method === 'OPTIONS');
  }

  /**
   * /api straight on the Node server, ahead of Koa: the proxy writes the answer itself, and Koa's context, middleware
   * chain and response handling cost a fifth of the gateway's CPU per webhook. Errors answer `{ error }` as Koa's do.
   */
  function handle(req: IncomingMessage, res: ServerResponse): boolean {
    let url = req.url ?? '/';
    let q = url.indexOf('?');
    let path = q === -1 ? url : url.slice(0, q);
    // A shopper's click on a message's link: answered by the service that made it, like its other public routes.
    const tracked = trackedLinkApiPath(path);
    if (tracked) {
      url = req.url = tracked + (q === -1 ? '' : url.slice(q));
      q = url.indexOf('?');
      path = tracked;
    }
    const started = performance.now();
    // By the gateway's route table (a prefix, never the raw path with its ids), so series stay few.
    const label = isApiPath(path) ? routeFor(path).prefix : path === '/healthz' || path === '/readyz' ? path : 'pages';
    res.once('finish', () => observeRequest(req.method ?? 'GET', label, res.statusCode, (performance.now() - started) / 1000));
    setSecurityHeaders(req, res);
    if (!isApiPath(path)) return false;
    record?.(req, res, path);
    // The gateway's own answer (the services' parts merged), before the prefix table would send it to svc-email.
    if (path === OPENAPI_PATH) {
      openapi(req, res).catch((err: unknown) => {
        logger.error({ err, path }, 'gateway error');
        res.destroy();
      });
      return true;
    }
    // The contact pages' timelines: the gateway's own answer from both services' parts, for the session's user.
    const target = timelineTarget(path);
    const answer = target
      ? serveTimeline(res, req, async () => {
          const identity = await sessions.resolve(req.headers.cookie);
          const requestId = typeof req.headers['x-request-id'] === 'string' ? req.headers['x-request-id'] : randomUUID();
          return timeline(target, new URLSearchParams(q === -1 ? '' : url.slice(q + 1)), identity.token, requestId);
        })
      : api(req, res, path);
    answer.catch((err: unknown) => {
      const known = err instanceof HttpError;
      if (!known) logger.error({ err, path }, 'gateway error');
      if (res.headersSent) return void res.destroy();
      const body = JSON.stringify({ error: known ? err.message : 'Internal server error' });
      res.writeHead(known ? err.status : 500, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    return true;
  }

  const app = new Koa();
  app.proxy = config.trustedHops > 0;
  app.maxIpsCount = config.trustedHops;
  app.silent = true;
  app.on('error', (err) => logger.warn({ err: (err as Error).message }, 'koa error'));
  app.use(errors(logger));
  app.use(healthRoutes(upstreams));
  app.use(compress({ threshold: 1024, br: false }));
  app.use(staticFiles(config));

  for (const [what, dir] of [['shell', config.shellDir], ...Object.entries(config.remoteDirs)]) {
    if (!existsSync(dir)) logger.warn({ dir }, `${what} is not built yet: its pages answer 503 until it is`);
  }

  const koa = app.callback();
  const internal = new Koa();
  internal.silent = true;
  internal.use(errors(logger));
  internal.use(healthRoutes(upstreams, { detail: true }));
  internal.use(async (ctx, next) => {
    if (ctx.path !== '/metrics') return next();
    ctx.respond = false;
    await metricsResponse(ctx.req, ctx.res);
  });
  return {
    app,
    /** The internal port's listener: detailed readiness and `/metrics`. */
    internalListener: internal.callback(),
    /** The server's request listener: /api to the services, everything else to Koa. */
    listener: (req: IncomingMessage, res: ServerResponse) => void (handle(req, res) || koa(req, res)),
    sessions,
    close() {
      proxy.close();
      agent.destroy();
    },
  };
}

export interface RunningGateway {
  server: Server;
  port: number;
  url: string;
  /** The internal port's URL, when `internalPort` opened one. */
  internalUrl: string | null;
  close(): Promise<void>;
}

export async function startGateway(config: GatewayConfig, logger: Logger): Promise<RunningGateway> {
  const gateway = createGateway(config, logger);
  const server = http.createServer(gateway.listener);
  // Longer than any load balancer's idle timeout in front of us, so the gateway is never the side that closes first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  let internal: Server | null = null;
  if (config.internalPort > 0) {
    internal = http.createServer(gateway.internalListener);
    await new Promise<void>((resolve, reject) => {
      internal!.once('error', reject);
      internal!.listen(config.internalPort, config.host, () => resolve());
    });
  }
  return {
    server,
    port,
    url: `http://${config.host}:${port}`,
    internalUrl: internal ? `http://${config.host}:${(internal.address() as { port: number }).port}` : null,
    close: () =>
      new Promise<void>((resolve) => {
        gateway.close();
        internal?.close();
        internal?.closeAllConnections();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
