// Stops what e2e-setup.mjs started (globalThis is shared between jest's global setup and teardown), then checks the
// answers each stack's gateway recorded against the API document (infra/e2e/contract/check-recorded.ts).
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../scripts/lib/paths.mjs';
import { stopOne } from './e2e-setup.mjs';

export default async function e2eTeardown() {
  const started = globalThis.__actE2e;
  if (!started) return;
  const recordFiles = await Promise.all(started.stacks.map((one) => stopOne(one)));
  await started.deps?.stopAll();
  const recorded = recordFiles.filter((file) => file && existsSync(file));
  if (!recorded.length) return;
  // One check of every stack's answers (one tsx start): the others' lines appended to the first stack's file.
  for (const file of recorded.slice(1)) {
    appendFileSync(recorded[0], readFileSync(file));
    rmSync(file, { force: true });
  }
  checkRecordedAnswers(recorded[0]);
}

function checkRecordedAnswers(file) {
  const tsx = path.join(ROOT, 'node_modules/.bin/tsx');
  const run = spawnSync(tsx, [path.join(ROOT, 'infra/e2e/contract/check-recorded.ts'), file], { cwd: ROOT, encoding: 'utf8' });
  process.stdout.write(run.stdout ?? '');
  process.stderr.write(run.stderr ?? '');
  if (run.status !== 0) throw new Error(`answers of the e2e suite contradict the API document (${path.relative(ROOT, file)})`);
  rmSync(file, { force: true });
}
