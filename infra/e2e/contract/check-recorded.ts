// Run by the e2e phase's teardown: validates every /api answer the gateway recorded during the suite
// (API_RECORD_FILE) against the API document. Exit code 1 when one contradicts it.
//   npx tsx infra/e2e/contract/check-recorded.ts <file.ndjson>
import { readFileSync } from 'node:fs';
import auth from '@act/contracts/openapi/svc-auth.json';
import email from '@act/contracts/openapi/svc-email.json';
import sms from '@act/contracts/openapi/svc-sms.json';
import { mergeOpenApi, type OpenApiDocument } from '@act/contracts/src/openapi/merge';
import { createResponseChecker, type RecordedResponse } from '@act/testing/openapi-check';

const file = process.argv[2];
if (!file) throw new Error('usage: check-recorded.ts <file.ndjson>');
const records = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as RecordedResponse);
const { check } = createResponseChecker(mergeOpenApi([auth, email, sms] as OpenApiDocument[]));
const result = check(records);
const unlistedKinds = new Set(result.unlisted.map((u) => u.replace(/^(\w+) \S+ → (\d+)(?!\d).*?for (.*)$/, '$3 $2')));
console.log(
  `[contract] ${records.length} answers recorded, ${result.checked} bodies validated against the API document, ` +
    `${result.failures.length} contradict it; server failures it does not name: ${[...unlistedKinds].sort().join(', ') || 'none'}`,
);
for (const failure of result.failures.slice(0, 40)) console.log(`[contract] ${failure}`);
process.exit(result.failures.length ? 1 : 0);
