import type { IncomingMessage, ServerResponse } from 'node:http';
import { mergeOpenApi, type OpenApiDocument } from '@act/contracts/src/openapi/merge';
import type { Logger } from '@act/service-kit';
import type { ServiceName } from './routes';
import type { Upstreams } from './upstreams/instances';

export const OPENAPI_PATH = '/api/openapi.json';
const SERVICES: ServiceName[] = ['svc-auth', 'svc-email', 'svc-sms'];
/** Parts change with a deployment only; a minute keeps a rolling update's new routes from waiting long. */
const CACHE_MS = 60_000;

export interface OpenApiOptions {
  upstreams: Pick<Upstreams, 'pick'>;
  /** The identity "nobody": the services answer only the gateway's signed calls. */
  identity: () => string;
  timeoutMs: number;
  logger: Logger;
}

/**
 * GET /api/openapi.json: each service's part (its `GET /openapi.json`) merged into one document. Public, like the
 * webhooks it describes: it names no data, only the calls. A service that does not answer makes it a 503 rather
 * than a document with a third of the API missing.
 */
export function createOpenApiDocument({ upstreams, identity, timeoutMs, logger }: OpenApiOptions) {
  let cached: { body: string; expires: number } | null = null;

  async function part(service: ServiceName): Promise<OpenApiDocument> {
    const { url } = upstreams.pick(service);
    const res = await fetch(`${url}/openapi.json`, { headers: { 'x-act-identity': identity() }, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) throw new Error(`${service} answered ${res.status}`);
    return (await res.json()) as OpenApiDocument;
  }

  async function document(): Promise<string> {
    if (cached && cached.expires > Date.now()) return cached.body;
    const parts = await Promise.all(SERVICES.map(part));
    const body = JSON.stringify(mergeOpenApi(parts));
    cached = { body, expires: Date.now() + CACHE_MS };
    return body;
  }

  return async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let status = 200;
    let body: string;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      status = 405;
      body = JSON.stringify({ error: `Method ${String(req.method).slice(0, 20)} is not allowed` });
      res.setHeader('Allow', 'GET, HEAD');
    } else {
      try {
        body = await document();
      } catch (err) {
        logger.warn({ err: (err as Error).message }, 'API document unavailable');
        status = 503;
        body = JSON.stringify({ error: 'The API document is not available: a service did not answer' });
      }
    }
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': status === 200 ? 'public, max-age=60' : 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
