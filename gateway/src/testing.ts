import http, { type Server } from 'node:http';
import { identitySecret, verifyIdentity, createLogger } from '@act/service-kit';
import { freePort } from '@act/service-kit/testing';
import { startGateway, type RunningGateway } from './app';
import type { GatewayConfig } from './config';
import type { ServiceName } from './routes';

export interface Echo {
  service: string;
  method: string;
  url: string;
  identity: ReturnType<typeof verifyIdentity>;
  identityHeader: string | undefined;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface FakeUpstream {
  url: string;
  requests: Echo[];
  close(): Promise<void>;
}

/**
 * A tiny service that answers every request with what it received (path, identity, headers, body), as JSON.
 * `handler` may take over for special answers (Set-Cookie, slowness).
 */
export async function fakeUpstream(
  service: string,
  handler?: (req: http.IncomingMessage, res: http.ServerResponse, echo: Echo) => boolean | void,
  /** A port of its own choosing (to come back where an instance was); default a free one. */
  atPort?: number,
): Promise<FakeUpstream> {
  const requests: Echo[] = [];
  const server: Server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const header = req.headers['x-act-identity'] as string | undefined;
      const echo: Echo = {
        service,
        method: req.method!,
        url: req.url!,
        identity: verifyIdentity(header, identitySecret()),
        identityHeader: header,
        headers: req.headers,
        body,
      };
      requests.push(echo);
      if (handler?.(req, res, echo)) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(echo));
    });
  });
  const port = atPort ?? (await freePort());
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** A URL where nothing listens (connection refused). */
export async function deadUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

export function testConfig(
  upstreams: Record<ServiceName, string | string[]>,
  overrides: Partial<GatewayConfig> = {},
): GatewayConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    upstreams: Object.fromEntries(Object.entries(upstreams).map(([k, v]) => [k, [v].flat()])) as Record<ServiceName, string[]>,
    healthCheckMs: 0,
    identitySecret: identitySecret(),
    bodyLimit: 1024 * 1024,
    proxyTimeoutMs: 15_000,
    sessionCacheMs: 5_000,
    sessionCacheMax: 10_000,
    shellDir: '/nonexistent/shell',
    remoteDirs: { 'mfe-email': '/nonexistent/mfe-email', 'mfe-sms': '/nonexistent/mfe-sms' },
    remotes: { mfe_email: '/remotes/mfe-email/mf-manifest.json', mfe_sms: '/remotes/mfe-sms/mf-manifest.json' },
    trustedHops: 0,
    internalPort: 0,
    publicUrl: null,
    ...overrides,
  };
}

export function startTestGateway(config: GatewayConfig): Promise<RunningGateway> {
  // Tests provoke dead services and missing folders on purpose; their warnings would only be noise.
  process.env.LOG_LEVEL ??= 'error';
  return startGateway(config, createLogger('gateway-test'));
}

/** fetch + JSON for the gateway (no identity header: the gateway makes it). */
export async function get(url: string, init: RequestInit = {}) {
  const res = await fetch(url, init);
  const text = await res.text();
  // Tests read whatever the fake services or the gateway answered; a precise type would only add casts.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text, headers: res.headers };
}
