/**
 * The index check of `npm test`: reads the query logs the services wrote during the run (recorder.ts) and fails,
 * naming each query and its callers, when a query on a collection that grows with shoppers or sends is served by
 * no index the services declared, unless that query's call site is in `known-unserved.json` (the queries still to be
 * given an index, each with the reason it has none; the list only ever shrinks).
 *   node --import tsx packages/service-kit/src/query-shapes/cli.ts <log dir> [--write-known]
 * --write-known rewrites the list from this run (to remove entries once their queries are served).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkQueryLog, newProblems, problemKeys } from './index-check';
import type { QueryLogRecord } from './recorder';

const KNOWN_FILE = path.join(__dirname, 'known-unserved.json');

const dir = process.argv[2];
const writeKnown = process.argv.includes('--write-known');
if (!dir || !existsSync(dir)) {
  console.error(`[index check] no query log at ${dir ?? '(no folder given)'}: nothing was recorded`);
  process.exit(1);
}
const records: QueryLogRecord[] = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
  for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
    if (line.trim()) records.push(JSON.parse(line) as QueryLogRecord);
  }
}
const { problems, shapes, indexes } = checkQueryLog(records);
if (shapes === 0) {
  console.error('[index check] the services recorded no query: the recorder is not attached');
  process.exit(1);
}
console.log(`[index check] ${shapes} query shapes against ${indexes} declared indexes`);

/** Call site → why no index serves it. */
const reasons = (existsSync(KNOWN_FILE) ? JSON.parse(readFileSync(KNOWN_FILE, 'utf8')) : {}) as Record<string, string>;

if (writeKnown) {
  // Keeps the sites this run still saw, with their reasons; a new one is written without a reason and must be given one.
  const keys = [...new Set(problems.flatMap(problemKeys))].sort();
  writeFileSync(KNOWN_FILE, JSON.stringify(Object.fromEntries(keys.map((k) => [k, reasons[k] ?? ''])), null, 2) + '\n');
  console.log(`[index check] ${keys.length} call sites of unserved queries written to ${path.relative(process.cwd(), KNOWN_FILE)}`);
  process.exit(0);
}

const unexplained = Object.entries(reasons).filter(([, why]) => !why.trim());
for (const [site] of unexplained) console.log(`[index check] known-unserved.json gives no reason for ${site}`);
const known = new Set(Object.keys(reasons).filter((k) => reasons[k].trim()));
const fresh = newProblems(problems, known);
for (const p of fresh) {
  console.log(`\n[index check] ${p.collection}: ${p.query}\n  ${p.reason}`);
  for (const caller of p.callers.slice(0, 5)) console.log(`  from ${caller}`);
}
console.log(
  `\n[index check] ${problems.length} query shapes served by no index, ${problems.length - fresh.length} of them known ` +
    `(${known.size} call sites in known-unserved.json); ${fresh.length} new`,
);
process.exit(fresh.length === 0 && unexplained.length === 0 ? 0 : 1);
