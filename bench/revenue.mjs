#!/usr/bin/env node
// Recovered revenue (issue 17): the revenue summary at 50,000 reminded contacts, 200,000 reminders and ~10,000
// purchases over 90 days. Both services' ledgers get the same facts (bench/revenue-seed.ts, written in the ledger's
// own documents), svc-email also gets the 50,000 contacts (its summary counts the contacts that came in), then each
// summary route is called through the gateway, one call at a time, for 7 / 30 / 90 days and for one integration of
// ten: the median of CALLS timed calls after WARMUP untimed ones. Target: median <= 300 ms.
//   node bench/revenue.mjs [--contacts=50000] [--sends=200000] [--purchases=10000] [--calls=15]
import { adminClient, benchStack, loadAvg, percentile, writeResult } from './lib.mjs';

const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const CONTACTS = arg('contacts', 50_000);
const SENDS = arg('sends', 200_000);
const PURCHASES = arg('purchases', 10_000);
const CALLS = arg('calls', 15);
const WARMUP = 3;
const DAYS = 90;
const FUNNELS = 10;
const TARGET = { medianMs: 300 };

const stack = await benchStack('revenue', {});
const load = { start: loadAvg() };
try {
  const api = await adminClient(stack);
  const run = Date.now().toString(36);
  const funnels = Array.from({ length: FUNNELS }, (_, i) => `rev-${run}-${i}`);
  const emailIntegrations = [];
  const smsIntegrations = [];
  for (const funnel_id of funnels) {
    emailIntegrations.push(await api('POST', '/api/webhook-integrations', { name: `Shop ${funnel_id.slice(-1)}`, funnel_id, reminder_delay: 720, active: true, resend_template_id: null, campaign_id: null }));
    smsIntegrations.push(await api('POST', '/api/sms-webhook-integrations', { name: `Shop ${funnel_id.slice(-1)}`, funnel_id, reminder_delay: 720, active: true }));
  }

  const { tsImport } = await import('tsx/esm/api');
  const { seedLedger } = await tsImport('./revenue-seed.ts', import.meta.url);
  const { seedContacts } = await tsImport('../svc-email/src/contacts/seed.ts', import.meta.url);
  const now = Date.now();
  const t0 = Date.now();
  const opts = { contacts: CONTACTS, sends: SENDS, purchases: PURCHASES, days: DAYS, funnels, now };
  const facts = await seedLedger(await stack.db('svc-email'), opts);
  await seedLedger(await stack.db('svc-sms'), opts);
  const mongoose = (await import('mongoose')).default;
  const conn = await mongoose.createConnection(stack.env.MONGODB_URI, { dbName: (await stack.db('svc-email')).databaseName }).asPromise();
  try {
    const per = Math.ceil(CONTACTS / FUNNELS);
    for (let f = 0; f < FUNNELS; f++)
      await seedContacts(
        conn,
        // Not yet due (remind_at 200 days on): a due contact would be reminded by the sweep, a storm of new sends.
        emailIntegrations[f],
        Math.ceil((200 * 86_400_000) / emailIntegrations[f].reminder_delay),
        Array.from({ length: Math.min(per, CONTACTS - f * per) }, (_, k) => ({ contactId: `rc-${f * per + k}`, email: `rev${f * per + k}@example.com`, firstName: 'Rae', createdAt: new Date(now - ((f * per + k) % DAYS) * 86_400_000 - 1000) })),
      );
  } finally {
    await conn.close();
  }
  console.log(`[bench] seeded ${facts.touches} reminders, ${facts.purchases} purchases on both ledgers, ${CONTACTS} email contacts in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

  async function timed(path) {
    const times = [];
    let body;
    for (let i = 0; i < WARMUP + CALLS; i++) {
      const a = performance.now();
      body = await api('GET', path);
      if (i >= WARMUP) times.push(performance.now() - a);
    }
    times.sort((a, b) => a - b);
    return { medianMs: Math.round(percentile(times, 50)), p90Ms: Math.round(percentile(times, 90)), maxMs: Math.round(times.at(-1)), body };
  }

  const result = {};
  for (const [side, base, integrations] of [
    ['email', '/api/revenue/summary', emailIntegrations],
    ['sms', '/api/sms/revenue/summary', smsIntegrations],
  ]) {
    result[side] = {};
    for (const days of [7, 30, 90]) {
      const r = await timed(`${base}?days=${days}`);
      // The figures must be the seeded facts, or the time is of a wrong answer.
      const right = r.body.totals.purchases === facts.purchasesByRange[days] && r.body.funnel.reminded === facts.remindedByRange[days];
      if (!right) throw new Error(`${side} ${days} days: ${r.body.totals.purchases} purchases / ${r.body.funnel.reminded} reminded, seeded ${facts.purchasesByRange[days]} / ${facts.remindedByRange[days]}`);
      result[side][`days${days}`] = { medianMs: r.medianMs, p90Ms: r.p90Ms, maxMs: r.maxMs, purchases: r.body.totals.purchases, recovered: r.body.totals.recovered, reminded: r.body.funnel.reminded };
      console.log(`[bench] ${side} ${days} days: median ${r.medianMs} ms, p90 ${r.p90Ms}, max ${r.maxMs} (${r.body.totals.purchases} purchases, ${r.body.totals.recovered} recovered, ${r.body.funnel.reminded} reminded)`);
    }
    const one = integrations[0];
    if (one) {
      const r = await timed(`${base}?days=${DAYS}&integration_id=${one.id}`);
      result[side].oneIntegration90 = { medianMs: r.medianMs, p90Ms: r.p90Ms, maxMs: r.maxMs, purchases: r.body.totals.purchases, reminded: r.body.funnel.reminded };
      console.log(`[bench] ${side} one integration of ${FUNNELS}, ${DAYS} days: median ${r.medianMs} ms, p90 ${r.p90Ms}, max ${r.maxMs}`);
    }
  }
  const medians = Object.values(result).flatMap((s) => Object.values(s).map((x) => x.medianMs));
  load.end = loadAvg();
  const file = writeResult('revenue', {
    settings: { contacts: CONTACTS, sends: facts.touches, purchases: facts.purchases, days: DAYS, funnels: FUNNELS, calls: CALLS, warmup: WARMUP },
    target: TARGET,
    load,
    ...result,
    worstMedianMs: Math.max(...medians),
    met: Math.max(...medians) <= TARGET.medianMs,
  });
  console.log(`[bench] worst median ${Math.max(...medians)} ms (target ≤ ${TARGET.medianMs}); written ${file}`);
} finally {
  await stack.stop();
}
