import http from 'node:http';
import { Pool } from 'undici';
import type { Logger } from '@act/service-kit';
import type { ServiceName } from '../routes';

/** One running copy of a service, with its own keep-alive pool. */
export interface Instance {
  service: ServiceName;
  url: string;
  pool: Pool;
  /** In rotation: its last health check passed and no connection to it has failed since. */
  up: boolean;
  /** Why it is out of rotation (a connection error or the health check's answer). */
  reason: string | null;
}

export interface Readiness {
  ready: boolean;
  status?: number;
  checks?: Record<string, boolean>;
  error?: string;
}

export interface UpstreamsOptions {
  agent: http.Agent;
  logger: Logger;
  /** How often each instance's /readyz is asked (0: never; only connection failures take one out). */
  checkEveryMs: number;
  timeoutMs: number;
}

/**
 * Every instance of every service, balanced round-robin over those in rotation. An instance leaves the rotation
 * when a connection to it fails or its /readyz does not answer 200, and comes back when /readyz does. When none
 * of a service's instances is in rotation, all of them are tried anyway: a health check can lag behind a restart,
 * and trying costs less than refusing.
 */
export function createUpstreams(urls: Record<ServiceName, string[]>, { agent, logger, checkEveryMs, timeoutMs }: UpstreamsOptions) {
  const byService = {} as Record<ServiceName, Instance[]>;
  const cursor = {} as Record<ServiceName, number>;
  for (const [service, list] of Object.entries(urls) as [ServiceName, string[]][]) {
    // Idle connections close after 30 s, before the services' own 65 s keep-alive timeout, so a request is never
    // written onto a connection the service is closing.
    byService[service] = list.map((url) => ({
      service,
      url,
      pool: new Pool(new URL(url).origin, { connections: 256, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 30_000 }),
      up: true,
      reason: null,
    }));
    cursor[service] = 0;
  }

  function setUp(instance: Instance, up: boolean, reason: string | null): void {
    if (instance.up !== up)
      logger[up ? 'info' : 'warn']({ service: instance.service, url: instance.url, reason }, up ? 'instance back in rotation' : 'instance out of rotation');
    instance.up = up;
    instance.reason = reason;
  }

  /** GET <instance>/readyz: the service's own answer (checks of MongoDB and NATS). */
  function probe(instance: Instance): Promise<Readiness> {
    return new Promise<Readiness>((resolve) => {
      const req = http.get(new URL('/readyz', instance.url), { agent, timeout: timeoutMs }, (res) => {
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
    }).then((r: Readiness) => {
      setUp(instance, r.ready, r.ready ? null : (r.error ?? `readyz ${r.status}`));
      return r;
    });
  }

  let timer: NodeJS.Timeout | null = null;
  let checking = false;
  if (checkEveryMs > 0) {
    timer = setInterval(() => {
      if (checking) return;
      checking = true;
      void Promise.all(Object.values(byService).flat().map(probe)).finally(() => (checking = false));
    }, checkEveryMs);
    timer.unref();
  }

  return {
    /** The next instance of `service` in rotation, other than `not` when another exists. */
    pick(service: ServiceName, not?: Instance): Instance {
      const all = byService[service];
      const candidates = not && all.length > 1 ? all.filter((i) => i !== not) : all;
      const up = candidates.filter((i) => i.up);
      const from = up.length ? up : candidates;
      cursor[service] = (cursor[service] + 1) % 1_000_000;
      return from[cursor[service] % from.length]!;
    },
    /** A connection to it failed: out of rotation until its /readyz answers 200 again. */
    failed(instance: Instance, reason: string): void {
      setUp(instance, false, reason);
    },
    instances(service: ServiceName): readonly Instance[] {
      return byService[service];
    },
    services(): ServiceName[] {
      return Object.keys(byService) as ServiceName[];
    },
    /** Asks every instance now (the readiness endpoints), updating the rotation with the answers. */
    probeAll(): Promise<Record<ServiceName, { instance: Instance; readiness: Readiness }[]>> {
      return Promise.all(
        (Object.entries(byService) as [ServiceName, Instance[]][]).map(async ([service, list]) => [
          service,
          await Promise.all(list.map(async (instance) => ({ instance, readiness: await probe(instance) }))),
        ]),
      ).then((pairs) => Object.fromEntries(pairs) as Record<ServiceName, { instance: Instance; readiness: Readiness }[]>);
    },
    close(): void {
      if (timer) clearInterval(timer);
      // The server is closing every connection too: nothing in flight is worth waiting for.
      for (const i of Object.values(byService).flat()) void i.pool.destroy().catch(() => undefined);
    },
  };
}

export type Upstreams = ReturnType<typeof createUpstreams>;

/** `AUTH_URL=http://a:4001,http://b:4001`: one or more instances, separated by commas. */
export function parseUpstreamList(value: string): string[] {
  const urls = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const u of urls) new URL(u); // a typo fails at start, naming the value
  return urls;
}
