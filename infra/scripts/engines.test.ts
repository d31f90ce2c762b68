// Every installed package accepts the oldest Node the root `engines` allows: `npm ci` then prints no EBADENGINE,
// and nothing in the tree needs a Node the deployment may not have.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';

const ROOT = path.resolve(__dirname, '../..');

interface LockEntry {
  version?: string;
  engines?: { node?: string } | string[];
}

/** `path@version wants node <range>` for each entry of the lockfile whose engines refuse `node`. */
export function packagesRefusing(lock: { packages: Record<string, LockEntry> }, node: string): string[] {
  return Object.entries(lock.packages)
    .filter(([where]) => where !== '')
    .flatMap(([where, entry]) => {
      const range = !entry.engines || Array.isArray(entry.engines) ? undefined : entry.engines.node;
      if (!range || semver.satisfies(node, range, { includePrerelease: true })) return [];
      return [`${where.replace(/^.*node_modules\//, '')}@${entry.version} (${where}) wants node ${range}`];
    });
}

describe('package-lock.json against the root engines', () => {
  const root = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const oldest = semver.minVersion(root.engines.node)!.version;

  it('every package accepts the oldest Node the root engines allow', () => {
    expect(oldest).toBe('20.19.0');
    expect(packagesRefusing(lock, oldest)).toEqual([]);
  });

  it('names a package that wants a newer Node (positive control)', () => {
    const planted = {
      packages: {
        '': { engines: { node: root.engines.node } },
        'node_modules/fine': { version: '1.0.0', engines: { node: '>=18' } },
        'node_modules/a/node_modules/too-new': { version: '2.0.0', engines: { node: '>=22' } },
      },
    };
    expect(packagesRefusing(planted, oldest)).toEqual(['too-new@2.0.0 (node_modules/a/node_modules/too-new) wants node >=22']);
  });
});
