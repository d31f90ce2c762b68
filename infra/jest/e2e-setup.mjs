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

export default async function e2eSetup() {
  const phase = process.env.ACT_TEST_PHASE || 'e2e';
  const stackFile = process.env.ACT_STACK_FILE || path.join(RUN_DIR, 'e2e-stack.json');
  const logFile = stackFile.replace(/\.json$/, '') + '.log';
  mkdirSync(path.dirname(stackFile), { recursive: true });
  // Service logs go to a file: interleaved with jest's report they would bury the test results.
  const logStream = createWriteStream(logFile);
  // The e2e phase records every /api answer for the contract check of its teardown (infra/e2e/contract).
  const recordFile = phase === 'e2e' ? stackFile.replace(/\.json$/, '') + '-answers.ndjson' : null;
  if (recordFile) rmSync(recordFile, { force: true });
  // The fault tests stop NATS and MongoDB: they get servers of their own, never the ones shared with other runs.
  const deps = phase === 'faults' ? await startFaultDeps() : null;
  const dbSuffix = `_${phase}_${process.pid}`;
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
        ...(phase === 'replicas' && REPLICAS_ENV),
        ...(recordFile && { API_RECORD_FILE: recordFile }),
      },
      log: (name, line) => logStream.write(`[${name}] ${line}\n`),
    });
  } catch (err) {
    await deps?.stopAll();
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
  globalThis.__actE2e = { stack, deps, control, logStream, stackFile, recordFile };
  console.log(`\n[${phase}] stack at ${stack.url}, service logs in ${path.relative(ROOT, logFile)}`);
}
