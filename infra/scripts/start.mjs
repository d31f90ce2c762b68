// `npm start` / `npm run dev`: MongoDB and NATS, the built frontends, three services and the gateway on one
// origin (default http://127.0.0.1:8080). Ctrl-C stops all of it, the MongoDB stand-in included.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ensureMongo, ensureNats } from './deps.mjs';
import { startStack } from './stack.mjs';
import { buildFrontends, watchFrontends } from './lib/frontends.mjs';
import { ROOT } from './lib/paths.mjs';
import { deleteStreamsWithPrefix } from './lib/nats-cleanup.mjs';

// Settings from .env (see .env.example); variables already in the environment win.
if (existsSync(path.join(ROOT, '.env'))) process.loadEnvFile(path.join(ROOT, '.env'));

const dev = process.argv.includes('--dev');
const env = process.env;
// `npm start -- --replicas=2` (or REPLICAS=2): that many instances of each service behind the gateway.
const replicasArg = process.argv.find((a) => a.startsWith('--replicas='))?.slice('--replicas='.length) ?? env.REPLICAS ?? '1';
const replicas = Number(replicasArg);
if (!Number.isInteger(replicas) || replicas < 1 || replicas > 8) {
  console.error(`--replicas must be a whole number from 1 to 8, got "${replicasArg}"`);
  process.exit(1);
}
const port = (name, fallback) => Number(env[name] || fallback);

const cleanups = [];
let stopping = false;
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping...');
  // Last started, first stopped: the gateway before the services, the services before their databases.
  for (const cleanup of cleanups.reverse()) await cleanup().catch((err) => console.error(err.message));
  process.exit(code);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

try {
  const mongo = await ensureMongo();
  cleanups.push(mongo.stop);
  const nats = await ensureNats();
  cleanups.push(nats.stop);
  // The stand-in's data dies with this process. Events on a shared, long-lived NATS server must too, or the next
  // start would replay an old run's events into an empty database: a prefix of our own, deleted at the end.
  let natsPrefix = env.NATS_PREFIX;
  if (natsPrefix === undefined && mongo.kind !== 'env' && nats.kind === 'local') {
    natsPrefix = `dev${process.pid}_`;
    cleanups.push(() => deleteStreamsWithPrefix(nats.url, natsPrefix));
  }

  if (dev) {
    const watchers = watchFrontends();
    cleanups.push(() => Promise.all(watchers.map((w) => w.stop())));
  } else {
    const { ok, skipped } = await buildFrontends();
    if (!ok) throw new Error('frontend build failed (see above)');
    if (skipped.length) console.log(`[build] the gateway will not serve ${skipped.join(', ')}`);
  }

  if (env.NODE_ENV === 'production' && !dev) {
    // Production starts run the compiled JavaScript, as the images do.
    const { buildBackend, BACKENDS } = await import('./build-services.mjs');
    for (const ws of BACKENDS) await buildBackend(ws);
  }

  const stack = await startStack({
    gatewayPort: port('GATEWAY_PORT', 8080),
    gatewayInternalPort: port('GATEWAY_METRICS_PORT', 9464),
    metricsPorts: {
      'svc-auth': port('AUTH_METRICS_PORT', 9465),
      'svc-email': port('EMAIL_METRICS_PORT', 9466),
      'svc-sms': port('SMS_METRICS_PORT', 9467),
    },
    servicePorts: {
      'svc-auth': port('AUTH_PORT', 4001),
      'svc-email': port('EMAIL_PORT', 4002),
      'svc-sms': port('SMS_PORT', 4003),
    },
    env: { MONGODB_URI: mongo.uri, NATS_URL: nats.url, ...(natsPrefix !== undefined && { NATS_PREFIX: natsPrefix }) },
    dev,
    replicas,
  });
  cleanups.push(stack.stop);

  const generated = !env.ADMIN_PASSWORD;
  console.log(`
========================================================================
  Abandoned Cart Tracker is running${dev ? ' (dev: rebuilds and restarts on change)' : ''}${replicas > 1 ? `, ${replicas} instances of each service` : ''}
  Open:      ${stack.url}
  Username:  admin
  Password:  ${stack.adminPassword}${generated ? '   (generated for this start; set ADMIN_PASSWORD to choose it)' : ''}
  Metrics:   ${['gateway-internal', 'svc-auth-metrics', 'svc-email-metrics', 'svc-sms-metrics'].map((p) => `:${stack.ports[p]}`).join(' ')} /metrics (Prometheus; not on the public port)
  ${mongo.kind === 'env' ? 'With an existing database the admin keeps the password it was created with.' : 'The database lives in memory and is gone after Ctrl-C.'}
  Ctrl-C stops everything.
========================================================================
`);
} catch (err) {
  console.error(`\nnpm start failed: ${err.message}`);
  await shutdown(1);
}
