// A stack of its own for one browser test that must begin from an empty database (the first-day walk): the three
// services and the gateway on the run's MongoDB and NATS, with databases and a NATS prefix no other test uses.
// Started by fresh-stack.ts as a child process (startStack is an ES module the test's CommonJS cannot load); it
// prints one JSON line once the stack answers and stops it when its parent closes its stdin or sends SIGTERM.
import { createWriteStream } from 'node:fs';
import { startStack } from '../scripts/stack.mjs';

const { id, mongoUri, natsUrl, natsPrefix, env, logFile } = JSON.parse(process.argv[2]);
const log = createWriteStream(logFile, { flags: 'a' });
const stack = await startStack({
  dbSuffix: `_fresh_${id}`,
  env: { MONGODB_URI: mongoUri, NATS_URL: natsUrl, NATS_PREFIX: `${natsPrefix}fresh${id}_`, ...env },
  log: (name, line) => log.write(`[fresh ${name}] ${line}\n`),
});
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await stack.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
process.stdout.write(`${JSON.stringify({ url: stack.url, adminPassword: stack.adminPassword })}\n`);
