/**
 * The shape of a query as MongoDB's planner sees it: which fields a filter pins to one value (equality), which it
 * bounds (range), which it only tests in a way no index bound helps (other), and the sort. Values are dropped, so
 * every call of one query has one shape.
 */
export type SortKey = readonly [field: string, direction: 1 | -1];

export interface Branch {
  eq: string[];
  range: string[];
  other: string[];
}

export interface QueryShape {
  db: string;
  collection: string;
  command: string;
  /** One entry per alternative of a top-level `$or` (one entry when there is none). */
  branches: Branch[];
  sort: SortKey[];
  /** A limit was given (a page or a single document), so an unsorted read stops early. */
  limited: boolean;
  /** The filter is empty: every document is read unless a limit stops it. */
  whole: boolean;
}

const EQ_OPS = new Set(['$eq', '$in', '$elemMatch', '$all']);
const RANGE_OPS = new Set(['$gt', '$gte', '$lt', '$lte']);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

function isOperatorObject(v: unknown): v is Record<string, unknown> {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

/** A regular expression anchored at the start with a literal prefix is an index range; any other scans. */
function regexRole(v: unknown): 'range' | 'other' | null {
  const source =
    v instanceof RegExp ? v.source : isPlainObject(v) && typeof v.pattern === 'string' ? v.pattern : null;
  if (source === null) return null;
  return /^\^[\w@.-]/.test(source) ? 'range' : 'other';
}

function fieldRole(value: unknown): keyof Branch {
  const regex = regexRole(value);
  if (regex) return regex;
  if (!isOperatorObject(value)) return 'eq';
  const ops = Object.keys(value);
  if (ops.some((op) => EQ_OPS.has(op))) return 'eq';
  if ('$regex' in value) return regexRole({ pattern: String(value.$regex) }) ?? 'other';
  if (ops.some((op) => RANGE_OPS.has(op))) return 'range';
  if (value.$exists === true) return 'range';
  return 'other';
}

function merge(a: Branch, b: Branch): Branch {
  return { eq: [...a.eq, ...b.eq], range: [...a.range, ...b.range], other: [...a.other, ...b.other] };
}

/** Branches of a filter: a top-level `$or` (also inside `$and`) multiplies them; the rest is one conjunction. */
export function filterBranches(filter: unknown): Branch[] {
  let branches: Branch[] = [{ eq: [], range: [], other: [] }];
  if (!isPlainObject(filter)) return branches;
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const part of value) {
        const sub = filterBranches(part);
        branches = branches.flatMap((b) => sub.map((s) => merge(b, s)));
      }
    } else if (key === '$or' && Array.isArray(value) && value.length > 0) {
      const alternatives = value.flatMap((part) => filterBranches(part));
      branches = branches.flatMap((b) => alternatives.map((s) => merge(b, s)));
    } else if (key.startsWith('$')) {
      // $nor, $expr, $where, $text, $comment: nothing an index bound is built from.
      if (key !== '$comment') branches = branches.map((b) => merge(b, { eq: [], range: [], other: [key] }));
    } else {
      const role = fieldRole(value);
      branches = branches.map((b) => ({ ...b, [role]: [...b[role], key] }));
    }
  }
  return branches.map((b) => ({ eq: unique(b.eq), range: unique(b.range), other: unique(b.other) }));
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)].sort();
}

function sortKeys(sort: unknown): SortKey[] {
  // The driver hands a sort over as a Map (its order is the sort's).
  const entries = sort instanceof Map ? [...sort.entries()] : isPlainObject(sort) ? Object.entries(sort) : [];
  return entries
    .filter(([, d]) => d === 1 || d === -1)
    .map(([f, d]) => [f, d as 1 | -1] as const);
}

function isEmptyFilter(filter: unknown): boolean {
  return !isPlainObject(filter) || Object.keys(filter).filter((k) => k !== '$comment').length === 0;
}

function shapeOf(
  db: string,
  collection: string,
  command: string,
  filter: unknown,
  sort: unknown,
  limit: unknown,
): QueryShape {
  return {
    db,
    collection,
    command,
    branches: filterBranches(filter),
    sort: sortKeys(sort),
    limited: typeof limit === 'number' && limit > 0,
    whole: isEmptyFilter(filter),
  };
}

/**
 * The query shapes of one command as the driver's command monitoring reports it (`commandStarted`: the database
 * name and the command document). Commands that read or write by filter give one shape per filter; the rest
 * (inserts, index builds, admin commands, cursors' next batches) give none.
 */
export function commandShapes(db: string, command: Record<string, unknown>): QueryShape[] {
  const name = Object.keys(command)[0];
  const collection = command[name];
  if (typeof collection !== 'string') return [];
  switch (name) {
    case 'find':
      return [shapeOf(db, collection, name, command.filter, command.sort, command.limit ?? (command.singleBatch ? 1 : undefined))];
    case 'count':
      // A count of the whole collection is answered from its metadata.
      return isEmptyFilter(command.query) ? [] : [shapeOf(db, collection, name, command.query, undefined, command.limit)];
    case 'distinct':
      return [shapeOf(db, collection, name, command.query, undefined, undefined)];
    case 'findAndModify':
      return [shapeOf(db, collection, name, command.query, command.sort, 1)];
    case 'update':
      return asArray(command.updates).map((u) => shapeOf(db, collection, name, u.q, undefined, u.multi ? undefined : 1));
    case 'delete':
      return asArray(command.deletes).map((d) => shapeOf(db, collection, name, d.q, undefined, d.limit === 1 ? 1 : undefined));
    case 'aggregate':
      return aggregateShape(db, collection, command.pipeline);
    default:
      return [];
  }
}

function asArray(v: unknown): Array<Record<string, unknown>> {
  return Array.isArray(v) ? v.filter(isPlainObject) : [];
}

/** A pipeline is served by an index through its leading `$match` and the `$sort` right after it. */
function aggregateShape(db: string, collection: string, pipeline: unknown): QueryShape[] {
  const stages = asArray(pipeline);
  if (stages.length === 0) return [];
  const first = stages[0];
  // $collStats, $indexStats, $currentOp and the like read no documents.
  if (Object.keys(first).some((k) => ['$collStats', '$indexStats', '$currentOp', '$listSessions'].includes(k))) return [];
  const match = '$match' in first ? first.$match : {};
  const afterMatch = '$match' in first ? stages[1] : first;
  const sort = afterMatch && '$sort' in afterMatch ? afterMatch.$sort : undefined;
  const next = stages[('$match' in first ? 1 : 0) + (sort ? 1 : 0)];
  const limit = next && '$limit' in next ? next.$limit : undefined;
  return [shapeOf(db, collection, 'aggregate', match, sort, limit)];
}

/** One key per distinct shape (database names differ per test run; collections and fields do not). */
export function shapeKey(shape: QueryShape): string {
  const branches = shape.branches.map((b) => `${b.eq.join(',')}|${b.range.join(',')}|${b.other.join(',')}`).sort();
  const sort = shape.sort.map(([f, d]) => `${f}:${d}`).join(',');
  return `${shape.collection} ${shape.command} [${branches.join(' OR ')}] sort(${sort}) ${shape.limited ? 'limited' : ''}`;
}
