#!/usr/bin/env node
// Memory per instance against the number of contacts: seeds email and SMS contacts straight into the services'
// databases (svc-email's own seedContacts; SMS contacts as the webhook writes them, their sequences closed so no
// step is due), drives the Contacts and SMS Contacts pages through the gateway (sorts, filters, deep pages), and
// reads each process's resident memory (VmRSS of /proc/<pid>/status) at every size, after one warm-up round: its
// peak while the same page rounds run (sampled every 100 ms) and its value 3 s after them. The peak is the figure
// judged: the value after the rounds depends on when V8 last returned pages to the system, the peak is what the same
// work needs at each size. Every size idles the same time after its seeding before its rounds (--settle, 60 s by
// default): a seeding of 450,000 contacts idles the services for a minute where one of 10,000 takes two seconds,
// and V8 gives memory back while idle, so without it the largest size would read lower for having waited longer.
// The smallest size is measured twice, the first pass not judged: it reads what starting the service took.
// Targets: each service's peak VmRSS at the largest size within 15% of the smallest; at 50,000 contacts every
// contacts page action (a sort, a filter, a page) answered in <= 300 ms.
//   node bench/memory.mjs [--sizes=10000,50000,500000] [--rounds=3] [--settle=60]
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { adminClient, benchStack, loadAvg, percentile, sleep, writeResult } from './lib.mjs';

const argOf = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const SIZES = (argOf('sizes') ?? '10000,50000,500000').split(',').map(Number);
const ROUNDS = Number(argOf('rounds') ?? 3);
const SETTLE_S = Number(argOf('settle') ?? 60);
const ACTION_SIZE = 50_000;
const TARGET = { rssGrowthPct: 15, actionMs: 300 };
const SERVICES = ['svc-email', 'svc-sms', 'gateway'];

const stack = await benchStack('memory');
const results = { sizes: [], target: TARGET, settleS: SETTLE_S };
try {
  const api = await adminClient(stack);
  const integration = await api('POST', '/api/webhook-integrations', { name: 'Memory bench', funnel_id: 'mem-bench', reminder_delay: 600 });
  const pids = Object.fromEntries(SERVICES.map((s) => [s, pidOnPort(stack.ports[s])]));
  console.log(`[bench] pids ${JSON.stringify(pids)}`);
  const mongoose = (await import('mongoose')).default;
  const { tsImport } = await import('tsx/esm/api');
  const { seedContacts } = await tsImport('../svc-email/src/contacts/seed.ts', import.meta.url);
  const emailConn = await mongoose.createConnection(stack.env.MONGODB_URI, { dbName: `act_email${stack.suffix}` }).asPromise();
  const smsDb = await stack.db('svc-sms');
  let seeded = 0;
  try {
    for (const size of SIZES) {
      const t0 = Date.now();
      await seedEmail(seedContacts, emailConn, integration, seeded, size);
      await seedSms(smsDb, seeded, size);
      console.log(`[bench] ${size} email + ${size} SMS contacts in the databases (${((Date.now() - t0) / 1000).toFixed(0)} s to add ${size - seeded} each)`);
      seeded = size;
      // Once, at the smallest size, the same pass unjudged first: a service holds what starting took until its
      // first full collection (svc-email about 220 MB for its first minutes, an idle of a minute or a warm-up round
      // at this size not enough to collect it; 150-165 MB once it has), so the first pass's peak is the start-up's.
      if (!results.startup) {
        results.startup = await pass(api, integration.id, pids, size);
        console.log(`[bench] start-up pass at ${size} (not judged): ${describe(results.startup)}`);
      }
      const row = await pass(api, integration.id, pids, size);
      results.sizes.push(row);
      console.log(`[bench] ${size}: ${describe(row)}`);
    }
  } finally {
    await emailConn.close();
  }
  const first = results.sizes[0];
  const last = results.sizes.at(-1);
  const growth = (key) => Object.fromEntries(SERVICES.map((s) => [s, +(((last[key][s] - first[key][s]) / first[key][s]) * 100).toFixed(1)]));
  results.rssPeakGrowthPct = growth('rssPeakKb');
  results.rssGrowthPct = growth('rssKb');
  const within = (pct) => SERVICES.filter((s) => s !== 'gateway').every((s) => Math.abs(pct[s]) <= TARGET.rssGrowthPct);
  const at = results.sizes.find((r) => r.contacts === ACTION_SIZE);
  results.met = {
    rssPeak: within(results.rssPeakGrowthPct),
    rssAfter: within(results.rssGrowthPct),
    actionsAt50k: at ? at.failed === 0 && at.actionMs.max <= TARGET.actionMs : null,
  };
  console.log(`[bench] VmRSS from ${first.contacts} to ${last.contacts} contacts: peak ${JSON.stringify(results.rssPeakGrowthPct)} %, after ${JSON.stringify(results.rssGrowthPct)} %; met ${JSON.stringify(results.met)}`);
  console.log(`[bench] written ${writeResult('memory', results)}`);
} finally {
  await stack.stop();
}

/**
 * One measured pass at the current size: the idle (--settle), a warm-up round of the pages, then ROUNDS rounds with
 * each service's VmRSS sampled every 100 ms (its peak), and its value 3 s after them.
 */
async function pass(api, integrationId, pids, size) {
  await sleep(SETTLE_S * 1000);
  const actions = [];
  // A first round warms the caches and JIT at this size; the rounds after it are the figures.
  await drivePages(api, integrationId, size);
  const peak = Object.fromEntries(SERVICES.map((s) => [s, 0]));
  const sampler = setInterval(() => {
    for (const s of SERVICES) peak[s] = Math.max(peak[s], vmRssKb(pids[s]) ?? 0);
  }, 100);
  try {
    for (let r = 0; r < ROUNDS; r++) actions.push(...(await drivePages(api, integrationId, size)));
  } finally {
    clearInterval(sampler);
  }
  await sleep(3_000);
  const rss = Object.fromEntries(SERVICES.map((s) => [s, vmRssKb(pids[s])]));
  const ms = actions.map((a) => a.ms).sort((a, b) => a - b);
  const slowest = [...actions].sort((a, b) => b.ms - a.ms).slice(0, 3);
  const failed = actions.filter((a) => a.error).length;
  return { contacts: size, rssPeakKb: peak, rssKb: rss, actions: actions.length, failed, actionMs: { p50: percentile(ms, 50), p95: percentile(ms, 95), max: ms.at(-1) }, slowest, load1: loadAvg() };
}

function describe(row) {
  return `VmRSS peak ${JSON.stringify(row.rssPeakKb)} kB, after ${JSON.stringify(row.rssKb)} kB; page actions p50 ${row.actionMs.p50} ms, p95 ${row.actionMs.p95} ms, max ${row.actionMs.max} ms, ${row.failed} failed (load ${row.load1})`;
}

/** The process listening on `port` (the service itself: the stack starts node directly). */
function pidOnPort(port) {
  const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const m = /pid=(\d+)/.exec(out);
  if (!m) throw new Error(`no process listens on ${port}`);
  return Number(m[1]);
}

function vmRssKb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : null;
}

async function seedEmail(seedContacts, conn, integration, from, to) {
  const start = Date.now() - 10 * to;
  for (let i = from; i < to; i += 10_000) {
    const n = Math.min(10_000, to - i);
    const items = Array.from({ length: n }, (_, k) => ({
      contactId: `m-${i + k}`,
      email: `shopper${i + k}@example.com`,
      firstName: 'Sam',
      createdAt: new Date(start + 10 * (i + k)),
      purchasedAt: (i + k) % 9 === 0 ? new Date(start + 10 * (i + k) + 5) : undefined,
    }));
    await seedContacts(conn, integration, Number(stack.env.REMINDER_DELAY_UNIT_MS ?? 60_000), items);
  }
}

/** SMS contacts as the webhook writes them, each sequence over (abandoned or purchased: next_at null). */
async function seedSms(db, from, to) {
  const coll = db.collection('sms_contacts');
  const start = Date.now() - 10 * to;
  for (let i = from; i < to; i += 10_000) {
    const docs = [];
    for (let k = i; k < Math.min(to, i + 10_000); k++) {
      const at = new Date(start + 10 * k);
      const bought = k % 9 === 0;
      docs.push({
        id: 5_000_000 + k,
        phone: `+1415${String(1_000_000 + k).slice(-7)}`,
        contact_id: `m-${k}`,
        funnel_id: 'mem-bench',
        integration_id: null,
        first_name: 'Sam',
        email: `shopper${k}@example.com`,
        checkout_url: null,
        status: bought ? 'purchased' : 'abandoned',
        remind_at: at,
        next_at: null,
        held_until: null,
        step: 1,
        sent_count: 1,
        last_sent_at: at,
        purchased_at: bought ? at : null,
        created_at: at,
        updated_at: at,
      });
    }
    await coll.insertMany(docs, { ordered: false });
  }
}

/** One round of what an operator does on the two contacts pages: first and deep pages, each sort, each filter. */
async function drivePages(api, integrationId, size) {
  const deep = Math.max(1, Math.floor(size / 25 / 2));
  const email = [
    '?page=1&pageSize=25',
    `?page=${deep}&pageSize=25`,
    '?page=1&pageSize=25&sort=email',
    '?page=1&pageSize=25&sort=-email',
    '?page=1&pageSize=25&sort=contact_id',
    '?page=1&pageSize=25&sort=remind_at',
    '?page=1&pageSize=25&sort=-purchased_at',
    '?page=1&pageSize=25&sort=status',
    '?page=1&pageSize=25&status=pending',
    '?page=1&pageSize=25&status=purchased',
    '?page=1&pageSize=25&status=unsubscribed',
    `?page=1&pageSize=25&integration_id=${integrationId}`,
  ].map((q) => `/api/contacts${q}`);
  const sms = ['?page=1&pageSize=25', `?page=${deep}&pageSize=25`, '?page=1&pageSize=25&sort=created_at', '?page=1&pageSize=25&status=purchased'].map(
    (q) => `/api/sms-contacts${q}`,
  );
  const out = [];
  for (const path of [...email, ...sms]) {
    const t = performance.now();
    // A refused or timed-out page is counted as such (with its time), not the end of the run: memory is still read.
    const error = await api('GET', path).then(
      () => undefined,
      (err) => String(err.message).slice(0, 120),
    );
    out.push({ path, ms: Math.round(performance.now() - t), ...(error ? { error } : {}) });
  }
  return out;
}
