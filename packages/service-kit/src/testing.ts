import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import type { ConsumerInfo, JetStreamManager } from 'nats';
import { signIdentity, type IdentityUser } from './identity';
import { identitySecret } from './config';
import { TEST_SWITCHES } from './settings';

/** Whether nothing listens on 127.0.0.1:port right now. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * A port nobody listens on right now, below the kernel's ephemeral range (32768-60999), so no outgoing connection
 * of another process takes it before the service listens (see infra/scripts/lib/net.mjs).
 */
export async function freePort(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = 20_000 + Math.floor(Math.random() * 12_768);
    if (await isFree(port)) return port;
  }
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface ServiceProcess {
  url: string;
  port: number;
  child: ChildProcess;
  output(): string;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
  /** SIGKILL, for crash tests. */
  kill(): Promise<void>;
}

const repoRoot = path.resolve(__dirname, '..', '..', '..');

/**
 * A test's environment for a service started with NODE_ENV=production: its test switches (fast clocks, fakes'
 * addresses) removed, since a production start refuses them.
 */
export function withoutTestSwitches(env: Record<string, string>): Record<string, string> {
  if (env.NODE_ENV !== 'production') return env;
  return Object.fromEntries(Object.entries(env).filter(([name]) => !(name in TEST_SWITCHES)));
}

/**
 * Starts a service's real entry (`<workspace>/src/index.ts`) under tsx as a child process on a free port and
 * waits for its "listening" IPC message. Tests then talk HTTP to it, exactly as the gateway does.
 */
export async function startServiceProcess(workspace: string, env: Record<string, string | undefined> = {}, timeoutMs = 30_000): Promise<ServiceProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const tsx = path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  let out = '';
  const child = spawn(process.execPath, [tsx, path.join(repoRoot, workspace, 'src', 'index.ts')], {
    cwd: path.join(repoRoot, workspace),
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout!.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (out = (out + d).slice(-20_000)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${workspace} did not start in ${timeoutMs} ms:\n${out}`)), timeoutMs);
    child.on('message', (m: { type?: string }) => {
      if (m?.type === 'listening') {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${workspace} exited with ${code} before listening:\n${out}`));
    });
  });
  const waitExit = () => new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    output: () => out,
    async stop() {
      child.kill('SIGTERM');
      await waitExit();
    },
    async kill() {
      child.kill('SIGKILL');
      await waitExit();
    },
  };
}

export const testAdmin: IdentityUser = { id: 1, username: 'admin', role: 'admin' };
export const testUser: IdentityUser = { id: 2, username: 'operator', role: 'user' };

/** Headers as the gateway would send them for `user` (null = signed out, public calls). */
export function gatewayHeaders(user: IdentityUser | null = testAdmin, extra: Record<string, string> = {}): Record<string, string> {
  return { 'x-act-identity': signIdentity(user, identitySecret()), 'content-type': 'application/json', ...extra };
}

/** A unique database name per test file, so files running in parallel never see each other's data. */
export function testDbName(label: string): string {
  return `t_${label}_${process.pid}_${Date.now().toString(36)}`.replace(/[^A-Za-z0-9_]/g, '_');
}

/** fetch + JSON, for terse service tests. */
export async function call(baseUrl: string, method: string, pathName: string, { body, user = testAdmin, raw, headers }: { body?: unknown; user?: IdentityUser | null; raw?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(baseUrl + pathName, {
    method,
    headers: gatewayHeaders(user, headers),
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  // JSON of any shape: service tests read the fields they expect and compare whole bodies.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, body: json, text, headers: res.headers };
}

/**
 * Resolves once every durable consumer of `stream` has taken and acknowledged all it was given (nothing pending,
 * nothing awaiting an ack): the positive control of a "nothing happened" check. Sleeping a second and finding no
 * effect passes as well when the consumer has not reached the event yet; this waits until it has handled it.
 * At least one consumer must exist.
 */
export async function waitUntilConsumersDrained(jsm: JetStreamManager, stream: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no consumer yet';
  for (;;) {
    const consumers: ConsumerInfo[] = [];
    for await (const c of jsm.consumers.list(stream)) consumers.push(c);
    const busy = consumers.filter((c) => c.num_pending > 0 || c.num_ack_pending > 0);
    if (consumers.length > 0 && busy.length === 0) return;
    if (busy.length) last = busy.map((c) => `${c.name}: ${c.num_pending} pending, ${c.num_ack_pending} unacked`).join('; ');
    if (Date.now() > deadline) throw new Error(`consumers of ${stream} still busy after ${timeoutMs} ms (${last})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
