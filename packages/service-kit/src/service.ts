import type { Server } from 'node:http';
import type Koa from 'koa';
import type Router from '@koa/router';
import type { Connection } from 'mongoose';
import { createApp, mount, type ReadinessChecks } from './app';
import { env, envInt, identitySecret, mongoTarget, natsPrefix } from './config';
import { createLogger, type Logger } from './logger';
import { connectMongo, mongoReady } from './mongo';
import { createBus, type Bus } from './nats';
import { createOutbox, type Outbox } from './outbox';
import { initMetrics, startMetricsServer } from './metrics';
import { auditMiddleware } from './audit';
import type { AuditService } from '@act/contracts/src/audit';
import { openApiRouter, registeredRoutes, undocumentedRoutes } from './openapi';
import type { OpenApiDocument } from '@act/contracts/src/openapi/merge';

export interface ServiceDeps {
  name: string;
  conn: Connection;
  bus: Bus;
  outbox: Outbox;
  logger: Logger;
  app: Koa;
  publicUrl: string;
}

export interface ServiceParts {
  routers: Router[];
  readiness?: ReadinessChecks;
  /** Called after listen (start schedulers, consumers). */
  start?: () => Promise<void>;
  stop?: () => Promise<void>;
}

export interface RunServiceOptions {
  name: string;
  defaultPort: number;
  defaultDb: string;
  /** The env setting naming the metrics port (e.g. `EMAIL_METRICS_PORT`); `METRICS_PORT` also works; 0 = none. */
  metricsPortEnv?: string;
  build: (deps: ServiceDeps) => Promise<ServiceParts>;
  /** The service's part of the API document (packages/contracts/openapi/<service>.json). */
  openapi?: OpenApiDocument;
}

export interface RunningService {
  server: Server;
  port: number;
  /** The metrics port, when one was opened. */
  metricsPort: number | null;
  deps: ServiceDeps;
  close(): Promise<void>;
}

/**
 * Wires a service: Mongo, NATS bus + outbox, Koa app with the kit's middleware, the feature routers, signals.
 * Entry files stay a few lines long; feature code receives its dependencies instead of reaching for globals.
 */
export async function runService({ name, defaultPort, defaultDb, metricsPortEnv, build, openapi }: RunServiceOptions): Promise<RunningService> {
  const logger = createLogger(name);
  initMetrics(name);
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection'));
  const conn = await connectMongo(mongoTarget(defaultDb), logger);
  const bus = createBus({ url: env('NATS_URL', 'nats://127.0.0.1:4222'), prefix: natsPrefix(), name, logger });
  const outbox = createOutbox({ conn, bus, source: name, logger });
  const readiness: ReadinessChecks = { mongo: () => mongoReady(conn), nats: () => bus.isConnected() };
  const app = createApp({ logger, identitySecret: identitySecret(), readiness, bodyLimit: envInt('BODY_LIMIT', 1024 * 1024) });
  // Before every feature's middleware and router: each staff change is recorded where it is made.
  app.use(auditMiddleware({ outbox, service: name as AuditService, logger }));
  const deps: ServiceDeps = { name, conn, bus, outbox, logger, app, publicUrl: env('PUBLIC_URL', 'http://127.0.0.1:8080') };
  const parts = await build(deps);
  Object.assign(readiness, parts.readiness ?? {});
  mount(app, openapi ? [...parts.routers, openApiRouter(openapi, parts.routers)] : parts.routers);
  if (openapi) {
    const missing = undocumentedRoutes(registeredRoutes(parts.routers), openapi);
    // Said at every start so a new route without its entry in packages/contracts/src/openapi/operations.ts shows early.
    if (missing.length) logger.warn({ routes: missing.map((r) => `${r.method.toUpperCase()} ${r.path}`) }, 'routes missing from the API document');
  }

  const port = envInt('PORT', defaultPort);
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(port, env('HOST', '127.0.0.1'), () => resolve(s));
  });
  server.keepAliveTimeout = 65_000;
  const actualPort = (server.address() as { port: number }).port;
  const metricsPort = envInt(metricsPortEnv ?? 'METRICS_PORT', envInt('METRICS_PORT', 0));
  const metrics = await startMetricsServer(metricsPort, env('METRICS_HOST', env('HOST', '127.0.0.1')));
  await parts.start?.();
  // The stack launcher and test helpers read this line to learn the port.
  logger.info({ port: actualPort, metricsPort: metrics?.port ?? null }, `${name} listening on http://127.0.0.1:${actualPort}`);
  if (process.send) process.send({ type: 'listening', port: actualPort, metricsPort: metrics?.port ?? null });

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      server.close();
      metrics?.server.close();
      await parts.stop?.().catch((err) => logger.error({ err }, 'stop failed'));
      outbox.stop();
      await bus.close().catch(() => undefined);
      await conn.close().catch(() => undefined);
    })());
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      void close().finally(() => process.exit(0));
      setTimeout(() => process.exit(0), 5_000).unref();
    });
  }
  return { server, port: actualPort, metricsPort: metrics?.port ?? null, deps, close };
}
