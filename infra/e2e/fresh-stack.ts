// The test side of fresh-stack-child.mjs: a stack with empty databases for one test file, stopped in its afterAll.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { readStack } from './stack';

export interface FreshStack {
  url: string;
  adminPassword: string;
  stop(): Promise<void>;
}

/** Starts the stack (`env` on top of the run's, e.g. a reminder "minute" of one second) and waits until it answers. */
export async function startFreshStack(env: Record<string, string> = {}): Promise<FreshStack> {
  const shared = readStack();
  const id = `${process.pid}${Date.now().toString(36)}`;
  const args = {
    id,
    mongoUri: shared.mongoUri ?? process.env.MONGODB_URI,
    natsUrl: shared.natsUrl ?? process.env.NATS_URL,
    natsPrefix: shared.natsPrefix ?? '',
    env,
    logFile: shared.logFile,
  };
  const child: ChildProcess = spawn(process.execPath, [path.join(__dirname, 'fresh-stack-child.mjs'), JSON.stringify(args)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const info = await new Promise<{ url: string; adminPassword: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the fresh stack exited (${code}) before answering; see ${shared.logFile}`)));
    readline.createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
  });
  return {
    ...info,
    async stop() {
      child.stdin!.end();
      await exited;
    },
  };
}
