/**
 * Every page of the three frontends writes dates and money through this folder's formatter: no source of the shell,
 * either remote or the ui-kit formats a date or an amount by itself (the browser's toLocale* methods, an Intl
 * formatter, or toFixed on anything but a percentage).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');
const SOURCES = ['shell/src', 'mfe-email/src', 'mfe-sms/src', 'packages/ui-kit/src'];
const FORMATTER = path.join(ROOT, 'packages/ui-kit/src/format');

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      if (file !== FORMATTER && name !== 'node_modules') yield* sourceFiles(file);
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) yield file;
  }
}

const OWN_FORMATTING = /\.toLocale(String|DateString|TimeString)\(|\bIntl\.(NumberFormat|DateTimeFormat|RelativeTimeFormat)\b/;

it('no page formats a date or an amount outside the shared formatter', () => {
  const found: string[] = [];
  let files = 0;
  for (const dir of SOURCES)
    for (const file of sourceFiles(path.join(ROOT, dir))) {
      files++;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          // A percentage may be rounded by hand ("12.5%"); an amount never is.
          if (OWN_FORMATTING.test(line) || (/\.toFixed\(/.test(line) && !line.includes('%')))
            found.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
        });
    }
  expect(files).toBeGreaterThan(100);
  expect(found).toEqual([]);
});
