// The whole back end on one origin: svc-auth, svc-email, svc-sms and the gateway as child processes run by tsx,
// for `npm start`, the browser tests' global setup and fault tests.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureMongo, ensureNats } from './deps.mjs';
import { ROOT } from './lib/paths.mjs';
import { freePort, portIsFree } from './lib/net.mjs';
import { prefixedStdout, startProcess as spawnNamed } from './lib/proc.mjs';
import { waitForHealthz } from './lib/health.mjs';

/** Start order matters only for the gateway, which proxies to the others: it goes last, and stops first. */
export const SERVICES = {
  'svc-auth': { db: 'act_auth', urlEnv: 'AUTH_URL', metricsEnv: 'AUTH_METRICS_PORT' },
  'svc-email': { db: 'act_email', urlEnv: 'EMAIL_URL', metricsEnv: 'EMAIL_METRICS_PORT' },
  'svc-sms': { db: 'act_sms', urlEnv: 'SMS_URL', metricsEnv: 'SMS_METRICS_PORT' },
};
export const PROCESS_NAMES = [...Object.keys(SERVICES), 'gateway'];

const TSX_LOADER = fileURLToPath(import.meta.resolve('tsx'));
const TSX_CLI = fileURLToPath(import.meta.resolve('tsx/cli'));
const secret = () => randomBytes(24).toString('base64url');
/**
 * V8's young generation at 32 MB per semi-space (16 MB by default): a webhook's short-lived objects (parsed bodies,
 * promises, BSON buffers, batched writes) then mostly die before a scavenge, and scavenges come half as often. Measured
 * with bench/webhooks.mjs: 1,281 -> 1,568 events/s, p99 56 -> 48 ms (median of 3 alternating runs). The Dockerfiles
 * set the same.
 */
export const NODE_RUNTIME_OPTIONS = '--max-semi-space-size=32';

/** `svc-email-2` -> `svc-email`: the workspace an instance runs. */
export const serviceOf = (name) => (name === 'gateway' ? name : Object.keys(SERVICES).find((svc) => name === svc || name.startsWith(`${svc}-`)));

/** The process names of a stack with `replicas` instances per service: svc-auth, svc-auth-2, ... */
export function processNames(replicas = 1) {
  const names = [];
  for (const svc of Object.keys(SERVICES)) for (let i = 1; i <= replicas; i++) names.push(i === 1 ? svc : `${svc}-${i}`);
  return [...names, 'gateway'];
}

function command(name, dev, compiled) {
  if (compiled) {
    // NODE_ENV=production: the compiled output (infra/scripts/build-services.mjs) under plain node, as in the images.
    const built = path.join(ROOT, serviceOf(name), 'dist/index.js');
    if (!existsSync(built)) throw new Error(`startStack: ${path.relative(ROOT, built)} is missing: run npm run build first`);
    return ['--enable-source-maps', 'dist/index.js'];
  }
  const entry = path.join(ROOT, serviceOf(name), 'src/index.ts');
  if (!existsSync(entry))
    throw new Error(`startStack: ${name} has no ${path.relative(ROOT, entry)} yet, so the stack cannot start`);
  // One node process per service (the loader, not the tsx CLI) so a signal reaches the service itself;
  // watch mode needs the CLI, whose child dies with its process group.
  return dev ? [TSX_CLI, 'watch', '--clear-screen=false', 'src/index.ts'] : ['--import', TSX_LOADER, 'src/index.ts'];
}

/**
 * Starts the three services and the gateway and waits for each one's GET /healthz.
 *
 * @param {object} [options]
 * @param {number} [options.gatewayPort] default: a free port
 * @param {number} [options.gatewayInternalPort] the gateway's internal port (detailed /readyz, /metrics); default: a free port
 * @param {Partial<Record<'svc-auth'|'svc-email'|'svc-sms', number>>} [options.metricsPorts] each service's /metrics port; default: free ports
 * @param {Partial<Record<'svc-auth'|'svc-email'|'svc-sms', number>>} [options.servicePorts] default: free ports
 * @param {Record<string, string>} [options.env] settings on top of process.env for every process
 *   (MONGODB_URI and NATS_URL: when neither there nor in process.env, the stack ensures its own and stops them with itself)
 * @param {string} [options.dbSuffix] appended to each service's database name (act_auth<suffix>...) to isolate runs
 * @param {boolean} [options.dev] restart services on change (tsx watch)
 * @param {boolean} [options.compiled] run each process's compiled dist/index.js with plain node (default under
 *   NODE_ENV=production) instead of its TypeScript under tsx
 * @param {number} [options.replicas] instances of each service (the gateway balances over them); default 1. The
 *   first keeps the service's name and ports; the others are `<service>-2`, ... on free ports
 * @param {(name: string, line: string) => void} [options.log] where output lines go (default: `[name] line` on stdout)
 * @param {string} [options.host] default 127.0.0.1
 * @returns {Promise<{ url: string, adminPassword: string, env: Record<string,string>, ports: Record<string, number>,
 *   stop(): Promise<void>, stopProcess(name: string, options?: { signal?: 'SIGKILL' }): Promise<void>, startProcess(name: string, env?: Record<string,string>): Promise<void> }>}
 */
export async function startStack({
  gatewayPort,
  gatewayInternalPort,
  servicePorts = {},
  metricsPorts = {},
  env = {},
  dbSuffix = '',
  dev = false,
  replicas = 1,
  compiled = process.env.NODE_ENV === 'production' && !dev,
  log = prefixedStdout,
  host = '127.0.0.1',
} = {}) {
  const names = processNames(replicas);
  const instances = names.filter((n) => n !== 'gateway');
  for (const name of names) command(name, dev, compiled); // fail before starting anything
  const ports = {};
  for (const name of instances) ports[name] = servicePorts[name] ?? (await freePort(host));
  ports.gateway = gatewayPort ?? (await freePort(host));
  ports['gateway-internal'] = gatewayInternalPort ?? (await freePort(host));
  for (const name of instances) ports[`${name}-metrics`] = metricsPorts[name] ?? (await freePort(host));
  for (const [name, port] of Object.entries(ports)) {
    if (!(await portIsFree(port, host))) throw new Error(`startStack: port ${port} for ${name} is already in use`);
  }
  const url = `http://${host}:${ports.gateway}`;

  const owned = []; // deps this stack started itself, stopped with it
  const shared = { ...process.env, ...env };
  try {
    if (!shared.MONGODB_URI) {
      const mongo = await ensureMongo({ host });
      owned.push(mongo);
      shared.MONGODB_URI = mongo.uri;
    }
    if (!shared.NATS_URL) {
      const nats = await ensureNats({ host });
      owned.push(nats);
      shared.NATS_URL = nats.url;
    }
  } catch (err) {
    await Promise.all(owned.map((dep) => dep.stop()));
    throw err;
  }
  // Every process of one stack must share these; random ones are fine for a stack that lives as long as this process.
  shared.IDENTITY_SECRET ||= secret();
  shared.SESSION_SECRET ||= secret();
  shared.ADMIN_PASSWORD ||= randomBytes(9).toString('base64url');
  shared.PUBLIC_URL ||= url;
  shared.NODE_OPTIONS = [shared.NODE_OPTIONS, NODE_RUNTIME_OPTIONS].filter(Boolean).join(' ');

  const envFor = (name) => {
    if (name === 'gateway') {
      const upstreams = Object.fromEntries(
        Object.entries(SERVICES).map(([svc, { urlEnv }]) => [
          urlEnv,
          instances
            .filter((n) => serviceOf(n) === svc)
            .map((n) => `http://${host}:${ports[n]}`)
            .join(','),
        ]),
      );
      return { ...shared, ...upstreams, PORT: String(ports.gateway), GATEWAY_METRICS_PORT: String(ports['gateway-internal']) };
    }
    // Always set: a MONGODB_DB inherited from the shell would otherwise put all three services in one database.
    const svc = serviceOf(name);
    return {
      ...shared,
      PORT: String(ports[name]),
      [SERVICES[svc].metricsEnv]: String(ports[`${name}-metrics`]),
      MONGODB_DB: `${SERVICES[svc].db}${dbSuffix}`,
    };
  };

  const handles = {};
  const start = async (name, extraEnv = {}) => {
    if (handles[name]?.running()) return;
    const handle = spawnNamed(name, process.execPath, command(name, dev, compiled), {
      cwd: path.join(ROOT, serviceOf(name)),
      env: { ...envFor(name), ...extraEnv },
      log,
    });
    handles[name] = handle;
    handle.exited.then(({ code, signal }) => {
      if (handle.stopping) return;
      log('stack', `${name} exited unexpectedly (${signal ?? `code ${code}`})`);
    });
    await waitForHealthz(handle, `http://${host}:${ports[name]}/healthz`);
  };
  const stopOne = async (name, { signal } = {}) => {
    const handle = handles[name];
    if (!handle) return;
    handle.stopping = true;
    if (signal === 'SIGKILL' && handle.running()) {
      // A crash, not a shutdown: no SIGTERM first, so the process gets no chance to finish what it was doing.
      try {
        process.kill(-handle.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      await handle.exited;
      return;
    }
    await handle.stop();
  };
  const stop = async () => {
    await stopOne('gateway');
    await Promise.all(instances.map(stopOne));
    await Promise.all(owned.map((dep) => dep.stop()));
  };

  try {
    await Promise.all(instances.map((name) => start(name)));
    await start('gateway');
  } catch (err) {
    await stop();
    throw err;
  }

  const known = (name) => {
    if (!names.includes(name)) throw new Error(`unknown process ${name}; one of ${names.join(', ')}`);
  };
  return {
    url,
    processes: names,
    adminPassword: shared.ADMIN_PASSWORD,
    env: shared,
    ports,
    stop,
    /**
     * Stops one process (SIGTERM, then SIGKILL after 5 s; `{ signal: 'SIGKILL' }` kills it at once, as a crash
     * would); startProcess brings it back on the same port.
     */
    async stopProcess(name, options) {
      known(name);
      await stopOne(name, options);
    },
    /** Starts a stopped process again on the same port; `env` applies to this start only (e.g. a dead remote URL). */
    async startProcess(name, extraEnv) {
      known(name);
      await start(name, extraEnv);
    },
  };
}
