#!/usr/bin/env node
// Where the CPU goes under webhook load: a stack whose processes run with `--cpu-prof`, a load of N seconds on one
// webhook URL, then the top functions (self time) and the top packages of each process's profile.
//   node bench/profile.mjs [--target=email|sms|email-signed|sms-signed|email-stripe|sms-stripe|echo] [--duration=8]
//     [--connections=32] [--top=25] [--prefill=0]
// The -signed targets post signed ClickFunnels 2.0 `contact.identified` deliveries to an integration's own URL; the
// -stripe targets Stripe `checkout.session.expired` events signed by the official library (as bench/webhooks.mjs).
// --prefill=N: N unsigned contacts posted to each side's plain URL first (not profiled), so a query that scans the
// contacts earlier phases stored shows its cost on a store the size the bench's later phases meet.
// --rate=N: a fixed N requests/s (autocannon overallRate) instead of as fast as it goes, so CPU per event can be
// compared between two versions at the same throughput on a machine whose free CPU varies.
// --idle=N: before the load, N seconds with no delivery, and each process's CPU ms per second over them: what the
// stack spends on its own (the due pollers' reads, which the stand-in answers by reading every row), to set beside
// the load's CPU per event. With --prefill the store is the size the bench's later phases meet.
// Profiles stay in bench/results/profiles/ (open them in Chrome DevTools → Performance) and are not committed.
import { createHmac } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import Stripe from 'stripe';
import { adminClient, benchStack, BENCH_DIR, cpuDelta, descendantCpu } from './lib.mjs';

const opt = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const TARGET = opt('target', 'email');
const DURATION = Number(opt('duration', 8));
const CONNECTIONS = Number(opt('connections', 32));
const TOP = Number(opt('top', 25));
const WARMUP = Number(opt('warmup', 0));
const RATE = Number(opt('rate', 0));
const PREFILL = Number(opt('prefill', 0));
const IDLE = Number(opt('idle', 0));
const ROOT = path.dirname(BENCH_DIR);
const dir = path.join(BENCH_DIR, 'results', 'profiles');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const stack = await benchStack('profile', {
  NODE_OPTIONS: `--import=${path.join(BENCH_DIR, 'cpu-prof.mjs')} --import=${path.join(BENCH_DIR, 'mongo-ops.mjs')}`,
  BENCH_PROF_DIR: dir,
  // The command tables split by filter keys: which query shape of a collection costs the time.
  BENCH_OPS_SHAPES: '1',
});
const run = Date.now().toString(36);
let result;
let cpuBefore;
let cpuAfter;
try {
  const api = await adminClient(stack);
  const email = await api('POST', '/api/webhook-integrations', {
    name: 'Profile',
    funnel_id: `p-${run}`,
    reminder_delay: 720,
    active: true,
    resend_template_id: null,
    campaign_id: null,
  });
  const sms = await api('POST', '/api/sms-webhook-integrations', {
    name: 'Profile',
    funnel_id: `p-${run}`,
    reminder_delay: 720,
    active: true,
  });
  const SECRET = 'profile-clickfunnels-webhook-secret';
  const STRIPE_SECRET = 'whsec_profile0123456789abcdefghijklmn';
  const signed = TARGET.endsWith('-signed');
  const stripe = TARGET.endsWith('-stripe');
  const plain = (side) => `${stack.url}${side === 'sms' ? '/api/sms/webhook' : '/api/webhook'}`;
  let url = plain(TARGET.startsWith('sms') ? 'sms' : 'email');
  if (signed || stripe) {
    const [kind, integration] = TARGET.startsWith('sms') ? ['sms-webhook-integrations', sms] : ['webhook-integrations', email];
    const signing = stripe ? { webhook_secret: STRIPE_SECRET, webhook_source: 'stripe' } : { webhook_secret: SECRET };
    const saved = await api('PATCH', `/api/${kind}/${integration.id}`, signing);
    url = `${stack.url}${new URL(saved.webhook_url).pathname}`;
  }
  if (PREFILL > 0) {
    // The plain URLs match by funnel id: an integration of their own, since the profiled one may now want signatures.
    await api('POST', '/api/webhook-integrations', { name: 'Prefill', funnel_id: `f-${run}`, reminder_delay: 720, active: true, resend_template_id: null, campaign_id: null });
    await api('POST', '/api/sms-webhook-integrations', { name: 'Prefill', funnel_id: `f-${run}`, reminder_delay: 720, active: true });
    for (const side of ['email', 'sms']) {
      let k = 0;
      const r = await new Promise((resolve, reject) =>
        autocannon(
          {
            url: plain(side),
            connections: CONNECTIONS,
            amount: PREFILL,
            requests: [
              {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                setupRequest: (req) => {
                  const i = k++;
                  const contact = { id: `f-${side}-${i}`, email: `f${side}${i}@example.com`, phone: `+1415554${String(i % 10000).padStart(4, '0')}` };
                  return { ...req, body: JSON.stringify({ event: 'contact_created', funnel_id: `f-${run}`, contact }) };
                },
              },
            ],
          },
          (err, res) => (err ? reject(err) : resolve(res)),
        ),
      );
      console.log(`[profile] prefill ${side}: ${r['2xx']} contacts posted`);
    }
    await stack.quiet();
  }
  const delivery = (i) => {
    const phone = `+1415555${String(i % 10000).padStart(4, '0')}`;
    if (stripe) {
      const session = `cs_test_p${run}${i}`;
      const body = JSON.stringify({
        id: `evt_p${run}${i}`,
        object: 'event',
        api_version: '2025-06-30.basil',
        created: Math.floor(Date.now() / 1000),
        type: 'checkout.session.expired',
        livemode: false,
        data: {
          object: {
            id: session,
            object: 'checkout.session',
            mode: 'payment',
            status: 'expired',
            payment_status: 'unpaid',
            amount_subtotal: 7920,
            amount_total: 7920,
            currency: 'eur',
            customer_email: null,
            customer_details: { email: `stripe.p${i}@example.com`, name: 'Léa Martin', phone },
            consent: { promotions: 'opt_in', terms_of_service: null },
            after_expiration: { recovery: { enabled: true, expires_at: Math.floor(Date.now() / 1000) + 30 * 86_400, url: `https://buy.stripe.com/r/${session}` } },
            recovered_from: null,
          },
        },
      });
      return { body, headers: { 'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret: STRIPE_SECRET }) } };
    }
    if (!signed)
      return {
        body: JSON.stringify({ event: 'contact_created', funnel_id: `p-${run}`, contact: { id: `p-${i}`, email: `p${i}@example.com`, phone } }),
        headers: {},
      };
    const body = JSON.stringify({
      event_id: `p-${run}-${i}`,
      event_type: 'contact.identified',
      data: { id: i, email_address: `p${i}@example.com`, phone_number: phone, first_name: 'Dana' },
    });
    const ts = String(Math.floor(Date.now() / 1000));
    return {
      body,
      headers: {
        'X-Webhook-ClickFunnels-Signature': createHmac('sha256', SECRET).update(`${ts}.${body}`).digest('hex'),
        'X-Webhook-ClickFunnels-Timestamp': ts,
      },
    };
  };
  let n = 0;
  const fire = (duration) =>
    new Promise((resolve, reject) =>
      autocannon(
        {
          url,
          connections: CONNECTIONS,
          duration,
          overallRate: RATE || undefined,
          requests: [
            {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              setupRequest: (req) => {
                const d = delivery(n++);
                return { ...req, body: d.body, headers: { ...req.headers, ...d.headers } };
              },
            },
          ],
        },
        (err, r) => (err ? reject(err) : resolve(r)),
      ),
    );
  if (IDLE > 0) {
    await stack.quiet();
    const before = descendantCpu();
    await new Promise((r) => setTimeout(r, IDLE * 1000));
    const used = cpuDelta(before, descendantCpu());
    console.log(
      `[profile] idle ${IDLE} s, CPU ms per second per process:`,
      Object.fromEntries(Object.entries(used).filter(([, v]) => v > 0).map(([k, v]) => [k, Math.round((1000 * v) / IDLE)])),
    );
  }
  if (WARMUP) {
    const w = await fire(WARMUP);
    console.log(
      `[profile] warm-up: ${Math.round(w['2xx'] / WARMUP)} events/s, p50 ${w.latency.p50} ms, p99 ${w.latency.p99} ms`,
    );
  }
  writeFileSync(path.join(dir, 'on'), '');
  cpuBefore = descendantCpu();
  await new Promise((r) => setTimeout(r, 300));
  result = await fire(DURATION);
  cpuAfter = descendantCpu();
} finally {
  rmSync(path.join(dir, 'on'), { force: true });
  await new Promise((r) => setTimeout(r, 1000));
  await stack.stop();
}
console.log(
  `[profile] ${TARGET}: ${Math.round(result['2xx'] / DURATION)} events/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
);

/** Self time per function and per package of one .cpuprofile. */
function summarize(file) {
  const prof = JSON.parse(readFileSync(file, 'utf8'));
  const dt = new Map();
  for (let i = 0; i < prof.samples.length; i++)
    dt.set(prof.samples[i], (dt.get(prof.samples[i]) ?? 0) + (prof.timeDeltas[i] ?? 0));
  const byFn = new Map();
  const byPkg = new Map();
  let total = 0;
  for (const node of prof.nodes) {
    const us = dt.get(node.id) ?? 0;
    total += us;
    const { functionName, url, lineNumber } = node.callFrame;
    const short = url
      .replace(/^file:\/\//, '')
      .replace(/.*node_modules\//, 'nm/')
      .replace(ROOT + '/', '');
    const key = `${functionName || '(anon)'} ${short}:${lineNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + us);
    const pkg = !url
      ? functionName
      : url.includes('node_modules/')
        ? url
            .split('node_modules/')
            .pop()
            .split('/')
            .slice(0, url.includes('node_modules/@') ? 2 : 1)
            .join('/')
        : url.startsWith('node:')
          ? 'node:' + url.slice(5).split('/')[0]
          : short.split('/').slice(0, 2).join('/');
    byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + us);
  }
  const top = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .map(
        ([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`,
      );
  // Attributed to the nearest frame of our own code (not node_modules, not node:): which feature costs the CPU.
  const parent = new Map();
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const ours = (url) => url.startsWith('file://') && !url.includes('node_modules') && !url.includes('/bench/');
  const byOwn = new Map();
  for (const node of prof.nodes) {
    const us = dt.get(node.id) ?? 0;
    if (!us || node.callFrame.functionName === '(idle)') continue;
    let cur = node;
    while (cur && !ours(cur.callFrame.url)) cur = byId.get(parent.get(cur.id));
    const key = cur
      ? `${cur.callFrame.functionName || '(anon)'} ${cur.callFrame.url.replace('file://' + ROOT + '/', '')}:${cur.callFrame.lineNumber + 1}`
      : '(no own frame: I/O callbacks, timers, GC)';
    byOwn.set(key, (byOwn.get(key) ?? 0) + us);
  }
  const urls = prof.nodes.map((n) => n.callFrame.url).join(' ');
  const name = ['svc-auth', 'svc-email', 'svc-sms', 'gateway'].find((w) => urls.includes(`${ROOT}/${w}/src`)) ?? '?';
  return { name, totalMs: Math.round(total / 1000), fns: top(byFn), pkgs: top(byPkg), own: top(byOwn) };
}

const cpu = cpuDelta(cpuBefore, cpuAfter);
console.log('[profile] CPU seconds used during the load, per process:', cpu);
const events = result['2xx'] || 1;
console.log(
  `[profile] CPU ms per event (${events} events):`,
  Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, +((1000 * v) / events).toFixed(2)])),
  'total',
  +((1000 * Object.values(cpu).reduce((a, b) => a + b, 0)) / events).toFixed(2),
);
for (const f of readdirSync(dir).filter((f) => f.startsWith('ops.'))) {
  const { seconds, rows } = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
  console.log(`\n=== ${f}: MongoDB commands over ${seconds.toFixed(1)} s`);
  console.table(rows.slice(0, TOP));
}
for (const f of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const s = summarize(path.join(dir, f));
  console.log(`\n=== ${s.name} ${f} (${s.totalMs} ms sampled) — packages`);
  console.log(s.pkgs.join('\n'));
  console.log(`--- nearest own frame`);
  console.log(s.own.join('\n'));
  console.log(`--- functions`);
  console.log(s.fns.join('\n'));
}
