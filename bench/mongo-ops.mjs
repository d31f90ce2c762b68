// Loaded with `node --import` in the services (bench/profile.mjs): counts MongoDB commands by `command:collection`
// with their summed round-trip time while `<BENCH_PROF_DIR>/on` exists, and writes ops.<service>.<pid>.json there
// when the file goes away or the process exits. BENCH_OPS_SHAPES=1 splits each command by the keys of its filter
// (`update:contacts {integration_id,contact_id,cart.updated_at}`), so one slow query shape stands out from the rest.
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const dir = process.env.BENCH_PROF_DIR;
if (dir) {
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  const { Connection } = require('mongodb/lib/cmap/connection');
  const counts = {};
  // Stalls of the process's own event loop (GC, long synchronous work), next to the database's round trips: a slow
  // request's time is either here or in the commands' maxMs.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  let on = false;
  let since = 0;
  const byShape = Boolean(process.env.BENCH_OPS_SHAPES);
  const keysOf = (q) => (q && typeof q === 'object' ? `{${Object.keys(q).join(',')}}` : '');
  const filterOf = (cmd) =>
    cmd.filter ?? cmd.query ?? cmd.q ?? cmd.updates?.[0]?.q ?? cmd.deletes?.[0]?.q ?? cmd.pipeline?.[0]?.$match;
  const orig = Connection.prototype.command;
  Connection.prototype.command = async function command(ns, cmd, ...rest) {
    if (!on) return orig.call(this, ns, cmd, ...rest);
    const name = Object.keys(cmd)[0];
    const coll = `${name}:${typeof cmd[name] === 'string' ? cmd[name] : ''}`;
    const key = byShape ? `${coll} ${keysOf(filterOf(cmd))}` : coll;
    const entry = (counts[key] ??= { n: 0, ms: 0, docs: 0, maxMs: 0, over50: 0 });
    entry.n++;
    entry.docs += cmd.documents?.length ?? cmd.updates?.length ?? cmd.deletes?.length ?? 0;
    const t = performance.now();
    try {
      return await orig.call(this, ns, cmd, ...rest);
    } finally {
      const ms = performance.now() - t;
      entry.ms += ms;
      if (ms > entry.maxMs) entry.maxMs = ms;
      if (ms > 50) entry.over50++;
    }
  };
  const write = () => {
    if (!on) return;
    on = false;
    const seconds = (performance.now() - since) / 1000;
    const rows = Object.entries(counts)
      .sort((a, b) => b[1].n - a[1].n)
      .map(([k, v]) => ({
        op: k,
        n: v.n,
        perSec: +(v.n / seconds).toFixed(1),
        docs: v.docs,
        avgMs: +(v.ms / v.n).toFixed(1),
        maxMs: Math.round(v.maxMs),
        over50ms: v.over50,
      }));
    loop.disable();
    const ms = (ns) => +(ns / 1e6).toFixed(1);
    const eventLoopDelay = { p50Ms: ms(loop.percentile(50)), p99Ms: ms(loop.percentile(99)), maxMs: ms(loop.max) };
    writeFileSync(
      path.join(dir, `ops.${path.basename(process.cwd())}.${process.pid}.json`),
      JSON.stringify({ seconds, eventLoopDelay, rows }, null, 1),
    );
  };
  setInterval(() => {
    const want = existsSync(path.join(dir, 'on'));
    if (want && !on) {
      on = true;
      // Each time the switch is on is counted alone (a bench may switch it on for some of its phases).
      for (const k of Object.keys(counts)) delete counts[k];
      since = performance.now();
      loop.reset();
      loop.enable();
    } else if (!want) write();
  }, 100).unref();
  process.on('exit', write);
}
