// The project's MongoDB and NATS for dev and tests: use what the environment names, else start a local one.
// Each function logs one line saying which it uses, and returns { url|uri, kind, stop() }; stop() only
// stops what it started.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hasJava, startStandIn } from './lib/mongo-standin.mjs';
import { startProcess } from './lib/proc.mjs';
import { freePort, probe, waitForPort } from './lib/net.mjs';

const noop = async () => {};
const say = (line) => console.log(`[deps] ${line}`);
// Credentials in a URI must not end up in CI logs.
const redact = (uri) => uri.replace(/\/\/[^@/]+@/, '//***@');

/**
 * MongoDB: MONGODB_URI when set; else the mongo-java-server stand-in (needs java, and mvn once);
 * else mongodb-memory-server when it can be imported (a machine with internet and no Java).
 * @param {{ port?: number, host?: string }} [options] port for a started server (default: a free one)
 * @returns {Promise<{ uri: string, kind: 'env' | 'stand-in' | 'memory-server', stop: () => Promise<void> }>}
 */
export async function ensureMongo({ port, host = '127.0.0.1' } = {}) {
  if (process.env.MONGODB_URI) {
    say(`MongoDB: MONGODB_URI ${redact(process.env.MONGODB_URI)}`);
    return { uri: process.env.MONGODB_URI, kind: 'env', stop: noop };
  }
  if (hasJava()) {
    const server = await startStandIn({ host, port });
    say(`MongoDB: mongo-java-server stand-in at ${server.uri} (in memory, stopped with this process)`);
    return { uri: server.uri, kind: 'stand-in', stop: async () => void (await server.stop()) };
  }
  let MongoMemoryServer;
  try {
    // Not a dependency of the project: it downloads a mongod binary, which only a machine with internet can.
    ({ MongoMemoryServer } = await import('mongodb-memory-server'));
  } catch {
    throw new Error(
      'No MongoDB: set MONGODB_URI, or install Java 17 + Maven for the stand-in (apt-get install default-jdk-headless maven), or `npm install mongodb-memory-server`',
    );
  }
  const server = await MongoMemoryServer.create({ instance: { ip: host, ...(port ? { port } : {}) } });
  const uri = server.getUri().replace(/\/$/, '');
  say(`MongoDB: mongodb-memory-server at ${uri}`);
  return { uri, kind: 'memory-server', stop: async () => void (await server.stop()) };
}

/** NATS greets every client with `INFO {json}`; the JSON says whether JetStream is on. */
function natsInfo(greeting) {
  if (!greeting?.startsWith('INFO ')) return null;
  try {
    return JSON.parse(greeting.slice(5).split('\r\n')[0]);
  } catch {
    return null;
  }
}

function natsServerBinary() {
  // Debian installs it in /usr/sbin, which is not on a normal user's PATH.
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/bin'].filter(Boolean);
  return dirs.map((dir) => path.join(dir, 'nats-server')).find((file) => existsSync(file));
}

/**
 * NATS with JetStream: NATS_URL when set; else a server already answering on 127.0.0.1:4222 with
 * JetStream on; else `nats-server -js` on a free port with its store in a temporary folder.
 * @returns {Promise<{ url: string, kind: 'env' | 'local' | 'spawned', stop: () => Promise<void> }>}
 */
export async function ensureNats({ host = '127.0.0.1' } = {}) {
  if (process.env.NATS_URL) {
    say(`NATS: NATS_URL ${redact(process.env.NATS_URL)}`);
    return { url: process.env.NATS_URL, kind: 'env', stop: noop };
  }
  const info = natsInfo(await probe(4222, host));
  if (info?.jetstream) {
    say(`NATS: server already running at nats://${host}:4222 (JetStream on)`);
    return { url: `nats://${host}:4222`, kind: 'local', stop: noop };
  }
  if (info) say(`NATS: the server on ${host}:4222 has JetStream off; starting our own`);
  const storeDir = mkdtempSync(path.join(os.tmpdir(), 'act-nats-'));
  let server;
  try {
    server = await startNatsServer({ host, storeDir });
  } catch (err) {
    rmSync(storeDir, { recursive: true, force: true });
    throw err;
  }
  const cleanup = async () => {
    await server.stop();
    rmSync(storeDir, { recursive: true, force: true });
  };
  say(`NATS: started ${server.binary} -js at ${server.url} (store ${storeDir}, stopped with this process)`);
  return { url: server.url, kind: 'spawned', stop: cleanup };
}

/**
 * A nats-server of our own: `nats-server -js -a host -p port -sd storeDir`, resolved once it accepts connections.
 * Started again on the same port and store, it keeps its streams and durable consumers (the fault suite stops
 * and starts it; the machine's shared server on 4222 is never touched).
 * @param {{ host?: string, port?: number, storeDir: string }} options port: a free one when not given
 * @returns {Promise<{ url: string, port: number, binary: string, stop: () => Promise<void> }>}
 */
export async function startNatsServer({ host = '127.0.0.1', port, storeDir }) {
  const binary = natsServerBinary();
  if (!binary) {
    throw new Error(
      'No NATS: set NATS_URL, run nats-server -js on 127.0.0.1:4222, or install nats-server (apt-get install nats-server)',
    );
  }
  const chosen = port ?? (await freePort(host));
  const handle = startProcess('nats', binary, ['-js', '-a', host, '-p', String(chosen), '-sd', storeDir], {
    log: () => {},
  });
  try {
    await waitForPort(chosen, { host, timeoutMs: 20_000, alive: handle.running, what: 'nats-server' });
  } catch (err) {
    await handle.stop();
    throw new Error(`${err.message}; last output:\n${handle.tail()}`);
  }
  return { url: `nats://${host}:${chosen}`, port: chosen, binary, stop: async () => void (await handle.stop()) };
}
