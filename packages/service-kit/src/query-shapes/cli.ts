/**
 * The index check of `npm test`: reads the query logs the services wrote during the run (recorder.ts) and fails,
 * naming each query and its callers, when a query on a collection that grows with shoppers or sends is served by
 * no index the services declared.
 *   node --import tsx packages/service-kit/src/query-shapes/cli.ts <log dir>
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkQueryLog } from './index-check';
import type { QueryLogRecord } from './recorder';

const dir = process.argv[2];
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
for (const p of problems) {
  console.log(`\n[index check] ${p.collection}: ${p.query}\n  ${p.reason}`);
  for (const caller of p.callers.slice(0, 5)) console.log(`  from ${caller}`);
}
console.log(`\n[index check] ${problems.length === 0 ? 'every query on a growing collection is served by an index' : `${problems.length} query shapes served by no index`}`);
process.exit(problems.length === 0 ? 0 : 1);
