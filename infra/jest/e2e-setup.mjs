// Global setup of the e2e and faults phases: one stack for all browser tests of the run. Test files run in
// jest workers, so they find the stack through a file (readStack) and stop/start its processes through a
// small HTTP control endpoint (infra/e2e/stack.ts) rather than through this process's objects.
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { SERVICES, startStack } from '../scripts/stack.mjs';
import { DEP_NAMES, startFaultDeps } from '../e2e/faults/deps.mjs';
import { ROOT, RUN_DIR } from '../scripts/lib/paths.mjs';

/**
 * POST /processes/<name>/stop, POST /processes/<name>/start with optional JSON `{ "env": {...} }`,
 * POST /processes/<name>/kill (SIGKILL, a crash). In the faults phase `nats` and `mongo` are names too.
 */
function serveControl(stack, deps) {
  const server = http.createServer(async (req, res) => {
    const match = /^\/processes\/([\w-]+)\/(stop|start|kill)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) return res.writeHead(404).end();
    try {
      let body = '';
      for await (const chunk of req) body += chunk;
      const [, name, action] = match;
      if (deps && DEP_NAMES.includes(name)) {
        if (action === 'start') await deps.start(name);
        else await deps.stop(name);
      } else if (action === 'stop') await stack.stopProcess(name);
      else if (action === 'kill') await stack.stopProcess(name, { signal: 'SIGKILL' });
      else await stack.startProcess(name, body ? JSON.parse(body).env : undefined);
      res.writeHead(204).end();
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message);
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * The replicas phase: a "minute" of reminder delay is a second, and what picks up a killed instance's work runs
 * within seconds instead of minutes (the SMS due scan and sweep, the SMS step lease; an email reminder's lease is
 * 15 s anyway).
 */
const REPLICAS_ENV = {
  REMINDER_DELAY_UNIT_MS: '1000',
  SMS_DELAY_UNIT_MS: '1000',
  SMS_DUE_SCAN_MS: '2000',
  SMS_SWEEP_EVERY_MS: '3000',
  SMS_STEP_LEASE_MS: '20000',
};

/**
 * `<stackFile>` for the first stack, `<stackFile minus .json>-w<n>.json` for the n-th: each jest worker of the e2e
 * phase finds its own (infra/e2e/stack.ts reads the one of its JEST_WORKER_ID).
 */
export const stackFileOf = (stackFile, n) => (n === 1 ? stackFile : stackFile.replace(/\.json$/, '') + `-w${n}.json`);

/**
 * One stack per jest worker in the e2e phase (jest.config.js sets its workers), so each test file still has a stack
 * to itself, as with one worker: files restart the gateway or svc-email, clear test data, count summary cards before
 * and after, and time answers. The faults and replicas phases run one file at a time on one stack.
 */
export default async function e2eSetup(globalConfig) {
  const phase = process.env.ACT_TEST_PHASE || 'e2e';
  const stackFile = process.env.ACT_STACK_FILE || path.join(RUN_DIR, 'e2e-stack.json');
  const count = phase === 'e2e' ? Math.max(1, globalConfig?.maxWorkers ?? 1) : 1;
  // The fault tests stop NATS and MongoDB: they get servers of their own, never the ones shared with other runs.
  const deps = phase === 'faults' ? await startFaultDeps() : null;
  const started = [];
  try {
    const results = await Promise.allSettled(Array.from({ length: count }, (_, i) => startOne({ phase, stackFile: stackFileOf(stackFile, i + 1), n: i + 1, deps })));
    for (const r of results) if (r.status === 'fulfilled') started.push(r.value);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (err) {
    await Promise.all(started.map((one) => stopOne(one)));
    await deps?.stopAll();
    throw err;
  }
  globalThis.__actE2e = { stacks: started, deps };
}

/** Stops one stack of startOne and removes its file; resolves with its recorded answers' file, if any. */
export async function stopOne({ stack, control, logStream, stackFile, recordFile }) {
  await new Promise((resolve) => control.close(resolve));
  await stack.stop();
  logStream.end();
  rmSync(stackFile, { force: true });
  return recordFile;
}

async function startOne({ phase, stackFile, n, deps }) {
  const logFile = stackFile.replace(/\.json$/, '') + '.log';
  mkdirSync(path.dirname(stackFile), { recursive: true });
  // Service logs go to a file: interleaved with jest's report they would bury the test results.
  const logStream = createWriteStream(logFile);
  // The e2e phase records every /api answer for the contract check of its teardown (infra/e2e/contract).
  const recordFile = phase === 'e2e' ? stackFile.replace(/\.json$/, '') + '-answers.ndjson' : null;
  if (recordFile) rmSync(recordFile, { force: true });
  // Databases and NATS subjects of their own per stack: the stacks share the run's MongoDB and NATS server.
  const dbSuffix = `_${phase}_${process.pid}${n === 1 ? '' : `_w${n}`}`;
  const natsPrefix = n === 1 ? undefined : `${process.env.NATS_PREFIX ?? ''}w${n}_`;
  // Twilio signs its callbacks with the account's auth token: with one set (and no account SID, so nothing is
  // sent) the browser suites can post status callbacks and inbound messages through the gateway as Twilio would.
  const twilioAuthToken = randomBytes(16).toString('hex');
  let stack;
  try {
    stack = await startStack({
      dbSuffix,
      // The replicas phase: two instances of every service behind the gateway, reminders in seconds.
      replicas: phase === 'replicas' ? 2 : 1,
      // Twilio's pace per sender is 1 message/s by default; the suites send far more through the fake.
      env: {
        TWILIO_MAX_MPS: '500',
        TWILIO_AUTH_TOKEN: twilioAuthToken,
        ...(deps?.env ?? {}),
        ...(natsPrefix !== undefined && { NATS_PREFIX: natsPrefix }),
        ...(phase === 'replicas' && REPLICAS_ENV),
        ...(recordFile && { API_RECORD_FILE: recordFile }),
      },
      log: (name, line) => logStream.write(`[${name}] ${line}\n`),
    });
  } catch (err) {
    logStream.end();
    throw err;
  }
  const control = await serveControl(stack, deps);
  const controlUrl = `http://127.0.0.1:${control.address().port}`;
  writeFileSync(
    stackFile,
    JSON.stringify(
      {
        url: stack.url,
        adminPassword: stack.adminPassword,
        controlUrl,
        twilioAuthToken,
        logFile,
        ports: stack.ports,
        processes: stack.processes,
        // Where the stack keeps its data and events, for tests that check them at the source.
        mongoUri: stack.env.MONGODB_URI,
        natsUrl: stack.env.NATS_URL,
        natsPrefix: stack.env.NATS_PREFIX ?? '',
        databases: Object.fromEntries(Object.entries(SERVICES).map(([name, { db }]) => [name, `${db}${dbSuffix}`])),
      },
      null,
      2,
    ),
  );
  console.log(`\n[${phase}] stack ${n} at ${stack.url}, service logs in ${path.relative(ROOT, logFile)}`);
  return { stack, control, logStream, stackFile, recordFile };
}
