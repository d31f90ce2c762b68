// Shared helpers of the benchmark scripts: a stack of our own, an admin session, result files.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStack } from '../infra/scripts/stack.mjs';
import { ensureMongo, ensureNats } from '../infra/scripts/deps.mjs';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));

/** A fresh stack on its own databases and NATS prefix, quiet unless BENCH_VERBOSE is set. */
export async function benchStack(label, env = {}) {
  const mongo = process.env.MONGODB_URI ? null : await ensureMongo({});
  const nats = process.env.NATS_URL ? null : await ensureNats({});
  const suffix = `_${label}_${Date.now().toString(36)}`;
  const stack = await startStack({
    dbSuffix: suffix,
    env: {
      MONGODB_URI: process.env.MONGODB_URI ?? mongo.uri,
      NATS_URL: process.env.NATS_URL ?? nats.url,
      NATS_PREFIX: `bench${suffix}_`,
      LOG_LEVEL: 'warn',
      ...env,
    },
    log: process.env.BENCH_VERBOSE ? undefined : () => undefined,
  });
  return {
    ...stack,
    async stop() {
      await stack.stop();
      await mongo?.stop();
      await nats?.stop();
    },
  };
}

/** Signs in as admin through the gateway and returns a fetch bound to that session. */
export async function adminClient(stack) {
  const res = await fetch(`${stack.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: stack.adminPassword }),
  });
  if (!res.ok) throw new Error(`admin login failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  return async (method, p, body) => {
    const r = await fetch(`${stack.url}${p}`, {
      method,
      headers: { cookie, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

export function machine() {
  return { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: `${os.platform()} ${os.release()}` };
}

export function writeResult(name, data) {
  const dir = path.join(BENCH_DIR, 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), machine: machine(), ...data }, null, 2) + '\n');
  return file;
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
