#!/usr/bin/env node
// `npm run bench`: runs each benchmark in its own process (each starts and stops its own stack), one after the
// other so they never share the machine, then prints one table from bench/results/*.json: figure, value, target, met.
//   node bench/run-all.mjs [--only=webhooks,reminders,cross-channel,delivery,browser,revenue] [--table]   (--table: print only, run nothing)
// Extra arguments after `--` go to every benchmark (e.g. `-- --duration=5`).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BENCH_DIR, loadAvg } from './lib.mjs';

const ALL = ['webhooks', 'reminders', 'cross-channel', 'delivery', 'browser', 'revenue'];
const only =
  process.argv
    .find((a) => a.startsWith('--only='))
    ?.split('=')[1]
    ?.split(',') ?? ALL;
const tableOnly = process.argv.includes('--table');
const passThrough = process.argv.includes('--') ? process.argv.slice(process.argv.indexOf('--') + 1) : [];
const failed = [];

if (!tableOnly) {
  for (const name of only) {
    if (!ALL.includes(name)) throw new Error(`unknown benchmark ${name}; one of ${ALL.join(', ')}`);
    console.log(`\n[bench] ===== ${name} (load average ${loadAvg()}) =====`);
    const r = spawnSync(process.execPath, [path.join(BENCH_DIR, `${name}.mjs`), ...passThrough], { stdio: 'inherit' });
    if (r.status !== 0) failed.push(name);
  }
}

const read = (name) => {
  const file = path.join(BENCH_DIR, 'results', `${name}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
};
const rows = [];
const add = (figure, value, unit, target, met, r) =>
  rows.push({
    figure,
    value: value === null || value === undefined ? 'n/a' : `${value}${unit}`,
    target,
    met: met === null ? '' : met ? 'yes' : 'NO',
    date: r.date.slice(0, 16).replace('T', ' '),
    load: r.machine?.load1 ?? '',
  });

const w = read('webhooks');
if (w) {
  for (const [key, label] of [
    ['email', 'POST /api/webhook'],
    ['sms', 'POST /api/sms/webhook'],
  ]) {
    const x = w[key];
    add(`${label}: events/s`, x.eventsPerSec, '', '≥ 2,000', x.met.eventsPerSec, w);
    add(`${label}: p99 latency`, x.p99Ms, ' ms', '≤ 50 ms', x.met.p99Ms, w);
    add(
      `${label}: ratio to bare Koa echo (${w.echo.eventsPerSec}/s)`,
      x.ratioToEcho,
      '',
      '≥ 0.25',
      x.met.ratioToEcho,
      w,
    );
    add(`${label}: every accepted event stored`, `${x.stored}/${x.ok2xx}`, '', 'all', x.allStored, w);
    // Older result files held one fixed-rate object (autocannon's rate limit), newer ones a list of steady rates.
    for (const r of Array.isArray(x.atFixedRate) ? x.atFixedRate : []) {
      const atTarget = r.rate >= w.target.eventsPerSec;
      add(
        `${label}: steady ${r.rate}/s, answered/s · p50 / p99`,
        `${r.eventsPerSec}/s · ${r.p50Ms} / ${r.p99Ms}`,
        ' ms',
        atTarget ? `${r.rate}/s kept, p99 ≤ 50 ms` : '(latency without queueing)',
        atTarget ? r.met.eventsPerSec && r.met.p99Ms && r.allStored : null,
        w,
      );
    }
  }
}
const rem = read('reminders');
if (rem) {
  for (const [key, label] of [
    ['email', 'email'],
    ['sms', 'SMS'],
  ]) {
    const x = rem[key];
    add(
      `Reminder lateness p50 / p99, ${label} (${x.contacts} due over ${x.dueWindowSec} s, 2 instances)`,
      `${x.latenessP50Ms} / ${x.latenessP99Ms}`,
      ' ms',
      'p99 ≤ 2,000 ms',
      x.met.p99LatenessMs,
      rem,
    );
    add(
      `Reminder duplicates / never sent, ${label}`,
      `${x.duplicates} / ${x.missing}`,
      '',
      '0 / 0',
      x.duplicates === 0 && x.missing === 0,
      rem,
    );
    add(
      `Reminder completion, ${label} (first due → last sent)`,
      x.completionSec,
      ' s',
      `≈ due window (${x.dueWindowSec} s)`,
      x.completionAfterLastDueSec !== null && x.completionAfterLastDueSec <= 2,
      rem,
    );
  }
}
const cc = read('cross-channel');
if (cc) {
  add(
    'Cross-channel purchase email → SMS, p50 / p99',
    `${cc.emailToSms.p50Ms} / ${cc.emailToSms.p99Ms}`,
    ' ms',
    'p99 ≤ 500 ms',
    cc.emailToSms.met,
    cc,
  );
  add(
    'Cross-channel purchase SMS → email, p50 / p99',
    `${cc.smsToEmail.p50Ms} / ${cc.smsToEmail.p99Ms}`,
    ' ms',
    'p99 ≤ 500 ms',
    cc.smsToEmail.met,
    cc,
  );
}
const d = read('delivery');
if (d) {
  for (const [key, label, unit] of [
    ['email', 'Resend', 'emails'],
    ['sms', 'Twilio', 'SMS'],
  ]) {
    const x = d[key];
    add(
      `Delivery via fake ${label} with 10% 429 / 2% 500 / 1% timeouts: ${x.due} ${unit} due at once, lost / sent twice`,
      `${x.lost} / ${x.duplicates}`,
      '',
      '0 / 0',
      x.met.lost && x.met.duplicates,
      d,
    );
    add(
      `Delivery via fake ${label}: ${unit}/s over the drain (${x.drainSec} s), share of the ceiling ${x.ceilingPerSec}/s`,
      `${x.perSec}/s = ${Math.round(100 * x.shareOfCeiling)}%`,
      '',
      '≥ 90%',
      x.met.throughput,
      d,
    );
  }
}
const b = read('browser');
if (b) {
  add('Sign-in page to interactive (cold, median)', b.signIn.medianMs, ' ms', '≤ 1,000 ms', b.signIn.met, b);
  add('JS before sign-in (gzip, transferred)', b.js.kb, ' KB', '≤ 350 KB', b.js.met, b);
  add(
    `Contacts page load (${b.settings.contacts} contacts, median)`,
    b.contacts.loadMedianMs,
    ' ms',
    '≤ 1,000 ms',
    b.contacts.met.load,
    b,
  );
  add(
    'Contacts sort, click → table updated (median / max)',
    `${b.contacts.sortMedianMs} / ${b.contacts.sortMaxMs}`,
    ' ms',
    '≤ 300 ms',
    b.contacts.met.sort,
    b,
  );
  add(
    'Contacts filter, click → table updated (median / max)',
    `${b.contacts.filterMedianMs} / ${b.contacts.filterMaxMs}`,
    ' ms',
    '≤ 300 ms',
    b.contacts.met.filter,
    b,
  );
}
const rv = read('revenue');
if (rv) {
  const { contacts, sends, purchases } = rv.settings;
  for (const [key, label] of [
    ['email', 'GET /api/revenue/summary'],
    ['sms', 'GET /api/sms/revenue/summary'],
  ]) {
    const x = rv[key];
    add(
      `${label} at ${contacts} contacts / ${sends} sends / ${purchases} purchases, median: 7 / 30 / 90 days / one integration (90 days)`,
      `${x.days7.medianMs} / ${x.days30.medianMs} / ${x.days90.medianMs} / ${x.oneIntegration90.medianMs}`,
      ' ms',
      '≤ 300 ms',
      Math.max(x.days7.medianMs, x.days30.medianMs, x.days90.medianMs, x.oneIntegration90.medianMs) <= rv.target.medianMs,
      rv,
    );
  }
}
console.table(rows);
if (failed.length) {
  console.error(`[bench] failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
