#!/usr/bin/env node
// Browser figures in Chromium (playwright-core, /usr/bin/chromium) through the gateway:
// - sign-in page to interactive: navigation start → the Sign In button enabled, cold (new context, empty cache);
// - JS bytes (as transferred, gzip) loaded by the sign-in page before signing in;
// - the contacts page with N contacts (created through the funnel webhook, or with --seed=db written straight into
//   svc-email's database by svc-email's own seedContacts: same documents, same id counter, in seconds instead of
//   minutes): load (navigation start → rows shown),
//   sort (click on a column header → the re-sorted page shown) and filter (click on a status → the filtered page
//   shown), timed inside the page (performance.now(), checked every animation frame).
// Targets: interactive <= 1 s, JS <= 350 KB, contacts page load <= 1 s, each sort or filter <= 300 ms.
//   node bench/browser.mjs [--contacts=50000] [--runs=5] [--concurrency=64] [--seed=webhook|db]
// Builds the frontends only when a dist folder is missing (a stale one is measured as it is, with a warning).
/* global document, requestAnimationFrame -- page functions run in Chromium */
import { chromium } from 'playwright-core';
import { buildFrontends, FRONTENDS, isStale } from '../infra/scripts/lib/frontends.mjs';
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  adminClient,
  benchStack,
  BENCH_DIR,
  cpuDelta,
  descendantCpu,
  loadAvg,
  percentile,
  postAll,
  sleep,
  writeResult,
} from './lib.mjs';

const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const CONTACTS = arg('contacts', 50_000);
const RUNS = arg('runs', 5);
const CONCURRENCY = arg('concurrency', 64);
const SEED = process.argv.find((a) => a.startsWith('--seed='))?.split('=')[1] ?? 'webhook';
if (!['webhook', 'db'].includes(SEED)) throw new Error('--seed must be webhook or db');
const TARGET = { signInInteractiveMs: 1000, jsKbGzip: 350, contactsLoadMs: 1000, contactsActionMs: 300 };
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];
const median = (xs) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

const missing = FRONTENDS.filter((ws) => !existsSync(path.join(BENCH_DIR, '..', ws, 'dist')));
if (missing.length) await buildFrontends({ only: missing });
const stale = FRONTENDS.filter((ws) => !missing.includes(ws) && isStale(ws));
if (stale.length)
  console.warn(
    `[bench] measuring the existing builds of ${stale.join(', ')}, older than their sources (npm run build to refresh)`,
  );

const run = Date.now().toString(36);
const stack = await benchStack('browser', {});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  headless: true,
  args: ARGS,
});
const load = { start: loadAvg() };
try {
  // --- sign-in page, cold
  const signIn = [];
  let jsBytes = null;
  let jsFiles = null;
  for (let r = 0; r < RUNS; r++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const scripts = [];
    page.on('requestfinished', (req) => {
      if (req.resourceType() === 'script') scripts.push(req);
    });
    await page.goto(`${stack.url}/auth`, { waitUntil: 'commit' });
    const ms = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const check = () => {
            const b = [...document.querySelectorAll('button')].find((x) => x.textContent.trim() === 'Sign In');
            if (b && !b.disabled) resolve(performance.now());
            else requestAnimationFrame(check);
          };
          check();
        }),
    );
    signIn.push(Math.round(ms));
    if (r === 0) {
      await page.waitForLoadState('networkidle');
      const sizes = await Promise.all(scripts.map(async (q) => ({ url: q.url(), ...(await q.sizes()) })));
      jsBytes = sizes.reduce((s, x) => s + x.responseBodySize, 0);
      jsFiles = sizes.length;
    }
    await context.close();
  }
  console.log(
    `[bench] sign-in interactive ${signIn.join(', ')} ms (cold); JS ${(jsBytes / 1024).toFixed(1)} KB transferred in ${jsFiles} files`,
  );

  // --- contacts through the funnel webhook, a few of them purchased so the filters have something to show
  const api = await adminClient(stack);
  const funnel = `browser-${run}`;
  const integration = await api('POST', '/api/webhook-integrations', {
    name: 'Browser bench',
    funnel_id: funnel,
    reminder_delay: 720,
    active: true,
    resend_template_id: null,
    campaign_id: null,
  });
  const purchased = Math.min(500, Math.floor(CONTACTS / 10));
  if (SEED === 'db') await seedInDb(integration, purchased);
  else await seedByWebhook(funnel, purchased);

  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${stack.url}/auth`);
  await page.getByLabel(/^Username/).fill('admin');
  await page.getByLabel(/^Password/).fill(stack.adminPassword);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((u) => u.pathname !== '/auth');

  // The page is "shown" when rows are on screen, the count line is there and no reload is in flight.
  const settled = `(() => !!document.querySelector('tr[data-contact-id]') && /Showing \\d+/.test(document.querySelector('[data-testid="contact-count"]')?.textContent ?? '') && !document.querySelector('[aria-label="Loading contacts"]'))()`;
  // svc-email's Server-Timing on each contacts page: where it came from (memory or MongoDB) and its server time.
  const served = [];
  page.on('response', (res) => {
    const m = /desc="(\w+)";dur=([\d.]+)/.exec(res.headers()['server-timing'] ?? '');
    if (m && new URL(res.url()).pathname === '/api/contacts') served.push({ source: m[1], ms: +m[2] });
  });
  const cpuBefore = descendantCpu();
  const loads = [];
  for (let r = 0; r < RUNS; r++) {
    await page.goto(`${stack.url}/contacts`, { waitUntil: 'commit' });
    loads.push(
      Math.round(
        await page.evaluate(
          (cond) =>
            new Promise((resolve) => {
              const check = () => (eval(cond) ? resolve(performance.now()) : requestAnimationFrame(check));
              check();
            }),
          settled,
        ),
      ),
    );
  }
  const count = await page.locator('[data-testid="contact-count"]').textContent();
  console.log(`[bench] contacts page load ${loads.join(', ')} ms (${count})`);

  /** Clicks `target` (a function run in the page returning the element) and times until the page shows a different first row or count. */
  async function timeAction(pick) {
    return Math.round(
      await page.evaluate(
        ({ pick, cond }) =>
          new Promise((resolve, reject) => {
            const el = eval(pick);
            if (!el) return reject(new Error(`nothing to click: ${pick}`));
            const before = `${document.querySelector('tr[data-contact-id]')?.getAttribute('data-contact-id')}|${document.querySelector('[data-testid="contact-count"]')?.textContent}`;
            const t0 = performance.now();
            el.click();
            const check = () => {
              const now = `${document.querySelector('tr[data-contact-id]')?.getAttribute('data-contact-id')}|${document.querySelector('[data-testid="contact-count"]')?.textContent}`;
              if (now !== before && eval(cond)) resolve(performance.now() - t0);
              else if (performance.now() - t0 > 30_000) reject(new Error('no change within 30 s'));
              else requestAnimationFrame(check);
            };
            requestAnimationFrame(check);
          }),
        { pick, cond: settled },
      ),
    );
  }
  const header = (label) =>
    `[...document.querySelectorAll('th .MuiTableSortLabel-root')].find((e) => e.textContent.trim() === ${JSON.stringify(label)})`;
  const sorts = [];
  for (const label of ['Email', 'Email', 'ID', 'Status', 'Created At']) {
    if (!(await page.evaluate((p) => !!eval(p), header(label)))) throw new Error(`no sortable column "${label}"`);
    sorts.push({ label, ms: await timeAction(header(label)) });
    await sleep(300);
  }
  console.log(`[bench] sort ${sorts.map((s) => `${s.label} ${s.ms} ms`).join(', ')}`);

  const filters = [];
  for (const status of ['Purchased', 'Pending', 'All Statuses', 'Purchased', 'All Statuses']) {
    await page.getByLabel('Status').click();
    await page.getByRole('option', { name: status, exact: true }).waitFor();
    filters.push({
      status,
      ms: await timeAction(
        `[...document.querySelectorAll('[role="option"]')].find((e) => e.textContent.trim() === ${JSON.stringify(status)})`,
      ),
    });
    await sleep(300);
  }
  console.log(`[bench] filter ${filters.map((s) => `${s.status} ${s.ms} ms`).join(', ')}`);
  load.end = loadAvg();
  // CPU seconds per process over the loads, sorts and filters: which side (stand-in, svc-email, gateway, bench/Chromium) pays.
  const cpu = Object.fromEntries(Object.entries(cpuDelta(cpuBefore, descendantCpu())).filter(([, v]) => v > 0));
  console.log(`[bench] CPU seconds over the contacts actions: ${JSON.stringify(cpu)}`);
  const bySource = {};
  for (const { source, ms } of served) (bySource[source] ??= []).push(ms);
  const serverMs = Object.fromEntries(
    Object.entries(bySource).map(([k, xs]) => [k, { n: xs.length, medianMs: median(xs), maxMs: Math.max(...xs) }]),
  );
  console.log(`[bench] svc-email time per contacts request (Server-Timing): ${JSON.stringify(serverMs)}`);

  const result = {
    target: TARGET,
    settings: {
      runs: RUNS,
      contacts: CONTACTS,
      purchased,
      seed: SEED,
      chromiumArgs: ARGS,
    },
    load1: load,
    signIn: { interactiveMs: signIn, medianMs: median(signIn), met: median(signIn) <= TARGET.signInInteractiveMs },
    js: {
      bytesGzip: jsBytes,
      kb: +(jsBytes / 1024).toFixed(1),
      files: jsFiles,
      met: jsBytes / 1024 <= TARGET.jsKbGzip,
    },
    contacts: {
      count,
      loadMs: loads,
      loadMedianMs: median(loads),
      sort: sorts,
      sortMedianMs: median(sorts.map((s) => s.ms)),
      sortMaxMs: Math.max(...sorts.map((s) => s.ms)),
      filter: filters,
      filterMedianMs: median(filters.map((s) => s.ms)),
      filterMaxMs: Math.max(...filters.map((s) => s.ms)),
      cpuSeconds: cpu,
      serverMs,
    },
  };
  result.contacts.met = {
    load: result.contacts.loadMedianMs <= TARGET.contactsLoadMs,
    sort: result.contacts.sortMedianMs <= TARGET.contactsActionMs,
    filter: result.contacts.filterMedianMs <= TARGET.contactsActionMs,
  };
  const file = writeResult('browser', result);
  console.log(`[bench] load average ${load.start} → ${load.end}; written ${file}`);
} finally {
  await browser.close();
  await stack.stop();
}

/** contact_created for b-0..b-N-1 through the funnel webhook, then purchase_created for b-0, b-7, b-14... */
async function seedByWebhook(funnel, purchased) {
  const seeded = await postAll({
    bases: [stack.url],
    count: CONTACTS + purchased,
    concurrency: CONCURRENCY,
    item: (i) =>
      i < CONTACTS
        ? {
            path: '/api/webhook',
            body: {
              event: 'contact_created',
              funnel_id: funnel,
              contact: { id: `b-${i}`, email: `buyer${i}@example.com`, first_name: 'Lee' },
            },
          }
        : {
            path: '/api/webhook',
            body: { event: 'purchase_created', funnel_id: funnel, contact: { id: `b-${(i - CONTACTS) * 7}` } },
          },
  });
  if (seeded.failed) throw new Error(`seeding contacts: ${seeded.failed} failed (${seeded.firstError})`);
  console.log(
    `[bench] ${CONTACTS} contacts (+${purchased} purchases) posted in ${(seeded.ms / 1000).toFixed(0)} s (${Math.round((CONTACTS + purchased) / (seeded.ms / 1000))}/s)`,
  );
}

/** The same contacts as seedByWebhook (b-0..b-N-1, every 7th of the first `purchased` × 7 purchased), written directly. */
async function seedInDb(integration, purchased) {
  const t0 = Date.now();
  const { tsImport } = await import('tsx/esm/api');
  const { seedContacts } = await tsImport('../svc-email/src/contacts/seed.ts', import.meta.url);
  const mongoose = (await import('mongoose')).default;
  const conn = await mongoose
    .createConnection(stack.env.MONGODB_URI, { dbName: `act_email${stack.suffix}` })
    .asPromise();
  try {
    const bought = new Set(Array.from({ length: purchased }, (_, k) => k * 7));
    const start = Date.now() - CONTACTS;
    const items = Array.from({ length: CONTACTS }, (_, i) => ({
      contactId: `b-${i}`,
      email: `buyer${i}@example.com`,
      firstName: 'Lee',
      createdAt: new Date(start + i),
      purchasedAt: bought.has(i) ? new Date(start + CONTACTS + i) : undefined,
    }));
    await seedContacts(conn, integration, Number(stack.env.REMINDER_DELAY_UNIT_MS ?? 60_000), items);
  } finally {
    await conn.close();
  }
  console.log(
    `[bench] ${CONTACTS} contacts (${purchased} purchased) written to svc-email's database in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
}
