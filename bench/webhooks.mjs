#!/usr/bin/env node
// Webhook intake through the gateway (both webhook URLs) at a sustained load, next to a bare Koa echo measured in
// the same run, then a count proving every accepted event was stored.
// Target: >= 2,000 events/s, p99 <= 50 ms, ratio to the bare echo >= 0.25.
//   node bench/webhooks.mjs [--duration=10] [--connections=32]
import { fork } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { adminClient, benchStack, BENCH_DIR, loadAvg, sleep, writeResult } from './lib.mjs';

const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const DURATION = arg('duration', 10);
const CONNECTIONS = arg('connections', 32);
const TARGET = { eventsPerSec: 2000, p99Ms: 50, ratioToEcho: 0.25 };

function load(url, makeBody) {
  let n = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: DURATION,
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            setupRequest: (req) => ({ ...req, body: JSON.stringify(makeBody(n++)) }),
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

function summary(result) {
  return {
    requests: result.requests.total,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    eventsPerSec: Math.round(result['2xx'] / (result.duration || DURATION)),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}

async function startEcho() {
  const child = fork(path.join(BENCH_DIR, 'echo-server.mjs'), { stdio: 'ignore' });
  const port = await new Promise((resolve) => child.once('message', (m) => resolve(m.port)));
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill() };
}

async function waitForCount(read, expected, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let count = await read();
  while (count < expected && Date.now() < deadline) {
    await sleep(500);
    count = await read();
  }
  return count;
}

const run = Date.now().toString(36);
const load1 = { start: loadAvg() };
const stack = await benchStack('webhooks');
const echo = await startEcho();
try {
  const api = await adminClient(stack);
  await api('POST', '/api/webhook-integrations', {
    name: 'Bench funnel',
    funnel_id: `bench-${run}`,
    reminder_delay: 720,
    active: true,
    resend_template_id: null,
    campaign_id: null,
  });
  await api('POST', '/api/sms-webhook-integrations', {
    name: 'Bench SMS funnel',
    funnel_id: `bench-${run}`,
    reminder_delay: 720,
    active: true,
  });
  const body = (i, prefix) => ({
    event: 'contact_created',
    funnel_id: `bench-${run}`,
    contact: {
      id: `${prefix}-${run}-${i}`,
      email: `shopper${i}@example.com`,
      phone: `+1415555${String(i % 10000).padStart(4, '0')}`,
    },
  });

  console.log(`[bench] ${CONNECTIONS} connections, ${DURATION} s per phase`);
  await load(echo.url, (i) => body(i, 'warm')); // warm-up of the load generator itself
  const echoResult = summary(await load(echo.url, (i) => body(i, 'echo')));
  console.log('[bench] bare Koa echo', echoResult);
  const emailResult = summary(await load(`${stack.url}/api/webhook`, (i) => body(i, 'e')));
  console.log('[bench] POST /api/webhook', emailResult);
  const smsResult = summary(await load(`${stack.url}/api/sms/webhook`, (i) => body(i, 's')));
  console.log('[bench] POST /api/sms/webhook', smsResult);

  // Counted in the databases: the SMS list answers at most SMS_LIST_LIMIT rows.
  const emailEvents = (await stack.db('svc-email')).collection('webhook_events');
  const smsEvents = (await stack.db('svc-sms')).collection('sms_webhook_events');
  const emailStored = await waitForCount(() => emailEvents.countDocuments({}), emailResult.ok2xx);
  const smsStored = await waitForCount(() => smsEvents.countDocuments({}), smsResult.ok2xx);
  const verdict = (r) => ({
    eventsPerSec: r.eventsPerSec >= TARGET.eventsPerSec,
    p99Ms: r.p99Ms <= TARGET.p99Ms,
    ratioToEcho: r.eventsPerSec / echoResult.eventsPerSec >= TARGET.ratioToEcho,
  });
  load1.end = loadAvg();
  const result = {
    target: TARGET,
    settings: { durationSec: DURATION, connections: CONNECTIONS },
    load1,
    echo: echoResult,
    email: {
      ...emailResult,
      ratioToEcho: +(emailResult.eventsPerSec / echoResult.eventsPerSec).toFixed(3),
      stored: emailStored,
      allStored: emailStored >= emailResult.ok2xx,
      met: verdict(emailResult),
    },
    sms: {
      ...smsResult,
      ratioToEcho: +(smsResult.eventsPerSec / echoResult.eventsPerSec).toFixed(3),
      stored: smsStored,
      allStored: smsStored >= smsResult.ok2xx,
      met: verdict(smsResult),
    },
  };
  const file = writeResult('webhooks', result);
  console.table({
    'bare echo': { 'events/s': echoResult.eventsPerSec, 'p50 ms': echoResult.p50Ms, 'p99 ms': echoResult.p99Ms },
    '/api/webhook': {
      'events/s': emailResult.eventsPerSec,
      'p50 ms': emailResult.p50Ms,
      'p99 ms': emailResult.p99Ms,
      ratio: result.email.ratioToEcho,
      stored: `${emailStored}/${emailResult.ok2xx}`,
    },
    '/api/sms/webhook': {
      'events/s': smsResult.eventsPerSec,
      'p50 ms': smsResult.p50Ms,
      'p99 ms': smsResult.p99Ms,
      ratio: result.sms.ratioToEcho,
      stored: `${smsStored}/${smsResult.ok2xx}`,
    },
  });
  console.log(`[bench] written ${path.relative(process.cwd(), file)}`);
  if (!result.email.allStored || !result.sms.allStored) {
    console.error('[bench] FAIL: some accepted events were not stored');
    process.exitCode = 1;
  }
} finally {
  echo.stop();
  await stack.stop();
}
