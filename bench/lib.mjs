// Shared helpers of the benchmark scripts: a stack of our own, an admin session, result files.
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync, fork, spawnSync } from 'node:child_process';
import { MongoClient } from 'mongodb';
import { connect as natsConnect } from 'nats';
import { Pool } from 'undici';
import { startStack } from '../infra/scripts/stack.mjs';
import { ensureMongo, ensureNats } from '../infra/scripts/deps.mjs';
import { freePort } from '../infra/scripts/lib/net.mjs';
import { deleteStreamsWithPrefix } from '../infra/scripts/lib/nats-cleanup.mjs';
import { startProcess } from '../infra/scripts/lib/proc.mjs';
import { waitForHealthz } from '../infra/scripts/lib/health.mjs';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));

/** A fresh stack on its own databases and NATS prefix, quiet unless BENCH_VERBOSE is set. */
export async function benchStack(label, env = {}, { replicas = 1 } = {}) {
  const mongo = process.env.MONGODB_URI ? null : await ensureMongo({});
  const nats = process.env.NATS_URL ? null : await ensureNats({});
  const suffix = `_${label}_${Date.now().toString(36)}`;
  const natsPrefix = `bench${suffix}_`;
  // BENCH_OPS=1: every service counts its MongoDB commands (bench/mongo-ops.mjs), printed when the stack stops.
  const opsDir = process.env.BENCH_OPS ? path.join(BENCH_DIR, 'results', 'profiles', `ops${suffix}`) : null;
  // BENCH_OPS_PHASES=a,b as well: counted only during those phases of a bench that names its phases (opsPhase).
  const opsPhases = new Set((process.env.BENCH_OPS_PHASES ?? '').split(',').filter(Boolean));
  if (opsDir) {
    mkdirSync(opsDir, { recursive: true });
    if (opsPhases.size === 0) writeFileSync(path.join(opsDir, 'on'), '');
    // BENCH_CPU=1 as well: CPU profiles of every process too (bench/cpu-prof.mjs), summarised by bench/profile.mjs.
    const cpu = process.env.BENCH_CPU ? ` --import=${path.join(BENCH_DIR, 'cpu-prof.mjs')}` : '';
    env = { NODE_OPTIONS: `--import=${path.join(BENCH_DIR, 'mongo-ops.mjs')}${cpu}`, BENCH_PROF_DIR: opsDir, ...env };
  }
  const stack = await startStack({
    dbSuffix: suffix,
    replicas,
    env: {
      MONGODB_URI: process.env.MONGODB_URI ?? mongo.uri,
      NATS_URL: process.env.NATS_URL ?? nats.url,
      NATS_PREFIX: natsPrefix,
      LOG_LEVEL: 'warn',
      ...env,
    },
    log: process.env.BENCH_VERBOSE ? undefined : () => undefined,
  });
  const extra = [];
  let client = null;
  return {
    ...stack,
    suffix,
    /** The database of one service (act_email<suffix>...), for counts and measurements the API does not give. */
    async db(service) {
      client ??= await MongoClient.connect(stack.env.MONGODB_URI);
      return client.db(`${DB_OF[service]}${suffix}`);
    },
    /**
     * One more instance of a service on its own port against the same database (or, for 'gateway', a second
     * gateway whose upstreams are given in env: EMAIL_URL, SMS_URL...), stopped with the stack.
     */
    async startExtra(name, env = {}) {
      const port = await freePort();
      const own =
        name === 'gateway'
          ? {
              AUTH_URL: `http://127.0.0.1:${stack.ports['svc-auth']}`,
              EMAIL_URL: `http://127.0.0.1:${stack.ports['svc-email']}`,
              SMS_URL: `http://127.0.0.1:${stack.ports['svc-sms']}`,
            }
          : { MONGODB_DB: `${DB_OF[name]}${suffix}` };
      const handle = startProcess(
        `${name}#${extra.length + 2}`,
        process.execPath,
        ['--import', TSX_LOADER, 'src/index.ts'],
        {
          cwd: path.join(ROOT, name),
          env: { ...stack.env, ...own, ...env, PORT: String(port) },
          log: process.env.BENCH_VERBOSE ? undefined : () => undefined,
        },
      );
      extra.push(handle);
      const url = `http://127.0.0.1:${port}`;
      await waitForHealthz(handle, `${url}/healthz`);
      return { url, port, pid: handle.pid, stop: () => handle.stop() };
    },
    /**
     * Resolves once the stack has worked off what earlier load left behind: every service's outbox is empty and every
     * JetStream consumer of the stack's streams has taken and acknowledged all it was given. A phase that starts
     * before then shares the cores with the last phase's backlog (the other side's cross-channel consumer, the relay).
     */
    async quiet(timeoutMs = 120_000) {
      const started = Date.now();
      const nc = await natsConnect({ servers: stack.env.NATS_URL, timeout: 3000 });
      try {
        const jsm = await nc.jetstreamManager();
        for (;;) {
          let busy = 0;
          for (const service of ['svc-email', 'svc-sms', 'svc-auth']) busy += await (await this.db(service)).collection('outbox').countDocuments({});
          for await (const info of jsm.streams.list()) {
            if (!info.config.name.startsWith(natsPrefix)) continue;
            for await (const c of jsm.consumers.list(info.config.name)) busy += c.num_pending + c.num_ack_pending;
          }
          if (busy === 0) return Date.now() - started;
          if (Date.now() - started > timeoutMs) throw new Error(`the stack is still busy after ${timeoutMs} ms (${busy} waiting)`);
          await sleep(200);
        }
      } finally {
        await nc.close();
      }
    },
    /**
     * Runs `fn`; with BENCH_OPS on and `name` among BENCH_OPS_PHASES, the services count their MongoDB commands
     * during it alone, into <ops folder>/<name>/.
     */
    async opsPhase(name, fn) {
      if (!opsDir || !opsPhases.has(name)) return fn();
      writeFileSync(path.join(opsDir, 'on'), '');
      try {
        return await fn();
      } finally {
        rmSync(path.join(opsDir, 'on'), { force: true });
        // The services look for the switch every 100 ms and write their tables when it is gone.
        await new Promise((r) => setTimeout(r, 500));
        const into = path.join(opsDir, name);
        mkdirSync(into, { recursive: true });
        for (const f of readdirSync(opsDir).filter((x) => x.startsWith('ops.'))) renameSync(path.join(opsDir, f), path.join(into, f));
      }
    },
    async stop() {
      await client?.close();
      await Promise.all(extra.map((h) => h.stop()));
      await stack.stop();
      // The machine's NATS outlives the run: its stream (hundreds of thousands of events) would stay on disk and in
      // the server's memory, run after run, and slow later runs.
      await deleteStreamsWithPrefix(stack.env.NATS_URL, natsPrefix).catch((err) => console.warn(`[bench] stream not deleted: ${err.message}`));
      await mongo?.stop();
      await nats?.stop();
      if (opsDir) {
        printOps(opsDir);
        for (const name of opsPhases) if (existsSync(path.join(opsDir, name))) {
          console.log(`\n[ops] phase ${name}`);
          printOps(path.join(opsDir, name));
        }
      }
    },
  };
}

/** The MongoDB command tables bench/mongo-ops.mjs wrote, one per process. */
export function printOps(dir, top = 15) {
  for (const f of readdirSync(dir).filter((x) => x.startsWith('ops.'))) {
    const { seconds, rows, eventLoopDelay } = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
    const loop = eventLoopDelay ? `; event-loop delay p50 ${eventLoopDelay.p50Ms} / p99 ${eventLoopDelay.p99Ms} / max ${eventLoopDelay.maxMs} ms` : '';
    console.log(`\n${f}: MongoDB commands over ${seconds.toFixed(1)} s${loop}`);
    console.table(rows.slice(0, top));
  }
}

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const TSX_LOADER = fileURLToPath(import.meta.resolve('tsx'));
const DB_OF = { 'svc-auth': 'act_auth', 'svc-email': 'act_email', 'svc-sms': 'act_sms' };

/** Signs in as admin through the gateway and returns a fetch bound to that session. */
export async function adminClient(stack) {
  const res = await fetch(`${stack.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: stack.adminPassword }),
  });
  if (!res.ok) throw new Error(`admin login failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return async (method, p, body) => {
    const r = await fetch(`${stack.url}${p}`, {
      method,
      headers: { cookie, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/** The 1-minute load average: this machine is shared, so every figure is written with it. */
export const loadAvg = () => +os.loadavg()[0].toFixed(1);

export function machine() {
  return {
    load1: loadAvg(),
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
}

export function writeResult(name, data) {
  const dir = path.join(BENCH_DIR, 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), machine: machine(), ...data }, null, 2) + '\n');
  return file;
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/**
 * CPU seconds used so far by this process's descendants (services, the Mongo stand-in), by name: call before and
 * after a phase and subtract (cpuDelta) to see which process a phase costs most.
 */
export function descendantCpu() {
  const rows = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command's closing parenthesis: state ppid ... utime(14) stime(15), in clock ticks (1/100 s).
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      let cwd = '';
      try {
        cwd = path.basename(readlinkSync(`/proc/${pid}/cwd`));
      } catch {
        // not ours to read
      }
      rows.push({ pid: +pid, ppid: +f[1], secs: (+f[11] + +f[12]) / 100, args, cwd });
    } catch {
      // gone meanwhile
    }
  }
  const mine = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows) {
      if (mine.has(r.pid) || !mine.has(r.ppid)) continue;
      mine.add(r.pid);
      grew = true;
    }
  }
  const out = {};
  for (const r of rows) {
    if (!mine.has(r.pid)) continue;
    const name =
      r.pid === process.pid
        ? 'bench'
        : r.args.includes('java')
          ? 'mongo-stand-in'
          : r.args.includes('nats-server')
            ? 'nats'
            : (r.args.match(/\/(svc-[a-z]+|gateway|echo-server)[/.]/)?.[1] ??
              (r.args.includes('src/index.ts') ? r.cwd : r.args.slice(0, 40)));
    out[`${name} ${r.pid}`] = r.secs;
  }
  return out;
}

export function cpuDelta(before, after) {
  return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, +(v - (before[k] ?? 0)).toFixed(2)]));
}

/** svc-sms's fake Twilio in a child process: { url, accountSid, authToken, messages(): [{ to, body, at }], stop() }. */
export async function startFakeTwilio() {
  const child = fork(path.join(BENCH_DIR, 'fake-twilio.ts'), {
    execArgv: ['--import', TSX_LOADER],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`fake Twilio exited (${code})`)));
  });
  let got = [];
  return {
    url: ready.url,
    accountSid: ready.accountSid,
    authToken: ready.authToken,
    /** Every message recorded so far (fetched incrementally). */
    messages() {
      return new Promise((resolve) => {
        child.once('message', (m) => {
          got = got.concat(m.rows);
          resolve(got);
        });
        child.send({ type: 'messages', since: got.length });
      });
    },
    stop() {
      child.disconnect();
    },
  };
}

/** One JSON POST on an undici pool: { ok } for a 2xx answer, else { error } (the status and the body's start). */
/** `body` as an object, or as the exact bytes a signature was made over (a string); `headers` beside content-type. */
async function postJson(pool, path, body, timeoutMs = undefined, headers = {}) {
  try {
    const res = await pool.request({
      path,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await res.body.text();
    return res.statusCode >= 200 && res.statusCode < 300 ? { ok: true } : { ok: false, status: res.statusCode, error: `${res.statusCode} ${text.slice(0, 200)}` };
  } catch (err) {
    return { ok: false, error: err.message, timeout: /timeout/i.test(err.code ?? err.message) };
  }
}

/**
 * Posts JSON bodies as fast as `concurrency` workers can, spreading them over `bases` (gateway URLs) in turn.
 * `item(i)` → { path, body }. Returns { ms, ok, failed, firstError, latencies (sorted ms) }.
 */
export async function postAll({ bases, count, concurrency = 64, item }) {
  const pools = bases.map((b) => new Pool(b, { connections: Math.ceil(concurrency / bases.length), pipelining: 1 }));
  const latencies = [];
  let next = 0;
  let ok = 0;
  let failed = 0;
  let firstError = null;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const { path: p, body } = item(i);
        const t = performance.now();
        const r = await postJson(pools[i % pools.length], p, body);
        if (r.ok) ok++;
        else {
          failed++;
          firstError ??= r.error;
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const ms = performance.now() - started;
  await Promise.all(pools.map((p) => p.close()));
  return { ms, ok, failed, firstError, latencies: latencies.sort((a, b) => a - b) };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Posts JSON bodies to one URL at a steady `rate` per second for `durationSec`, evenly spaced (autocannon's rate
 * limit lets each connection send its quota for the second at once, so every second opens with a burst).
 * Each latency runs from the moment the request was due, not from when a free connection took it, so a stack that
 * falls behind shows it in p50/p99 instead of slowing the generator down (no coordinated omission).
 * Returns { requests, ok2xx, non2xx, errors, timeouts, eventsPerSec, p50Ms, p99Ms, maxMs, firstError }.
 */
export async function postPaced({ url, rate, durationSec, connections = 64, body, timeoutMs = 10_000, sign = undefined }) {
  const { origin, pathname } = new URL(url);
  const pool = new Pool(origin, { connections, pipelining: 1 });
  const total = Math.round(rate * durationSec);
  const gapMs = 1000 / rate;
  const latencies = [];
  let ok2xx = 0;
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  let firstError = null;
  const inFlight = new Set();
  const send = async (i, due) => {
    // A signed delivery is signed over the bytes it sends, as the sender does (`sign(raw)` → its headers).
    const raw = JSON.stringify(body(i));
    const r = await postJson(pool, pathname, raw, timeoutMs, sign ? sign(raw) : {});
    if (r.ok) ok2xx++;
    else {
      if (r.status) non2xx++;
      else if (r.timeout) timeouts++;
      else errors++;
      firstError ??= r.error;
    }
    latencies.push(performance.now() - due);
  };
  const started = performance.now();
  let i = 0;
  while (i < total) {
    const now = performance.now();
    // Every request due by now goes out; a late timer sends its backlog at once, still timed from when it was due.
    for (; i < total && started + i * gapMs <= now; i++) {
      const p = send(i, started + i * gapMs).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    if (i < total) await sleep(Math.max(0, started + i * gapMs - performance.now()));
  }
  await Promise.all(inFlight);
  const sendSec = (total * gapMs) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const ms = (p) => +(percentile(latencies, p) ?? 0).toFixed(1);
  return {
    requests: total,
    ok2xx,
    non2xx,
    errors,
    timeouts,
    eventsPerSec: Math.round(ok2xx / sendSec),
    p50Ms: ms(50),
    p99Ms: ms(99),
    maxMs: +(latencies.at(-1) ?? 0).toFixed(1),
    firstError,
  };
}

/**
 * Records the MongoDB stand-in's garbage-collection pauses with Java Flight Recorder (JDK 11+, about 1% overhead):
 * call before the stack starts (the JVM reads JAVA_TOOL_OPTIONS at start). The recording is written when the JVM
 * exits; `pauses(from, to)` then sums the stop-the-world pauses that began in a window (epoch ms). Null when the
 * stand-in is not ours (MONGODB_URI set) or the JDK has no `jfr` tool.
 */
export function recordStandInGc() {
  if (process.env.MONGODB_URI || spawnSync('jfr', ['--version'], { stdio: 'ignore' }).status !== 0) return null;
  const file = path.join(os.tmpdir(), `bench-standin-${process.pid}.jfr`);
  const option = `-XX:StartFlightRecording=filename=${file},dumponexit=true`;
  const previous = process.env.JAVA_TOOL_OPTIONS;
  process.env.JAVA_TOOL_OPTIONS = [previous, option].filter(Boolean).join(' ');
  // Every JVM started meanwhile would record into the same file (the `jfr` tool itself too): once the stand-in
  // runs, the option goes.
  const restore = () => {
    if (previous === undefined) delete process.env.JAVA_TOOL_OPTIONS;
    else process.env.JAVA_TOOL_OPTIONS = previous;
  };
  let events = null;
  const seconds = (iso) => Number(/^PT([\d.]+)S$/.exec(iso)?.[1] ?? 0);
  return {
    /** Call once the stand-in has started. */
    started: restore,
    pauses(from, to) {
      restore();
      events ??= JSON.parse(
        execFileSync('jfr', ['print', '--json', '--events', 'jdk.GarbageCollection', file], { encoding: 'utf8', maxBuffer: 64 << 20 }),
      ).recording.events.map((e) => ({
        at: Date.parse(e.values.startTime),
        sumMs: 1000 * seconds(e.values.sumOfPauses),
        maxMs: 1000 * seconds(e.values.longestPause),
      }));
      const inside = events.filter((e) => e.at >= from && e.at < to);
      return {
        count: inside.length,
        totalMs: Math.round(inside.reduce((a, e) => a + e.sumMs, 0)),
        maxMs: Math.round(Math.max(0, ...inside.map((e) => e.maxMs))),
        shareOfTime: +(inside.reduce((a, e) => a + e.sumMs, 0) / Math.max(1, to - from)).toFixed(3),
      };
    },
  };
}

/**
 * The fake Resend and the fake Twilio in one child process (bench/fake-providers.ts), with their limits and injected
 * trouble: opts = { resend: { maxPerSecond, chaos }, twilio: { maxPerSecondPerSender, chaos } }.
 * Returns { resendUrl, twilioUrl, accountSid, authToken, progress(), summary(), stop() }.
 */
export async function startFakeProviders(opts) {
  const child = fork(path.join(BENCH_DIR, 'fake-providers.ts'), [JSON.stringify(opts)], {
    execArgv: ['--import', TSX_LOADER],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`fake providers exited (${code})`)));
  });
  const ask = (type) =>
    new Promise((resolve) => {
      const on = (m) => {
        if (m.type !== type) return;
        child.off('message', on);
        resolve(m);
      };
      child.on('message', on);
      child.send({ type });
    });
  return {
    ...ready,
    pid: child.pid,
    /** { emails, sms, lastEmailAt, lastSmsAt } so far. */
    progress: () => ask('progress'),
    /** What each fake took, per recipient (see bench/fake-providers.ts). */
    summary: () => ask('summary'),
    stop: () => child.disconnect(),
  };
}
