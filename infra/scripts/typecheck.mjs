// `npm run typecheck`: tsc over every workspace's own tsconfig.json (each extends tsconfig.base.json with noEmit;
// there is no root project to build), as many at once as the machine has cores, each one's errors printed together
// when it ends, and a non-zero exit if any has an error. Workspace folders as arguments check only those.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { ROOT, workspaces } from './lib/paths.mjs';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const asked = process.argv.slice(2);
const unknown = asked.filter((ws) => !workspaces().includes(ws));
if (unknown.length) {
  console.error(`[typecheck] unknown workspace ${unknown.join(', ')}; one of ${workspaces().join(', ')}`);
  process.exit(2);
}
const queue = (asked.length ? asked : workspaces()).filter((ws) => existsSync(path.join(ROOT, ws, 'tsconfig.json')));
const failed = [];

function check(ws) {
  const started = Date.now();
  const child = spawn(process.execPath, [tsc, '-p', path.join(ROOT, ws), '--pretty', 'false'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => {
    child.once('close', (status) => {
      if (out.trim()) process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
      console.log(`[typecheck] ${ws}: ${status === 0 ? 'ok' : 'errors'} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      if (status !== 0) failed.push(ws);
      resolve();
    });
  });
}

async function worker() {
  for (let ws = queue.shift(); ws; ws = queue.shift()) await check(ws);
}
await Promise.all(Array.from({ length: Math.max(1, Math.min(os.availableParallelism(), 4)) }, worker));
if (failed.length) {
  console.error(`[typecheck] type errors in ${failed.join(', ')}`);
  process.exit(1);
}
