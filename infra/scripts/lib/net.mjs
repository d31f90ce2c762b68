// Small TCP helpers: free ports for isolated runs, and waiting for a child to accept connections.
import net from 'node:net';

/**
 * A free port below the kernel's ephemeral range (32768-60999 on Linux), where outgoing connections take their local
 * ports: a port the OS hands out with listen(0) comes from that range, and between choosing it and the process
 * listening on it, another process's connection to MongoDB or NATS could take it (EADDRINUSE at start, seen with
 * seven processes booting at once). Random in 20000-32767, checked free; listen(0) only as a last resort.
 */
export async function freePort(host = '127.0.0.1') {
  for (let i = 0; i < 50; i++) {
    const port = 20_000 + Math.floor(Math.random() * 12_768);
    if (await portIsFree(port, host)) return port;
  }
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** True when nothing listens on host:port yet, so a fixed port (8080...) can fail early with a clear message. */
export function portIsFree(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/**
 * Connects once and resolves with the first chunk the server sends (NATS greets with an INFO line),
 * or '' when it accepts but stays silent; null when nothing accepts within timeoutMs.
 */
export function probe(port, host = '127.0.0.1', timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    let connected = false;
    const done = (value) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(timeoutMs, () => done(connected ? '' : null));
    socket.once('connect', () => (connected = true));
    socket.once('data', (chunk) => done(chunk.toString('utf8')));
    socket.once('error', () => done(null));
  });
}

/**
 * Waits until host:port accepts a connection. `alive()` lets the caller stop waiting as soon as the
 * process that should listen has died, instead of sitting out the whole timeout.
 */
export async function waitForPort(port, { host = '127.0.0.1', timeoutMs = 60_000, alive = () => true, what } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`${what ?? `process for ${host}:${port}`} exited before accepting connections`);
    const ok = await new Promise((resolve) => {
      const socket = net.connect({ port, host });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await sleep(200);
  }
  throw new Error(`${what ?? 'process'} did not accept connections on ${host}:${port} within ${timeoutMs / 1000}s`);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
