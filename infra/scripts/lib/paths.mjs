// Where things are, resolved from this file so scripts work from any cwd (a workspace's `npm test` runs there).
import path from 'node:path';
import shared from './workspaces.cjs';

export const { ROOT, workspaces } = shared;
export const RUN_DIR = path.join(ROOT, '.run');
