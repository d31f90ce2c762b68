// `npm run openapi`: writes each service's part of the API document to packages/contracts/openapi/<service>.json
// (committed: production images have no TypeScript tooling). A unit test fails while a written part is stale.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { allParts } from '../src/openapi/generate';

for (const [service, part] of Object.entries(allParts())) {
  const file = path.join(__dirname, '..', 'openapi', `${service}.json`);
  writeFileSync(file, JSON.stringify(part, null, 2) + '\n');
  console.log(`${path.relative(process.cwd(), file)}: ${Object.keys(part.paths).length} paths, ${Object.keys(part.components.schemas).length} schemas`);
}
