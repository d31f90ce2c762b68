// The mongo-java-server stand-in (infra/mongo): Maven fetches the jars once and writes their classpath,
// then Java runs our single-file main directly (no build step, no jar of ours).
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './paths.mjs';
import { startProcess } from './proc.mjs';
import { freePort, waitForPort } from './net.mjs';

const MONGO_DIR = path.join(ROOT, 'infra/mongo');
const CLASSPATH_FILE = path.join(MONGO_DIR, 'classpath.txt');

export function hasJava() {
  return spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0;
}

/** classpath.txt is git-ignored (it holds absolute ~/.m2 paths), so a clean clone generates it here. */
async function classpath() {
  if (!existsSync(CLASSPATH_FILE)) {
    // Written under a private name and renamed, so two test runs starting together never read half a file.
    const tmp = `${CLASSPATH_FILE}.${process.pid}.tmp`;
    const pom = path.join(MONGO_DIR, 'pom.xml');
    const args = ['-q', '-B', '-f', pom, 'dependency:build-classpath', `-Dmdep.outputFile=${tmp}`];
    // Output kept for failures only: even with -q, Maven prints colour codes into the test log.
    const { status: code, stdout, stderr } = spawnSync('mvn', args, { cwd: ROOT, encoding: 'utf8' });
    if (code !== 0 || !existsSync(tmp)) {
      rmSync(tmp, { force: true });
      process.stderr.write(`${stdout ?? ''}${stderr ?? ''}`);
      throw new Error(
        `mvn ${args.join(' ')} failed (exit ${code}): Maven and Maven Central are needed once for the MongoDB stand-in`,
      );
    }
    renameSync(tmp, CLASSPATH_FILE);
  }
  return readFileSync(CLASSPATH_FILE, 'utf8').trim();
}

/**
 * The stand-in keeps every document in its Java heap, so nearly everything a young collection finds alive lives on
 * (inserted rows). With G1's defaults (a young generation of hundreds of MB, survivors copied up to 15 times) each
 * young pause copied tens of MB: 55-100 ms every ~1.5 s under webhook load, the largest cause of slow requests (every
 * command in flight waits). A small young generation whose survivors go straight to the old one keeps the pauses at
 * 15-35 ms, for less collector CPU (measured: bench/webhooks.mjs, docs/performance.md).
 */
const JVM_OPTIONS = ['-XX:+UseG1GC', '-Xmn64m', '-XX:MaxTenuringThreshold=0'];

/**
 * Starts the stand-in on host:port (a free port when none is given) and resolves once it accepts connections. Sets
 * MONGO_STANDIN_INDEXES=1 in this process's environment, so the services it goes on to start (tests, benches, a
 * local `npm start`) declare the indexes only the stand-in needs (service-kit standin-indexes.ts); production, on
 * MongoDB, never starts a stand-in and leaves them out.
 */
export async function startStandIn({ host = '127.0.0.1', port } = {}) {
  process.env.MONGO_STANDIN_INDEXES = '1';
  const cp = await classpath();
  const chosen = port || (await freePort(host));
  const handle = startProcess(
    'mongo',
    'java',
    [...JVM_OPTIONS, '-cp', cp, path.join(MONGO_DIR, 'MongoStandIn.java'), host, String(chosen), '--exit-on-stdin-close'],
    { cwd: ROOT, stdin: 'pipe', log: () => {} },
  );
  try {
    // Java compiles the single-file main on each start: a few seconds on a busy 2-core machine.
    await waitForPort(chosen, { host, timeoutMs: 60_000, alive: handle.running, what: 'MongoDB stand-in' });
  } catch (err) {
    await handle.stop();
    throw new Error(`${err.message}; last output:\n${handle.tail()}`);
  }
  return { uri: `mongodb://${host}:${chosen}`, stop: () => handle.stop() };
}
