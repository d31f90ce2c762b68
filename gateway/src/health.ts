import http from 'node:http';
import type { Context, Next } from 'koa';
import type { ServiceName } from './routes';

export interface ServiceReadiness {
  ready: boolean;
  /** HTTP status of the service's /readyz, when it answered. */
  status?: number;
  /** The service's own checks (mongo, nats, ...), when it answered with them. */
  checks?: Record<string, boolean>;
  error?: string;
}

function probe(url: string, agent: http.Agent, timeoutMs: number): Promise<ServiceReadiness> {
  return new Promise((resolve) => {
    const req = http.get(new URL('/readyz', url), { agent, timeout: timeoutMs }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let checks: Record<string, boolean> | undefined;
        try {
          checks = (JSON.parse(text) as { checks?: Record<string, boolean> }).checks;
        } catch {
          checks = undefined;
        }
        resolve({ ready: res.statusCode === 200, status: res.statusCode, ...(checks ? { checks } : {}) });
      });
      res.on('error', (err) => resolve({ ready: false, error: err.message }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err) => resolve({ ready: false, error: (err as NodeJS.ErrnoException).code ?? err.message }));
  });
}

/**
 * `/healthz`: the gateway itself is up. `/readyz`: every service says it is ready (503 otherwise). The public port
 * says only that; the internal port (`detail`) adds each service's checks (MongoDB, NATS) and errors, which name
 * the internals an outsider has no business knowing.
 */
export function healthRoutes(
  upstreams: Record<ServiceName, string>,
  agent: http.Agent,
  { detail = false, timeoutMs = 2_000 }: { detail?: boolean; timeoutMs?: number } = {},
) {
  return async function health(ctx: Context, next: Next) {
    if (ctx.path === '/healthz') {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { status: 'ok' };
      return;
    }
    if (ctx.path === '/readyz') {
      const names = Object.keys(upstreams) as ServiceName[];
      const results = await Promise.all(names.map((n) => probe(upstreams[n], agent, timeoutMs)));
      const services = Object.fromEntries(names.map((n, i) => [n, results[i]]));
      const ready = results.every((r) => r.ready);
      ctx.set('Cache-Control', 'no-store');
      ctx.status = ready ? 200 : 503;
      ctx.body = detail ? { status: ready ? 'ready' : 'not ready', services } : { status: ready ? 'ready' : 'not ready' };
      return;
    }
    return next();
  };
}
