// The repository root and its workspace folders, for the ESM scripts and jest's CommonJS config alike.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../../..');

/** Workspace folders relative to the root, expanded from the root package.json (`packages/*` included). */
function workspaces() {
  const { workspaces: patterns } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    return fs
      .readdirSync(path.join(ROOT, parent), { withFileTypes: true })
      .filter((d) => d.isDirectory() && fs.existsSync(path.join(ROOT, parent, d.name, 'package.json')))
      .map((d) => `${parent}/${d.name}`);
  });
}

module.exports = { ROOT, workspaces };
