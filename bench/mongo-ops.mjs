// Loaded with `node --import` in the services (bench/profile.mjs): counts MongoDB commands by `command:collection`
// with their summed round-trip time while `<BENCH_PROF_DIR>/on` exists, and writes ops.<service>.<pid>.json there
// when the file goes away or the process exits.
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const dir = process.env.BENCH_PROF_DIR;
if (dir) {
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  const { Connection } = require('mongodb/lib/cmap/connection');
  const counts = {};
  let on = false;
  let since = 0;
  const orig = Connection.prototype.command;
  Connection.prototype.command = async function command(ns, cmd, ...rest) {
    if (!on) return orig.call(this, ns, cmd, ...rest);
    const name = Object.keys(cmd)[0];
    const key = `${name}:${typeof cmd[name] === 'string' ? cmd[name] : ''}`;
    const entry = (counts[key] ??= { n: 0, ms: 0, docs: 0 });
    entry.n++;
    entry.docs += cmd.documents?.length ?? cmd.updates?.length ?? cmd.deletes?.length ?? 0;
    const t = performance.now();
    try {
      return await orig.call(this, ns, cmd, ...rest);
    } finally {
      entry.ms += performance.now() - t;
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
      }));
    writeFileSync(
      path.join(dir, `ops.${path.basename(process.cwd())}.${process.pid}.json`),
      JSON.stringify({ seconds, rows }, null, 1),
    );
  };
  setInterval(() => {
    const want = existsSync(path.join(dir, 'on'));
    if (want && !on) {
      on = true;
      since = performance.now();
    } else if (!want) write();
  }, 100).unref();
  process.on('exit', write);
}
