// Stops what e2e-setup.mjs started (globalThis is shared between jest's global setup and teardown).
import { rmSync } from 'node:fs';

export default async function e2eTeardown() {
  const started = globalThis.__actE2e;
  if (!started) return;
  await new Promise((resolve) => started.control.close(resolve));
  await started.stack.stop();
  await started.deps?.stopAll();
  started.logStream.end();
  rmSync(started.stackFile, { force: true });
}
