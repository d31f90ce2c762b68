// Shared by the fault tests: calls through the gateway, the stack's databases read at the source, waiting,
// timing. Fault tests run one at a time against the faults phase's own stack (own NATS and MongoDB stand-in).
import { MongoClient, type Db } from 'mongodb';
import { readStack, type StackInfo } from '../stack';

export const stack: StackInfo = readStack();
/** The gateway's internal port: /readyz there names each service's checks (the public one says ready or not). */
export const internalUrl = `http://127.0.0.1:${stack.ports['gateway-internal']}`;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Answer {
  status: number;
  // JSON of any shape: tests read the fields they expect and compare whole bodies.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  ms: number;
}

/** One call through the gateway, with the session cookie when given; `ms` is the time to the full answer. */
export async function api(
  method: string,
  path: string,
  {
    body,
    cookie,
    timeoutMs = 15_000,
    base = stack.url,
  }: { body?: unknown; cookie?: string; timeoutMs?: number; base?: string } = {},
): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(cookie ? { cookie } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, body: json, ms: performance.now() - started };
}

/** Signs the admin in through the gateway; returns the Cookie header for later calls. */
export async function adminCookie(): Promise<string> {
  const res = await fetch(`${stack.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: stack.adminPassword }),
  });
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** Throws with the answer when a call did not get the expected status. */
export function expectStatus(answer: Answer, ...statuses: number[]): Answer {
  if (!statuses.includes(answer.status)) {
    throw new Error(`expected HTTP ${statuses.join('/')}, got ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  return answer;
}

/** Polls `fn` until it returns a truthy value; the error names what was awaited and the last value seen. */
export async function waitFor<T>(
  fn: () => Promise<T | null | undefined | false>,
  {
    timeoutMs = 30_000,
    everyMs = 200,
    what = 'condition',
  }: { timeoutMs?: number; everyMs?: number; what?: string } = {},
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
      last = v;
    } catch (err) {
      last = (err as Error).message;
    }
    if (Date.now() > end)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${String(last)})`);
    await sleep(everyMs);
  }
}

/** Runs `n` async jobs with at most `width` in flight. */
export async function inParallel<T>(n: number, width: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, n) }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await job(i);
      }
    }),
  );
  return out;
}

// The connecting client, not the connected one: two scenarios asking at once (provider-outage runs its email and
// SMS halves side by side) each opened a client when the first was still connecting, and the one overwritten was
// never closed, its monitor keeping jest from exiting after the run.
let client: Promise<MongoClient> | null = null;

/** A service's own database, read directly: the invariants (nothing lost, nothing twice) are checked at the source. */
export async function serviceDb(service: 'svc-auth' | 'svc-email' | 'svc-sms'): Promise<Db> {
  const { mongoUri, databases } = stack;
  if (!mongoUri || !databases) throw new Error('the stack file names no MongoDB URI or databases');
  const connecting = (client ??= new MongoClient(mongoUri, { serverSelectionTimeoutMS: 5_000 }).connect());
  try {
    return (await connecting).db(databases[service]);
  } catch (err) {
    if (client === connecting) client = null; // the next call tries again
    throw err;
  }
}

/** Closes the direct MongoDB connection (after a stand-in restart it must be opened again). */
export async function closeDb(): Promise<void> {
  const c = client;
  client = null;
  await c?.then((connected) => connected.close()).catch(() => undefined);
}

// An open client would keep jest from exiting after the file (and hang the whole run).
afterAll(closeDb);

/** A unique tag per test run, for funnel ids and contact ids. */
export const runTag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Logs and returns how long a scenario took (the suite prints each one). */
export function stopwatch(label: string) {
  const started = Date.now();
  return () => {
    const s = (Date.now() - started) / 1000;
    console.log(`[faults] ${label}: ${s.toFixed(1)} s`);
    return s;
  };
}
