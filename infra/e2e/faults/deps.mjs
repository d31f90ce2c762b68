// The fault suite's own MongoDB stand-in and NATS server, which its tests stop and start (through the stack's
// control endpoint). Never the machine's shared NATS on 4222 nor a MONGODB_URI someone else uses: stopping those
// would break every other run on the machine.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startNatsServer } from '../../scripts/deps.mjs';
import { hasJava, startStandIn } from '../../scripts/lib/mongo-standin.mjs';
import { freePort } from '../../scripts/lib/net.mjs';

export const DEP_NAMES = ['nats', 'mongo'];

/**
 * Starts a stand-in MongoDB and a `nats-server -js` on free ports; `stop(name)` / `start(name)` bring one down
 * and back on the same port. NATS keeps its file store across restarts (streams, durable consumers); the
 * stand-in is in memory, so its data is gone after a restart (a real MongoDB keeps it).
 * @returns {Promise<{ env: { MONGODB_URI: string, NATS_URL: string }, stop(name: string): Promise<void>,
 *   start(name: string): Promise<void>, stopAll(): Promise<void> }>}
 */
export async function startFaultDeps({ host = '127.0.0.1' } = {}) {
  if (!hasJava()) {
    throw new Error(
      'the fault suite restarts a MongoDB stand-in: it needs Java 17 and Maven (apt-get install default-jdk-headless maven)',
    );
  }
  const storeDir = mkdtempSync(path.join(os.tmpdir(), 'act-faults-nats-'));
  const ports = { nats: await freePort(host), mongo: await freePort(host) };
  const starters = {
    nats: () => startNatsServer({ host, port: ports.nats, storeDir }),
    mongo: () => startStandIn({ host, port: ports.mongo }),
  };
  const running = {};
  const known = (name) => {
    if (!DEP_NAMES.includes(name)) throw new Error(`unknown dependency ${name}; one of ${DEP_NAMES.join(', ')}`);
  };
  const start = async (name) => {
    known(name);
    running[name] ??= await starters[name]();
  };
  const stop = async (name) => {
    known(name);
    const server = running[name];
    delete running[name];
    await server?.stop();
  };
  const stopAll = async () => {
    await Promise.all(DEP_NAMES.map(stop));
    rmSync(storeDir, { recursive: true, force: true });
  };
  try {
    await Promise.all(DEP_NAMES.map(start));
  } catch (err) {
    await stopAll();
    throw err;
  }
  console.log(`[faults] own MongoDB stand-in on ${host}:${ports.mongo}, own nats-server on ${host}:${ports.nats}`);
  return {
    env: { MONGODB_URI: `mongodb://${host}:${ports.mongo}`, NATS_URL: `nats://${host}:${ports.nats}` },
    start,
    stop,
    stopAll,
  };
}
