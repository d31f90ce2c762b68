#!/usr/bin/env node
// Regenerates confusables.json from Unicode's own data file, UTS #39 confusables.txt
// (https://www.unicode.org/Public/security/<version>/confusables.txt), when Unicode publishes a new version:
//   node svc-auth/src/users/confusables/generate.mjs path/to/confusables.txt
// The JSON keeps each source character's prototype (its skeleton target) plus the file's version, date and SHA-256,
// so a reviewer can check which Unicode release the usernames are compared with.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const input = process.argv[2];
if (!input) {
  console.error('usage: node generate.mjs <confusables.txt>');
  process.exit(2);
}
const text = readFileSync(input, 'utf8');
const version = /^# Version: (\S+)/m.exec(text)?.[1];
const date = /^# Date: (.+)$/m.exec(text)?.[1]?.trim();
if (!version) throw new Error('not a UTS #39 confusables.txt: no "# Version:" line');

const chars = (hex) => String.fromCodePoint(...hex.trim().split(/\s+/).map((h) => parseInt(h, 16)));
const map = {};
for (const line of text.split('\n')) {
  const data = line.split('#')[0].trim();
  if (!data) continue;
  const [source, target] = data.split(';');
  map[chars(source)] = chars(target);
}

const out = {
  unicodeVersion: version,
  date,
  source: `https://www.unicode.org/Public/security/${version}/confusables.txt`,
  sha256: createHash('sha256').update(text).digest('hex'),
  license: 'Unicode data, https://www.unicode.org/terms_of_use.html',
  prototypes: map,
};
const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'confusables.json');
writeFileSync(file, `${JSON.stringify(out)}\n`);
console.log(`${file}: Unicode ${version}, ${Object.keys(map).length} characters`);
