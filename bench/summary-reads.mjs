// The summary's reads of the ledger alone (no HTTP, no services), on a stand-in of its own: the per-funnel reminded
// sets (`r|`), the per-campaign ones (`c|`) and the purchases (`p|`), at the revenue bench's size (50,000
// contacts, 200,000 reminders, 10,000 purchases over 90 days, 10 funnels). Median of 9 after 2 warm-ups per range.
//   node bench/summary-reads.mjs [--contacts=50000 --sends=200000 --purchases=10000]
import { ensureMongo } from '../infra/scripts/deps.mjs';

const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const opts = { contacts: arg('contacts', 50_000), sends: arg('sends', 200_000), purchases: arg('purchases', 10_000), days: 90, funnels: Array.from({ length: 10 }, (_, i) => `rev-${i}`), now: Date.now() };
const mongo = await ensureMongo();
const mongoose = (await import('mongoose')).default;
const { tsImport } = await import('tsx/esm/api');
const { seedLedger } = await tsImport('./revenue-seed.ts', import.meta.url);
const { AttributionLedger } = await tsImport('../packages/service-kit/src/attribution/ledger.ts', import.meta.url);
const conn = await mongoose.createConnection(mongo.uri, { dbName: 'summary_reads' }).asPromise();
try {
  const t0 = Date.now();
  await seedLedger(conn.db, opts);
  console.log(`seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  const ledger = new AttributionLedger(conn);
  const DAY = 86_400_000;
  const until = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) + DAY);
  const median = async (fn) => {
    const times = [];
    for (let i = 0; i < 11; i++) {
      const t = performance.now();
      await fn();
      if (i >= 2) times.push(performance.now() - t);
    }
    return Math.round(times.sort((a, b) => a - b)[Math.floor(times.length / 2)]);
  };
  for (const days of [7, 30, 90]) {
    const from = new Date(until.getTime() - days * DAY);
    const r = await median(() => ledger.remindedIn(from, until));
    const c = await median(() => ledger.campaignRemindedIn(from, until));
    const p = await median(() => ledger.purchasesIn(from, until));
    const all = await median(() => Promise.all([ledger.remindedIn(from, until), ledger.campaignRemindedIn(from, until), ledger.purchasesIn(from, until)]));
    console.log(JSON.stringify({ days, reminded_ms: r, campaign_reminded_ms: c, purchases_ms: p, together_ms: all, campaigns: (await ledger.campaignRemindedIn(from, until)).size }));
  }
} finally {
  await conn.dropDatabase();
  await conn.close();
  await mongo.stop();
}
