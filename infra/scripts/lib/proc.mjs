// Child processes with named, line-prefixed output, a tail kept for error messages, and a stop that
// cannot leave grandchildren behind (tsx watch and rspack --watch fork their own children).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import readline from 'node:readline';

const TAIL_LINES = 40;
const live = new Set();

// A parent that exits (error, Ctrl-C, jest teardown skipped) must not leave a stand-in or a service holding
// ports: on exit only synchronous work runs, so SIGKILL whatever process groups are still alive.
process.on('exit', () => {
  for (const handle of live) killGroup(handle.pid, 'SIGKILL');
});

// Children run in their own process groups, so Ctrl-C in a terminal reaches only this process, and a signal's
// default action ends it without an 'exit' event. Where no one else handles the signal (jest's main process,
// test.mjs), exit properly so the handler above runs; start.mjs has its own graceful handler.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (process.listenerCount(signal) === 1) process.exit(128 + constants.signals[signal]);
  });
}

/** Sends `signal` to the process group `pid` leads (children started with `detached`), if it is still there. */
export function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: already gone.
  }
}

/** The default sink: `[name] line` on stdout, so interleaved logs of several processes stay readable. */
export const prefixedStdout = (name, line) => process.stdout.write(`[${name}] ${line}\n`);

/**
 * Starts `command args` in its own process group. Returns a handle:
 * `{ name, pid, exited: Promise<{code, signal}>, running(), tail(), stop({ timeoutMs }) }`.
 * `stdin: 'pipe'` gives the child a pipe that closes when this process dies (the Mongo stand-in watches it).
 */
export function startProcess(name, command, args, { cwd, env, stdin = 'ignore', log = prefixedStdout } = {}) {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: [stdin, 'pipe', 'pipe'] });
  const lines = [];
  const onLine = (line) => {
    lines.push(line);
    if (lines.length > TAIL_LINES) lines.shift();
    log(name, line);
  };
  readline.createInterface({ input: child.stdout }).on('line', onLine);
  readline.createInterface({ input: child.stderr }).on('line', onLine);

  let running = true;
  const handle = {
    name,
    pid: child.pid,
    child,
    running: () => running,
    tail: () => lines.join('\n'),
    exited: new Promise((resolve) => {
      const finish = (code, signal) => {
        if (!running) return;
        running = false;
        live.delete(handle);
        // The leader is gone; anything it forked in its group goes too.
        if (child.pid) killGroup(child.pid, 'SIGKILL');
        resolve({ code, signal });
      };
      child.once('exit', finish);
      child.once('error', (err) => {
        onLine(`could not start ${command}: ${err.message}`);
        finish(null, null);
      });
    }),
    /** SIGTERM to the group so the process can close cleanly, SIGKILL if it is still there after timeoutMs. */
    async stop({ timeoutMs = 5000 } = {}) {
      if (!running) return handle.exited;
      killGroup(child.pid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), timeoutMs);
      const result = await handle.exited;
      clearTimeout(timer);
      return result;
    },
  };
  if (child.pid) live.add(handle);
  return handle;
}

/** Runs a command to completion with inherited output (builds, mvn); resolves with its exit code. */
export function run(command, args, { cwd, env, stdio = 'inherit' } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio });
    child.once('error', () => resolve(127));
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}
