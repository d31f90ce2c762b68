// Size probes for the hostile suite: every string field of the endpoint table at the largest body the gateway takes
// (just under 1 MB) and in shapes that make a backtracking pattern take quadratic or exponential time. A linear
// check answers them about as fast as the same field holding a few characters (docs/security.md).
import { performance } from 'node:perf_hooks';
import { errorMessage, send, type RawRequest, type RawResponse } from './client';
import { endpoints, type Endpoint } from './endpoints';
import type { Fixtures } from './fixtures';
import { withField, type FieldKind } from './payloads';

/** The gateway's and the services' body cap (BODY_LIMIT default). */
export const BODY_CAP = 1024 * 1024;
/** Node's default limit on a request head: a query string longer than this is a 431 before any handler. */
export const QUERY_CAP = 15_000;

export interface Shape {
  label: string;
  make: (length: number) => string;
}

/** What the field is filled with: plain bulk, and runs that backtracking patterns retry on. */
export const SHAPES: Shape[] = [
  { label: 'plain', make: (n) => 'A'.repeat(n) },
  // "a@" + dots + "@": the address shape that held svc-email for 15 s.
  { label: 'a@....@', make: (n) => `a@${'.'.repeat(Math.max(1, n - 3))}@` },
  // A run of spaces between two letters: what `\s+$`-style trims and splits retry on.
  { label: 'a    a', make: (n) => `a${' '.repeat(Math.max(1, n - 2))}a` },
];

const STRING_KINDS: FieldKind[] = ['text', 'html', 'email', 'password', 'role', 'mixedId'];

export type Service = 'svc-auth' | 'svc-email' | 'svc-sms';

export function serviceOf(path: string): Service {
  if (/^\/api\/(user|users|login|logout|profile)(\/|$)/.test(path)) return 'svc-auth';
  if (path.startsWith('/api/sms') || path.startsWith('/api/twilio')) return 'svc-sms';
  return 'svc-email';
}

export interface Probe {
  name: string;
  label: string;
  service: Service;
  ep: Endpoint | null;
  /** The request with the field at `length` characters of the shape. */
  request: (length: number) => RawRequest;
  /** The endpoint's ordinary request (its valid body): the answer time a probe is compared with. */
  normal: () => RawRequest;
  /** The largest length this probe is sent at. */
  max: number;
  allow: number[];
}

/** Public calls come from addresses of their own, so per-address limits never answer instead of the rules. */
let seq = 0;
const nextAnon = () => {
  seq++;
  return `127.1.${1 + ((seq >> 8) % 250)}.${1 + (seq % 250)}`;
};

export function buildProbes(f: Fixtures): Probe[] {
  const probes: Probe[] = [];
  const cookieOf = (as: string) => (as === 'user' ? f.userCookie : as === 'admin' ? f.adminCookie : undefined);
  for (const ep of endpoints(f)) {
    if (!ep.base || !ep.fields || ep.method === 'GET' || ep.destructive) continue;
    const path = ep.path.includes(':id') ? (ep.id !== undefined ? ep.path.replace(':id', String(ep.id)) : null) : ep.path;
    if (!path) continue;
    const cookie = cookieOf(ep.as);
    const headers = { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) };
    const from = () => (cookie ? '127.0.0.3' : nextAnon());
    const normal = () => ({ method: ep.method, path, headers, body: JSON.stringify(ep.base!(`${f.tag}-lin${++seq}`)), from: from() });
    for (const [field, spec] of Object.entries(ep.fields)) {
      if (!STRING_KINDS.includes(spec.kind)) continue;
      for (const shape of SHAPES) {
        // A marker of its own per request: creates take unique names, and cleanup finds what they left.
        const body = (value: string) => JSON.stringify(withField(ep.base!(`${f.tag}-lin${++seq}`), field, value));
        probes.push({
          name: `${ep.method} ${ep.path}`,
          label: `${field}=${shape.label}`,
          service: serviceOf(ep.path),
          ep,
          max: BODY_CAP - Buffer.byteLength(body('')) - 16,
          allow: ep.allow ?? [],
          normal,
          request: (n) => ({ method: ep.method, path, headers, body: body(shape.make(n)), from: from() }),
        });
      }
    }
  }
  // The public GETs that take a string: as long as a request head may be.
  for (const [path, param, ordinary] of [
    ['/api/unsubscribe', 'email', 'someone%40example.com'],
    ['/api/unsubscribe/one-click', 'token', 'not-a-token'],
  ] as const) {
    for (const shape of SHAPES) {
      // Sized by the encoded length (a space is %20): what must fit in the head is the URL as sent.
      const perChar = encodeURIComponent(shape.make(1000)).length / 1000;
      probes.push({
        name: `GET ${path}`,
        label: `?${param}=${shape.label}`,
        service: 'svc-email',
        ep: null,
        max: Math.floor((QUERY_CAP - path.length - param.length - 2) / perChar),
        allow: [],
        normal: () => ({ method: 'GET', path: `${path}?${param}=${ordinary}`, from: nextAnon() }),
        request: (n) => ({ method: 'GET', path: `${path}?${param}=${encodeURIComponent(shape.make(n))}`, from: nextAnon() }),
      });
    }
  }
  return probes;
}

/** An ordinary call to each service: what "not slowed" is measured on while a probe is being answered. */
export function ordinaryCall(service: Service, f: Fixtures): () => RawRequest {
  // The admin: the probes change the plain user's own profile.
  if (service === 'svc-auth') return () => ({ method: 'GET', path: '/api/user', headers: { cookie: f.adminCookie }, from: '127.0.0.3' });
  if (service === 'svc-sms')
    return () => ({ method: 'GET', path: '/api/twilio/config', headers: { cookie: f.userCookie }, from: '127.0.0.3' });
  return () => ({ method: 'GET', path: '/api/unsubscribe?email=someone%40example.com', from: nextAnon() });
}

export async function timed(req: RawRequest): Promise<{ res: RawResponse; ms: number }> {
  const t0 = performance.now();
  const res = await send(req);
  return { res, ms: performance.now() - t0 };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** What is wrong with a probe's answer, or null (statuses only; times are judged by the caller). */
export function statusProblem(p: Probe, res: RawResponse, serviceDown: boolean): string | null {
  const s = res.status;
  if (s >= 500 && !p.allow.includes(s) && !(s === 503 && serviceDown)) return `${s} ${res.text.slice(0, 120)}`;
  if (s >= 400 && !errorMessage(res)) return `${s} without a JSON { error }: ${res.text.slice(0, 120)}`;
  return null;
}
