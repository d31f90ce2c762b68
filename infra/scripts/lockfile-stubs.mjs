// `npm ci` refuses a lockfile that lacks any optional dependency of a package, and the npm registry this
// project reaches does not serve some platform builds (@swc/core-darwin-arm64, @unrs/resolver-binding-win32-*...),
// so `npm install` leaves them out and a clean `npm ci` fails with "Missing: ... from lock file".
// This adds an entry (version, os, cpu) for each such package that is built for another platform: npm then
// skips it by platform, exactly as it skips foreign builds in a complete lockfile. A missing package for
// this platform is left alone, so a real gap still fails. Run before `npm ci` (.ci/run, Dockerfiles).
// Usage: node infra/scripts/lockfile-stubs.mjs [path/to/package-lock.json]
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const OS = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openharmony', 'netbsd', 'openbsd', 'sunos', 'aix'];
const CPU = ['arm64', 'x64', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'arm', 'mips64el'];

/** Reads os/cpu/libc from names like @swc/core-linux-arm64-musl; null when the name does not say. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = OS.find((o) => parts.includes(o));
  const cpu = CPU.find((c) => parts.includes(c));
  if (!os || !cpu) return null;
  const libc = parts.some((p) => p.startsWith('musl')) ? 'musl' : os === 'linux' ? 'glibc' : undefined;
  return { os, cpu, libc };
}

const here = {
  os: process.platform,
  cpu: process.arch,
  libc:
    process.platform === 'linux'
      ? process.report.getReport().header.glibcVersionRuntime
        ? 'glibc'
        : 'musl'
      : undefined,
};

// Standalone on purpose: the Dockerfiles copy this one file next to the manifests before `npm ci`.
const file = path.resolve(process.argv[2] ?? fileURLToPath(new URL('../../package-lock.json', import.meta.url)));
const lock = JSON.parse(readFileSync(file, 'utf8'));
const added = [];
for (const entry of Object.values(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    const platform = platformOf(name);
    if (lock.packages[key] || !platform) continue;
    if (platform.os === here.os && platform.cpu === here.cpu && platform.libc === here.libc) continue;
    lock.packages[key] = {
      version,
      ...(entry.dev && { dev: true }),
      optional: true,
      os: [platform.os],
      cpu: [platform.cpu],
      ...(platform.libc && platform.os === 'linux' && { libc: [platform.libc] }),
    };
    added.push(`${name}@${version}`);
  }
}
if (added.length) {
  writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
  console.log(`[lockfile] added ${added.length} entries for other platforms' builds the registry lacks`);
}
