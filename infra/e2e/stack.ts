// Test-side view of the stack started by infra/jest/e2e-setup.mjs: where it is, and stopping/starting
// its processes for fault tests (through the setup's control endpoint, since tests run in other processes).
import { readFileSync } from 'node:fs';
import path from 'node:path';

export type ProcessName =
  'svc-auth' | 'svc-email' | 'svc-sms' | 'gateway' | `${'svc-auth' | 'svc-email' | 'svc-sms'}-${number}`;

export interface StackInfo {
  /** Gateway origin, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Password of the `admin` account created at the stack's first start */
  adminPassword: string;
  controlUrl: string;
  /** TWILIO_AUTH_TOKEN of svc-sms (no account SID: nothing is sent), to sign callbacks as Twilio does. */
  twilioAuthToken?: string;
  /** File holding every process's output, prefixed with its name */
  logFile: string;
  /** Each process's own port (services are reachable directly, e.g. to prove they refuse unsigned calls) */
  ports: Record<string, number>;
  /** Every process of the stack (the replicas phase has `svc-email-2`, ...). */
  processes?: ProcessName[];
  /** Base MongoDB URI, NATS URL and subject prefix of the stack, and each service's database name */
  mongoUri?: string;
  natsUrl?: string;
  natsPrefix?: string;
  databases?: Record<Exclude<ProcessName, 'gateway'>, string>;
}

/** The faults phase's own NATS server and MongoDB stand-in, which fault tests may stop and start. */
export type DependencyName = 'nats' | 'mongo';

const ROOT = path.resolve(__dirname, '../..');

/**
 * The stack of this jest worker: the e2e phase starts one per worker (infra/jest/e2e-setup.mjs), the n-th in
 * `<ACT_STACK_FILE minus .json>-w<n>.json`; a file run in band, and the one-worker phases, use the first.
 */
export function readStack(): StackInfo {
  const shared = process.env.ACT_STACK_FILE || path.join(ROOT, '.run/e2e-stack.json');
  const worker = Number(process.env.JEST_WORKER_ID) || 1;
  const file = worker === 1 ? shared : shared.replace(/\.json$/, '') + `-w${worker}.json`;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as StackInfo;
  } catch {
    throw new Error(
      `No running stack (${file} unreadable): run browser tests with \`npm test\` or \`npm run test:e2e\``,
    );
  }
}

async function control(
  name: ProcessName | DependencyName,
  action: 'stop' | 'start' | 'kill',
  env?: Record<string, string>,
): Promise<void> {
  const res = await fetch(`${readStack().controlUrl}/processes/${name}/${action}`, {
    method: 'POST',
    body: env ? JSON.stringify({ env }) : undefined,
  });
  if (!res.ok) throw new Error(`${action} ${name} failed: ${await res.text()}`);
}

/**
 * Stops one process of the shared stack (SIGTERM, SIGKILL after 5 s). Fault tests must start it again.
 * In the faults phase, `nats` and `mongo` stop the phase's own servers.
 */
export const stopProcess = (name: ProcessName | DependencyName) => control(name, 'stop');

/** Starts a stopped process on its old port and waits for /healthz; `env` applies to this start only. */
export const startProcess = (name: ProcessName | DependencyName, env?: Record<string, string>) =>
  control(name, 'start', env);

/** SIGKILL, as a crash: the process gets no chance to finish anything. startProcess brings it back. */
export const killProcess = (name: ProcessName) => control(name, 'kill');
