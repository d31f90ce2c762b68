import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import Koa, { type Context, type Next } from 'koa';
import Router from '@koa/router';
import type { Logger } from './logger';
import { bodyParser } from './body';
import { HttpError, isDuplicateKeyError } from './errors';
import { identityMiddleware } from './identity';
import { observeRequest } from './metrics';

export type ReadinessChecks = Record<string, () => boolean | Promise<boolean>>;

/** One JSON error format for every service: `{ "error": message }`; internals are logged, never leaked. */
export function errorHandler(logger: Logger) {
  return async function handleErrors(ctx: Context, next: Next) {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = { error: `Not found: ${ctx.method} ${ctx.path}` };
      }
    } catch (err) {
      if (err instanceof HttpError) {
        ctx.status = err.status;
        ctx.body = { error: err.message };
      } else if (isDuplicateKeyError(err)) {
        ctx.status = 409;
        ctx.body = { error: 'A record with the same unique value already exists' };
        // Which index refused it, for the operator (a conflict the domain did not foresee is worth a look).
        const e = err as { keyPattern?: unknown; keyValue?: unknown; errmsg?: string; message?: string };
        logger.warn(
          { path: ctx.path, keyPattern: e.keyPattern, keyValue: e.keyValue, detail: (e.errmsg ?? e.message)?.slice(0, 300) },
          'duplicate key',
        );
      } else if ((err as { status?: number; expose?: boolean }).expose && (err as { status?: number }).status) {
        // Koa/router errors such as 405 Method Not Allowed carry a safe message.
        ctx.status = (err as { status: number }).status;
        ctx.body = { error: (err as Error).message };
      } else {
        ctx.status = 500;
        ctx.body = { error: 'Internal server error' };
        logger.error({ err, requestId: ctx.state.requestId, path: ctx.path }, 'unhandled error');
      }
    }
  };
}

export function healthRouter(checks: ReadinessChecks): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const results: Record<string, boolean> = {};
    for (const [name, check] of Object.entries(checks)) {
      try {
        results[name] = await check();
      } catch {
        results[name] = false;
      }
    }
    const ready = Object.values(results).every(Boolean);
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ready' : 'not ready', checks: results };
  });
  return router;
}

export interface CreateAppOptions {
  logger: Logger;
  identitySecret: string;
  readiness: ReadinessChecks;
  bodyLimit?: number;
}

/** Koa app with request id, error handler, body cap, gateway identity check and health routes. */
export function createApp({ logger, identitySecret, readiness, bodyLimit }: CreateAppOptions): Koa {
  const app = new Koa();
  app.proxy = true;
  app.silent = true;
  app.on('error', (err) => logger.error({ err }, 'koa error'));
  app.use(async (ctx, next) => {
    ctx.state.requestId = ctx.get('x-request-id') || randomUUID();
    ctx.set('x-request-id', ctx.state.requestId);
    const started = performance.now();
    await next();
    // The router's pattern (`/api/contacts/:id`), not the path: one series per route, whatever the ids.
    const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
    observeRequest(ctx.method, route, ctx.status, (performance.now() - started) / 1000);
  });
  app.use(errorHandler(logger));
  const health = healthRouter(readiness);
  app.use(health.routes());
  app.use(identityMiddleware(identitySecret));
  app.use(bodyParser({ limit: bodyLimit }));
  return app;
}

export function mount(app: Koa, routers: Router[]): void {
  for (const r of routers) app.use(r.routes()).use(r.allowedMethods({ throw: true }));
}
