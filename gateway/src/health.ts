import type { Context, Next } from 'koa';
import type { Readiness, Upstreams } from './upstreams/instances';

export interface ServiceReadiness extends Readiness {
  /** Each instance's own answer, when the service has more than one. */
  instances?: (Readiness & { url: string })[];
}

/**
 * `/healthz`: the gateway itself is up. `/readyz`: every service has at least one ready instance (503 otherwise).
 * The public port says only that; the internal port (`detail`) adds each service's checks (MongoDB, NATS), errors
 * and instances, which name the internals an outsider has no business knowing. Each probe also updates which
 * instances the gateway sends requests to.
 */
export function healthRoutes(upstreams: Pick<Upstreams, 'probeAll'>, { detail = false }: { detail?: boolean } = {}) {
  return async function health(ctx: Context, next: Next) {
    if (ctx.path === '/healthz') {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { status: 'ok' };
      return;
    }
    if (ctx.path === '/readyz') {
      const probed = await upstreams.probeAll();
      const services: Record<string, ServiceReadiness> = {};
      for (const [name, list] of Object.entries(probed)) {
        const ready = list.find((p) => p.readiness.ready) ?? list[0]!;
        services[name] = {
          ...ready.readiness,
          ...(list.length > 1 && { instances: list.map((p) => ({ url: p.instance.url, ...p.readiness })) }),
        };
      }
      const ready = Object.values(services).every((r) => r.ready);
      ctx.set('Cache-Control', 'no-store');
      ctx.status = ready ? 200 : 503;
      ctx.body = detail ? { status: ready ? 'ready' : 'not ready', services } : { status: ready ? 'ready' : 'not ready' };
      return;
    }
    return next();
  };
}
