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
  const binary = natsServerBinary();
  if (!binary) {
    throw new Error(
      'No NATS: set NATS_URL, run nats-server -js on 127.0.0.1:4222, or install nats-server (apt-get install nats-server)',
    );
  }
  const port = await freePort(host);
  const storeDir = mkdtempSync(path.join(os.tmpdir(), 'act-nats-'));
  const handle = startProcess('nats', binary, ['-js', '-a', host, '-p', String(port), '-sd', storeDir], {
    log: () => {},
  });
  const cleanup = async () => {
    await handle.stop();
    rmSync(storeDir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, { host, timeoutMs: 20_000, alive: handle.running, what: 'nats-server' });
  } catch (err) {
    await cleanup();
    throw new Error(`${err.message}; last output:\n${handle.tail()}`);
  }
  const url = `nats://${host}:${port}`;
  say(`NATS: started ${binary} -js at ${url} (store ${storeDir}, stopped with this process)`);
  return { url, kind: 'spawned', stop: cleanup };
}
