import { callSite, checkQueryLog, indexServes, newProblems, problemKeys, unserved } from './index-check';
import type { IndexRecord, QueryLogRecord } from './recorder';
import { commandShapes, filterBranches, shapeKey } from './shape';

const index = (collection: string, key: Record<string, unknown>, extra: Partial<IndexRecord> = {}): IndexRecord => ({
  kind: 'index',
  collection,
  key,
  ...extra,
});

describe('query shapes from the driver\'s commands', () => {
  it('tells equality, range and unindexable conditions apart, and multiplies $or branches', () => {
    expect(filterBranches({ status: 'pending', remindAt: { $lte: new Date() }, email: { $ne: 'x' } })).toEqual([
      { eq: ['status'], range: ['remindAt'], other: ['email'] },
    ]);
    expect(filterBranches({ id: { $in: [1, 2] }, name: /^abc/, note: /abc/ })).toEqual([
      { eq: ['id'], range: ['name'], other: ['note'] },
    ]);
    expect(filterBranches({ integrationId: 3, $or: [{ email: 'a' }, { phone: 'b' }] })).toEqual([
      { eq: ['email', 'integrationId'], range: [], other: [] },
      { eq: ['integrationId', 'phone'], range: [], other: [] },
    ]);
  });

  it('reads find, update, delete, count, findAndModify and a leading $match with its $sort', () => {
    const [find] = commandShapes('db', { find: 'contacts', filter: { status: 'sent' }, sort: { createdAt: -1 }, limit: 25 });
    expect(find).toMatchObject({ collection: 'contacts', sort: [['createdAt', -1]], limited: true, whole: false });
    const updates = commandShapes('db', { update: 'contacts', updates: [{ q: { id: 1 }, u: {} }, { q: { status: 'x' }, u: {}, multi: true }] });
    expect(updates.map((s) => s.limited)).toEqual([true, false]);
    expect(commandShapes('db', { count: 'contacts', query: {} })).toEqual([]);
    expect(commandShapes('db', { insert: 'contacts', documents: [] })).toEqual([]);
    // As the driver's command monitoring reports it: the sort as a Map.
    const [mapped] = commandShapes('db', { find: 'contacts', filter: { status: 'sent' }, sort: new Map([['createdAt', -1]]) });
    expect(mapped.sort).toEqual([['createdAt', -1]]);
    const [agg] = commandShapes('db', { aggregate: 'logs', pipeline: [{ $match: { day: 'd' } }, { $sort: { at: 1 } }, { $limit: 5 }] });
    expect(agg).toMatchObject({ branches: [{ eq: ['day'] }], sort: [['at', 1]], limited: true });
    expect(shapeKey(find)).toBe(shapeKey(commandShapes('other', { find: 'contacts', filter: { status: 'x' }, sort: { createdAt: -1 }, limit: 5 })[0]));
  });
});

describe('an index serves a query as the planner would use it: equality, then sort, then range', () => {
  const branch = { eq: ['status'], range: ['remindAt'], other: [] };
  it('serves equality then range, and a sort that follows the equality fields in either direction', () => {
    expect(indexServes(index('c', { status: 1, remindAt: 1 }), branch, [])).toBe(true);
    expect(indexServes(index('c', { status: 1, createdAt: -1 }), branch, [['createdAt', -1]])).toBe(true);
    expect(indexServes(index('c', { status: 1, createdAt: -1 }), branch, [['createdAt', 1]])).toBe(true);
  });
  it('does not serve when the leading field is unconstrained or the sort is not in index order', () => {
    expect(indexServes(index('c', { integrationId: 1, status: 1 }), branch, [])).toBe(false);
    expect(indexServes(index('c', { status: 1, remindAt: 1 }), branch, [['createdAt', -1]])).toBe(false);
    expect(indexServes(index('c', { status: 1, a: 1, b: 1 }), branch, [['a', 1], ['b', 1]])).toBe(true);
    expect(indexServes(index('c', { status: 1, a: 1, b: 1 }), branch, [['a', 1], ['b', -1]])).toBe(false);
  });
  it('uses a partial index only when the query pins its condition', () => {
    const partial = index('c', { status: 1 }, { partialFilterExpression: { sendPending: true } });
    expect(indexServes(partial, branch, [])).toBe(false);
    expect(indexServes(partial, { ...branch, eq: ['sendPending', 'status'] }, [])).toBe(true);
  });
  it('a whole-collection read is a problem unless a limit stops it; an _id lookup needs no declared index', () => {
    const [whole] = commandShapes('db', { find: 'contacts', filter: {} });
    expect(unserved(whole, [])).toBe('reads the whole collection');
    const [page] = commandShapes('db', { find: 'contacts', filter: {}, limit: 200 });
    expect(unserved(page, [])).toBeNull();
    const [byId] = commandShapes('db', { find: 'contacts', filter: { _id: 'x' } });
    expect(unserved(byId, [])).toBeNull();
  });
});

describe('the check over a run\'s records', () => {
  it('names each unserved shape on a growing collection with its callers, and skips small fixed collections', () => {
    const q = (command: Record<string, unknown>, caller: string): QueryLogRecord[] =>
      commandShapes('db', command).map((shape) => ({ kind: 'query', shape, key: shapeKey(shape), caller }));
    const records: QueryLogRecord[] = [
      index('contacts', { status: 1, remindAt: 1 }),
      ...q({ find: 'contacts', filter: { status: 'pending', remindAt: { $lte: 1 } } }, 'sweep (svc-email/src/a.ts:1:1)'),
      ...q({ find: 'contacts', filter: { email: 'a@b.c' } }, 'byEmail (svc-email/src/b.ts:2:2)'),
      ...q({ find: 'contacts', filter: { email: 'x@b.c' } }, 'byEmail (svc-email/src/c.ts:3:3)'),
      ...q({ find: 'settings', filter: { key: 'x' } }, 'settings (svc-email/src/d.ts:4:4)'),
    ];
    const { problems, shapes } = checkQueryLog(records);
    expect(shapes).toBe(3);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ collection: 'contacts', reason: expect.stringContaining('email') });
    expect(problems[0].callers).toEqual(['byEmail (svc-email/src/b.ts:2:2)', 'byEmail (svc-email/src/c.ts:3:3)']);
  });

  it("leaves out the MongoDB stand-in's own indexes: production must serve every query without them", () => {
    const shape = commandShapes('db', { update: 'steps', updates: [{ q: { contact_ref: 1, lease_id: 'x' }, u: {} }] })[0]!;
    const records = (extra: IndexRecord[]): QueryLogRecord[] => [...extra, { kind: 'query', shape, key: shapeKey(shape), caller: 'release (a.ts:1:1)' }];
    const standIn = index('steps', { lease_id: 1, contact_ref: 1 }, { name: 'standin_flow_lease' });
    expect(checkQueryLog(records([standIn])).problems).toHaveLength(1);
    expect(checkQueryLog(records([standIn, index('steps', { contact_ref: 1 }, { name: 'contact_ref_1' })])).problems).toHaveLength(0);
  });
});

describe('the list of known unserved queries', () => {
  const problem = {
    collection: 'contacts',
    query: 'contacts find [email||] sort()',
    reason: 'no declared index',
    callers: ['async readList (packages/service-kit/src/list.ts:97:21) < async ContactsService.list (svc-email/src/contacts/service.ts:40:5) < async x (y.ts:1:1)'],
  };
  it('keys a problem by collection, command and its first two frames without line numbers', () => {
    expect(callSite(problem.callers[0])).toBe('readList (packages/service-kit/src/list.ts) < ContactsService.list (svc-email/src/contacts/service.ts)');
    expect(problemKeys(problem)).toEqual(['contacts find @ readList (packages/service-kit/src/list.ts) < ContactsService.list (svc-email/src/contacts/service.ts)']);
  });
  it('a known call site passes; the same query from a new call site is new', () => {
    const known = new Set(problemKeys(problem));
    expect(newProblems([problem], known)).toEqual([]);
    const moved = { ...problem, callers: [...problem.callers, 'async readList (packages/service-kit/src/list.ts:97:21) < async Other.list (svc-sms/src/a.ts:3:3)'] };
    expect(newProblems([moved], known)).toEqual([moved]);
  });
});
