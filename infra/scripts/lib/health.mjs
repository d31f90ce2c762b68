// Waiting for a started process to answer GET /healthz, failing fast (with its last output) if it dies.
import { sleep } from './net.mjs';

/**
 * @param {ReturnType<import('./proc.mjs').startProcess>} handle
 * @param {string} url full /healthz URL
 */
export async function waitForHealthz(handle, url, { timeoutMs = 90_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastProblem = 'no answer yet';
  while (Date.now() < deadline) {
    if (!handle.running()) {
      const { code, signal } = await handle.exited;
      throw new Error(
        `${handle.name} exited (${signal ?? `code ${code}`}) before answering GET ${url}; last output:\n${handle.tail()}`,
      );
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
      lastProblem = `HTTP ${res.status}`;
    } catch (err) {
      lastProblem = err.cause?.code ?? err.message;
    }
    await sleep(250);
  }
  throw new Error(
    `${handle.name} did not answer GET ${url} with 200 within ${timeoutMs / 1000}s (${lastProblem}); last output:\n${handle.tail()}`,
  );
}
