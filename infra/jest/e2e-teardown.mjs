// Stops what e2e-setup.mjs started (globalThis is shared between jest's global setup and teardown), then checks the
// answers the gateway recorded against the API document (infra/e2e/contract/check-recorded.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../scripts/lib/paths.mjs';

export default async function e2eTeardown() {
  const started = globalThis.__actE2e;
  if (!started) return;
  await new Promise((resolve) => started.control.close(resolve));
  await started.stack.stop();
  await started.deps?.stopAll();
  started.logStream.end();
  rmSync(started.stackFile, { force: true });
  if (started.recordFile && existsSync(started.recordFile)) checkRecordedAnswers(started.recordFile);
}

function checkRecordedAnswers(file) {
  const tsx = path.join(ROOT, 'node_modules/.bin/tsx');
  const run = spawnSync(tsx, [path.join(ROOT, 'infra/e2e/contract/check-recorded.ts'), file], { cwd: ROOT, encoding: 'utf8' });
  process.stdout.write(run.stdout ?? '');
  process.stderr.write(run.stderr ?? '');
  if (run.status !== 0) throw new Error(`answers of the e2e suite contradict the API document (${path.relative(ROOT, file)})`);
  rmSync(file, { force: true });
}
