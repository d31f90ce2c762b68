// npm test's guard against tests vanishing: the folders infra/jest/projects.cjs requires hold test files today, and a
// folder renamed away (its files no longer matched) is named.
import { readdirSync } from 'node:fs';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { missingTestFolders, requiredTestFolders } = require('../jest/projects.cjs') as {
  requiredTestFolders(kind: string, only?: string): { workspace: string; dir: string; suffix: string }[];
  missingTestFolders(kind: string, only: string | undefined, files: string[]): { workspace: string; dir: string; suffix: string }[];
};

const ROOT = path.resolve(__dirname, '../..');

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.name === 'node_modules' || d.name === 'dist' ? [] : d.isDirectory() ? filesUnder(path.join(dir, d.name)) : [path.join(dir, d.name)],
    );
  } catch {
    return [];
  }
}

describe('required test folders', () => {
  const files = filesUnder(ROOT).filter((f) => /\.test\.tsx?$/.test(f));

  it('every required folder holds a test file today', () => {
    expect(requiredTestFolders('unit').length).toBeGreaterThanOrEqual(15);
    expect(missingTestFolders('unit', undefined, files)).toEqual([]);
  });

  it('names a folder whose tests stopped matching (infra/k8s renamed, svc-sms tests moved out of src)', () => {
    const renamed = files
      .map((f) => f.replace(`${path.sep}infra${path.sep}k8s${path.sep}`, `${path.sep}infra${path.sep}kubernetes${path.sep}`))
      .filter((f) => !f.startsWith(path.join(ROOT, 'svc-sms', 'src') + path.sep));
    expect(missingTestFolders('unit', undefined, renamed)).toEqual([
      { workspace: 'svc-sms', dir: 'src', suffix: '.test.ts' },
      { workspace: 'infra', dir: 'k8s', suffix: '.test.ts' },
    ]);
    expect(missingTestFolders('unit', 'svc-email', renamed)).toEqual([]);
  });
});
