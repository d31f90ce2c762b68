// Shared by the fault tests: calls through the gateway, the stack's databases read at the source, waiting,
// timing. Fault tests run one at a time against the faults phase's own stack (own NATS and MongoDB stand-in).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
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

// Two-sided funnels (the NATS scenarios): contacts posted to the email webhook, the SMS one or both, purchases to
// either, and the checks that each ends up once on both sides with its purchase applied.

export type FunnelKind = 'both' | 'email-only' | 'sms-only';
export interface FunnelContact {
  contactId: string;
  email: string;
  phone: string;
  kind: FunnelKind;
  /** Where the purchase was posted, if any. */
  purchase: 'email' | 'sms' | null;
}

/** Funnel contact `i` of a run: created on one side or both, in two of five a purchase posted to one side. */
export function funnelContact(tag: string, i: number): FunnelContact {
  const kind: FunnelKind = i % 5 === 3 ? 'email-only' : i % 5 === 4 ? 'sms-only' : 'both';
  const purchase = kind === 'both' ? (i % 5 === 0 ? 'email' : i % 5 === 1 ? 'sms' : null) : null;
  return {
    contactId: `c-${tag}-${i}`,
    email: `buyer${i}.${tag}@example.com`,
    phone: `+1555${String(1_000_000 + i).slice(-7)}`,
    kind,
    purchase,
  };
}

/** Posts a funnel contact's deliveries in order through `post`: the contact to its side or sides, then its purchase. */
export async function postFunnel(
  f: FunnelContact,
  funnelId: string,
  post: (side: 'email' | 'sms', body: unknown) => Promise<void>,
): Promise<void> {
  const contact = {
    event: 'contact_created',
    funnel_id: funnelId,
    contact: { id: f.contactId, email: f.email, phone: f.phone, first_name: 'Pat' },
  };
  if (f.kind !== 'sms-only') await post('email', contact);
  if (f.kind !== 'email-only') await post('sms', contact);
  if (f.purchase) {
    await post(f.purchase, {
      event: 'purchase_created',
      funnel_id: funnelId,
      contact: { id: f.contactId, email: f.email, phone: f.phone },
      purchase: { amount: 49, currency: 'USD' },
    });
  }
}

/**
 * An email and an active SMS integration for `funnelId`, both services' databases, and how many webhook events each
 * held before the scenario (what it posted is counted against that).
 */
export async function twoSidedFunnel(cookie: string, funnelId: string, name: string) {
  expectStatus(
    await api('POST', '/api/webhook-integrations', {
      cookie,
      body: { name, funnel_id: funnelId, reminder_delay: 720 },
    }),
    201,
  );
  expectStatus(
    await api('POST', '/api/sms-webhook-integrations', {
      cookie,
      body: { name, funnel_id: funnelId, reminder_delay: 600, active: true },
    }),
    201,
  );
  const emailDb = await serviceDb('svc-email');
  const smsDb = await serviceDb('svc-sms');
  const eventsBefore = {
    email: await emailDb.collection('webhook_events').countDocuments(),
    sms: await smsDb.collection('sms_webhook_events').countDocuments(),
  };
  return { emailDb, smsDb, eventsBefore };
}

/** True once both services' outboxes are published (empty). */
export async function outboxesEmpty(emailDb: Db, smsDb: Db): Promise<boolean> {
  return (
    (await emailDb.collection('outbox').countDocuments()) === 0 &&
    (await smsDb.collection('outbox').countDocuments()) === 0
  );
}

/**
 * Waits until every funnel contact exists on each side (cross-channel creation for the one-sided ones) with its
 * purchase, posted to either side, applied on both; the error names the first contacts that are not. Returns each
 * side's contacts stored more than once.
 */
export async function waitForBothSides(
  emailDb: Db,
  smsDb: Db,
  funnels: FunnelContact[],
): Promise<{ email: { twice: string[] }; sms: { twice: string[] } }> {
  const ids = funnels.map((f) => f.contactId);
  const expected = Object.fromEntries(funnels.map((f) => [f.contactId, f.purchase ? 'purchased' : 'pending']));
  const stateOf = async (coll: 'contacts' | 'sms_contacts') => {
    const db = coll === 'contacts' ? emailDb : smsDb;
    const rows = await db
      .collection(coll)
      .find({ contact_id: { $in: ids } }, { projection: { _id: 0, contact_id: 1, status: 1 } })
      .toArray();
    const seen: Record<string, string> = {};
    const twice: string[] = [];
    for (const r of rows) {
      if (seen[r.contact_id]) twice.push(r.contact_id);
      seen[r.contact_id] = r.status;
    }
    return { seen, twice };
  };
  return waitFor(
    async () => {
      const email = await stateOf('contacts');
      const sms = await stateOf('sms_contacts');
      const ok = ids.every((id) => email.seen[id] === expected[id] && sms.seen[id] === expected[id]);
      return ok ? { email, sms } : null;
    },
    { what: 'every contact on both sides with its purchase applied', timeoutMs: 30_000 },
  ).catch(async (err) => {
    const email = await stateOf('contacts');
    const sms = await stateOf('sms_contacts');
    const wrong = funnels
      .filter(
        (f) => email.seen[f.contactId] !== expected[f.contactId] || sms.seen[f.contactId] !== expected[f.contactId],
      )
      .slice(0, 10)
      .map(
        (f) =>
          `${f.contactId} (${f.kind}, purchase ${f.purchase}): email ${email.seen[f.contactId]}, sms ${sms.seen[f.contactId]}`,
      );
    throw new Error(`${(err as Error).message}\n${wrong.join('\n')}`);
  });
}

/** Logs and returns how long a scenario took (the suite prints each one). */
export function stopwatch(label: string) {
  const started = Date.now();
  return () => {
    const s = (Date.now() - started) / 1000;
    console.log(`[faults] ${label}: ${s.toFixed(1)} s`);
    return s;
  };
}

/** A free TCP port in 20000-32767: below the kernel's ephemeral range, so no outgoing connection takes it meanwhile. */
async function freePort(host = '127.0.0.1'): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_768);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, host, () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

export interface NatsClusterNode {
  /** Server name, as JetStream reports it (a stream's leader and replicas). */
  name: string;
  /** Client URL of this node alone. */
  url: string;
  running(): boolean;
}

export interface NatsCluster {
  /** Every node's client URL, comma-separated: what NATS_URL holds for a cluster. */
  url: string;
  servers: string[];
  nodes: NatsClusterNode[];
  /** SIGKILL, as a crash: the node writes nothing more. */
  kill(name: string): Promise<void>;
  /** SIGTERM: the node shuts down as in a rolling restart. */
  stop(name: string): Promise<void>;
  /**
   * Starts a stopped node again on its ports and store; resolves once its /healthz says it is current on every
   * stream and consumer it replicates, or, given `ready`, once it is current with the meta leader and `ready` holds.
   */
  start(name: string, ready?: () => Promise<boolean>): Promise<void>;
  /** Stops every node and deletes the stores. */
  stopAll(): Promise<void>;
}

// Nodes left running when a jest worker ends without its afterAll (a crash, a timeout) would hold ports and temp
// stores: on exit only synchronous work runs, so their process groups are killed here.
const clusterPids = new Set<number>();
process.on('exit', () => {
  for (const pid of clusterPids) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

function natsServerBinary(): string {
  // Debian installs it in /usr/sbin, which is not on a normal user's PATH.
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/bin'].filter(Boolean);
  const found = dirs.map((dir) => path.join(dir, 'nats-server')).find((file) => existsSync(file));
  if (!found) throw new Error('nats-server not found (apt-get install nats-server)');
  return found;
}

/**
 * A JetStream cluster of `size` nats-server processes on loopback (own ports, own store folders, routes to one
 * another), resolved once every node's /healthz answers ok (a meta leader elected). For fault tests only: the
 * faults phase's single NATS and the machine's shared one on 4222 are never touched.
 */
export async function startNatsCluster({ size = 3, host = '127.0.0.1' } = {}): Promise<NatsCluster> {
  const binary = natsServerBinary();
  const storeRoot = mkdtempSync(path.join(os.tmpdir(), 'act-faults-nats-cluster-'));
  const specs: { name: string; port: number; clusterPort: number; monitorPort: number }[] = [];
  for (let i = 1; i <= size; i++) {
    specs.push({
      name: `n${i}`,
      port: await freePort(host),
      clusterPort: await freePort(host),
      monitorPort: await freePort(host),
    });
  }
  const routes = specs.map((s) => `nats://${host}:${s.clusterPort}`).join(',');
  const procs = new Map<string, { child: ChildProcess; exited: Promise<void> }>();
  /** Each node's last output lines, kept after it exits for the error saying why. */
  const tails = new Map<string, string[]>();
  const spec = (name: string) => {
    const s = specs.find((x) => x.name === name);
    if (!s) throw new Error(`no NATS node ${name}; one of ${specs.map((x) => x.name).join(', ')}`);
    return s;
  };

  // Not healthy: throws what /healthz said (the stream or consumer not yet current), so a timeout names it.
  // `serverOnly`: JetStream up and current with the meta leader, its streams and consumers not looked at.
  const healthy = async (name: string, serverOnly = false) => {
    const query = serverOnly ? '?js-server-only=true' : '';
    const res = await fetch(`http://${host}:${spec(name).monitorPort}/healthz${query}`, { signal: AbortSignal.timeout(2_000) });
    if (res.status !== 200) throw new Error(`/healthz ${res.status}: ${(await res.text()).trim()}`);
    return true;
  };
  const waitHealthy = async (name: string, timeoutMs: number, ready?: () => Promise<boolean>) => {
    await waitFor(
      async () => {
        if (!procs.get(name)) throw new Error(`${name} exited:\n${tails.get(name)?.join('\n')}`);
        if (!ready) return healthy(name);
        await healthy(name, true);
        if (!(await ready())) throw new Error('current with the meta leader; not yet ready');
        return true;
      },
      { what: `NATS node ${name} healthy (JetStream current)`, timeoutMs, everyMs: 250 },
    );
  };
  const launch = (name: string) => {
    if (procs.has(name)) return;
    const s = spec(name);
    const storeDir = path.join(storeRoot, name);
    mkdirSync(storeDir, { recursive: true });
    // Its own process group, so a kill reaches exactly this node.
    const child = spawn(
      binary,
      ['-js', '-n', s.name, '-a', host, '-p', String(s.port), '-m', String(s.monitorPort), '-sd', storeDir,
        '--cluster_name', 'act-faults', '--cluster', `nats://${host}:${s.clusterPort}`, '--routes', routes],
      { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const tail: string[] = [];
    tails.set(name, tail);
    const keep = (chunk: Buffer) => {
      tail.push(...chunk.toString('utf8').trimEnd().split('\n'));
      tail.splice(0, Math.max(0, tail.length - 20));
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => {
        if (child.pid) clusterPids.delete(child.pid);
        if (procs.get(name)?.child === child) procs.delete(name);
        resolve();
      });
      child.once('error', (err) => {
        tail.push(`could not start ${binary}: ${err.message}`);
        if (procs.get(name)?.child === child) procs.delete(name);
        resolve();
      });
    });
    if (child.pid) clusterPids.add(child.pid);
    procs.set(name, { child, exited });
  };
  const signal = async (name: string, sig: NodeJS.Signals) => {
    const p = procs.get(name);
    if (!p?.child.pid) return;
    try {
      process.kill(-p.child.pid, sig);
    } catch {
      // already gone
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-p.child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 10_000);
    await p.exited;
    clearTimeout(timer);
  };
  const stopAll = async () => {
    await Promise.all(specs.map((s) => signal(s.name, 'SIGKILL')));
    rmSync(storeRoot, { recursive: true, force: true });
  };

  try {
    for (const s of specs) launch(s.name);
    await Promise.all(specs.map((s) => waitHealthy(s.name, 30_000)));
  } catch (err) {
    await stopAll();
    throw err;
  }
  const servers = specs.map((s) => `nats://${host}:${s.port}`);
  return {
    url: servers.join(','),
    servers,
    nodes: specs.map((s) => ({ name: s.name, url: `nats://${host}:${s.port}`, running: () => procs.has(s.name) })),
    kill: (name) => signal(name, 'SIGKILL'),
    stop: (name) => signal(name, 'SIGTERM'),
    async start(name, ready) {
      launch(name);
      // A node back under load first replays its store and catches up on every stream and consumer it replicates;
      // on a loaded two-core machine that took longer than 30 s once.
      await waitHealthy(name, 75_000, ready);
    },
    stopAll,
  };
}
