import type { Branch, QueryShape, SortKey } from './shape';
import type { IndexRecord, QueryLogRecord, ShapeRecord } from './recorder';
import { STANDIN_INDEX_PREFIX } from '../standin-indexes';

/**
 * Collections that stay small whatever the number of shoppers or sends (one document per setting, counter,
 * integration or campaign, or per staff user): a scan of them costs nothing, so their queries need no index.
 * Every other collection grows with shoppers or sends, and each of its query shapes must be served by an index.
 */
export const SMALL_FIXED_COLLECTIONS: ReadonlySet<string> = new Set([
  'counters',
  'settings',
  'webhook_integrations',
  'sms_integrations',
  'email_campaigns',
  'sms_campaigns',
  'email_templates',
  'sms_templates',
  'resend_config',
  'resend_rate',
  'revenue_settings',
  // One row per funnel id, the revenue summary's dictionary of funnels.
  'revenue_funnels',
  'sms_provider_config',
  'sms_send_pace',
  'sms_settings',
  'users',
]);

interface IndexKey {
  field: string;
  direction: unknown;
}

function keysOf(index: IndexRecord): IndexKey[] {
  return Object.entries(index.key).map(([field, direction]) => ({ field, direction }));
}

/** Whether a partial index's condition is implied by the branch (its fields are pinned or bounded by the query). */
function partialApplies(index: IndexRecord, branch: Branch): boolean {
  if (!index.partialFilterExpression) return true;
  const fields = Object.keys(index.partialFilterExpression).filter((k) => !k.startsWith('$'));
  return fields.every((f) => branch.eq.includes(f) || branch.range.includes(f));
}

/**
 * MongoDB's planner uses an index for a query when the index's leading field is constrained by it (or provides its
 * sort), and sorts without reading everything into memory when the sort's fields follow the equality fields in the
 * index, in order and all in the index's direction or all reversed: equality, then sort, then range.
 */
export function indexServes(index: IndexRecord, branch: Branch, sort: readonly SortKey[]): boolean {
  const keys = keysOf(index);
  if (keys.length === 0 || !partialApplies(index, branch)) return false;
  const eq = new Set(branch.eq);
  const constrained = new Set([...branch.eq, ...branch.range]);
  const sortFields = sort.map(([f]) => f).filter((f) => !eq.has(f));
  const leading = keys[0].field;
  if (!constrained.has(leading) && leading !== sortFields[0]) return false;
  if (sortFields.length === 0) return true;
  let i = 0;
  let orientation: 1 | -1 | 0 = 0;
  for (const [field, direction] of sort) {
    if (eq.has(field)) continue;
    while (i < keys.length && eq.has(keys[i].field)) i++;
    const key = keys[i];
    if (!key || key.field !== field || (key.direction !== 1 && key.direction !== -1)) return false;
    const same: 1 | -1 = key.direction === direction ? 1 : -1;
    if (orientation !== 0 && orientation !== same) return false;
    orientation = same;
    i++;
  }
  return true;
}

/** Why a shape is not served, or null when it is. */
export function unserved(shape: QueryShape, indexes: readonly IndexRecord[]): string | null {
  const own = indexes.filter((ix) => ix.collection === shape.collection);
  // Clearing a collection (the admin tools, tests) removes every row by intent; no index makes that smaller.
  if (shape.whole && shape.command === 'delete') return null;
  for (const branch of shape.branches) {
    if (branch.eq.includes('_id') && shape.sort.length === 0) continue;
    const constrained = branch.eq.length + branch.range.length > 0;
    if (!constrained && shape.sort.length === 0) {
      if (shape.limited) continue;
      return shape.whole ? 'reads the whole collection' : `filters only on ${branch.other.join(', ')}, which no index bound serves`;
    }
    const idIndex: IndexRecord = { kind: 'index', collection: shape.collection, key: { _id: 1 } };
    if ([idIndex, ...own].some((ix) => indexServes(ix, branch, shape.sort))) continue;
    const wanted = [...branch.eq, ...shape.sort.map(([f, d]) => `${f}:${d}`), ...branch.range].join(', ') || '(nothing)';
    return `no declared index serves equality/sort/range on ${wanted}`;
  }
  return null;
}

export interface IndexProblem {
  collection: string;
  query: string;
  reason: string;
  callers: string[];
}

/**
 * Every recorded query shape on a collection that can grow, checked against every index the services declared, less
 * the MongoDB stand-in's own (MONGO_STANDIN_INDEXES): production has none of them.
 */
export function checkQueryLog(
  records: readonly QueryLogRecord[],
  exempt: ReadonlySet<string> = SMALL_FIXED_COLLECTIONS,
): { problems: IndexProblem[]; shapes: number; indexes: number } {
  const indexes = records.filter((r): r is IndexRecord => r.kind === 'index' && !r.name?.startsWith(STANDIN_INDEX_PREFIX));
  const byKey = new Map<string, { shape: QueryShape; callers: Set<string> }>();
  for (const r of records.filter((x): x is ShapeRecord => x.kind === 'query')) {
    const entry = byKey.get(r.key) ?? { shape: r.shape, callers: new Set<string>() };
    if (r.caller) entry.callers.add(r.caller);
    byKey.set(r.key, entry);
  }
  const problems: IndexProblem[] = [];
  for (const [key, { shape, callers }] of byKey) {
    if (exempt.has(shape.collection) || shape.collection.startsWith('system.')) continue;
    const reason = unserved(shape, indexes);
    if (reason) problems.push({ collection: shape.collection, query: key, reason, callers: [...callers].sort() });
  }
  problems.sort((a, b) => a.query.localeCompare(b.query));
  return { problems, shapes: byKey.size, indexes: indexes.length };
}

/**
 * `fn (svc-email/src/x.ts:12:3) < g (...)` → `fn (svc-email/src/x.ts) < g (...)`: the first two frames, so a shared
 * helper (a list reader) is told apart by who called it, without line numbers, so edits above it do not move it.
 */
export function callSite(caller: string): string {
  return caller
    .split(' < ')
    .slice(0, 2)
    .map((frame) => frame.replace(/^async /, '').replace(/:\d+:\d+\)$/, ')'))
    .join(' < ');
}

/** The keys of a problem as the list of known ones records them: one per call site. */
export function problemKeys(p: IndexProblem): string[] {
  const sites = p.callers.length ? p.callers.map(callSite) : ['(no caller of ours)'];
  return [...new Set(sites)].map((site) => `${p.query.split(' [')[0]} @ ${site}`);
}

/**
 * Problems not in the list of known ones: a query added or moved to a new call site without an index fails the run,
 * while the list records the queries still to be given one.
 */
export function newProblems(problems: readonly IndexProblem[], known: ReadonlySet<string>): IndexProblem[] {
  return problems.filter((p) => problemKeys(p).some((k) => !known.has(k)));
}
