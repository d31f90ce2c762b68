// Loaded with `node --import` (NODE_OPTIONS refuses --cpu-prof). Samples this process's CPU while the file
// `<BENCH_PROF_DIR>/on` exists (so start-up is left out), and writes CPU.<pid>.cpuprofile into that folder when
// the file goes away or the process exits (the services exit through process.exit on SIGTERM; the in-process
// inspector answers Profiler.stop synchronously, so the 'exit' handler can still write).
import { existsSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

const dir = process.env.BENCH_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  let on = false;
  const stop = () => {
    if (!on) return;
    on = false;
    session.post('Profiler.stop', (err, res) => {
      if (!err) writeFileSync(path.join(dir, `CPU.${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  };
  setInterval(() => {
    const want = existsSync(path.join(dir, 'on'));
    if (want && !on) {
      on = true;
      session.post('Profiler.start');
    } else if (!want) stop();
  }, 100).unref();
  process.on('exit', stop);
}
