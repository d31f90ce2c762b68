/**
 * The contacts list against a brute-force expectation, on two instances sharing one database, each reading MongoDB
 * through the model's indexes (no instance keeps a copy). Every page of every sort, direction and filter must equal
 * the spec's order computed here from the raw documents, and a write made anywhere must show on A's next read.
 */
import { MongoClient, type Db, type Document } from 'mongodb';
import { contactCreated, dropDb, sleep, startEmail, waitFor, MONGODB_URI, HOOK_TIMEOUT_MS, type EmailUnderTest } from '../test/helpers';

let a: EmailUnderTest;
let b: EmailUnderTest;
let client: MongoClient;
let db: Db;
let fast: { id: number };
let slow: { id: number };

type Row = { id: number; contact_id: string; email: string; status: string; created_at: string; remind_at: string; purchased_at: string | null; integration_id: number | null };

const FIELDS = ['id', 'contact_id', 'email', 'created_at', 'remind_at', 'purchased_at', 'status', 'integration_id'] as const;
const NULLABLE = new Set(['purchased_at', 'integration_id']);

/** MongoDB's order of our field types: numbers and dates by value, strings by their UTF-8 bytes. */
function cmp(x: unknown, y: unknown): number {
  if (typeof x === 'string' && typeof y === 'string') return Buffer.compare(Buffer.from(x, 'utf8'), Buffer.from(y, 'utf8'));
  const nx = x instanceof Date ? x.getTime() : (x as number);
  const ny = y instanceof Date ? y.getTime() : (y as number);
  return nx < ny ? -1 : nx > ny ? 1 : 0;
}

/** The spec's table order: by the field, ties by _id in the same direction; nulls last, in the default order (newest first). */
function expected(docs: Document[], field: string, dir: 1 | -1): Document[] {
  const by = (f: string, d: number) => (p: Document, q: Document) => d * (cmp(p[f], q[f]) || cmp(p._id.toHexString(), q._id.toHexString()));
  const valued = docs.filter((d) => d[field] !== null && d[field] !== undefined).sort(by(field, dir));
  const nulls = docs.filter((d) => d[field] === null || d[field] === undefined).sort(by('created_at', -1));
  return valued.concat(nulls);
}

const page = async (svc: EmailUnderTest, query: string) => {
  const r = await svc.api('GET', `/api/contacts${query}`);
  expect(r.status).toBe(200);
  return { body: r.body, source: /desc="(\w+)"/.exec(r.headers.get('server-timing') ?? '')?.[1] };
};

beforeAll(async () => {
  a = await startEmail('listview');
  b = await startEmail('listview', { MONGODB_DB: a.db, NATS_PREFIX: a.prefix });
  client = await MongoClient.connect(MONGODB_URI);
  db = client.db(a.db);
  fast = (await a.api('POST', '/api/webhook-integrations', { body: { name: 'Fast', funnel_id: 'lv-fast', reminder_delay: 1 } })).body;
  slow = (await a.api('POST', '/api/webhook-integrations', { body: { name: 'Slow', funnel_id: 'lv-slow', reminder_delay: 600 } })).body;
  // A few hundred contacts through both instances: 'slow' ones stay pending, 'fast' ones get their reminder (sent).
  const posts: Promise<unknown>[] = [];
  for (let i = 0; i < 240; i++) {
    const svc = i % 2 ? a : b;
    const funnel = i % 5 === 0 ? 'lv-fast' : 'lv-slow';
    const email = `${['zoe', 'Adam', 'émile', 'bob', 'Zed', 'ann'][i % 6]}${i % 37}@example.com`;
    posts.push(svc.api('POST', '/api/webhook', { body: contactCreated(`c-${(i * 7919) % 1000}`, email, funnel), user: null }));
    if (i % 40 === 39) {
      await Promise.all(posts.splice(0));
      await sleep(2);
    }
  }
  await Promise.all(posts);
  for (const id of ['c-0', 'c-7', 'c-919', 'c-838']) await b.api('POST', '/api/webhook', { body: { event: 'purchase_created', funnel_id: 'lv-slow', contact: { id } }, user: null });
  // Written by another writer: no integration, equal created_at (ties broken by _id), strings where UTF-16 and UTF-8 orders differ.
  const at = new Date('2026-01-01T00:00:00Z');
  const raw = ['\u{1F600}x@example.com', '\uFFFDy@example.com', 'same@example.com', 'same@example.com'].map((email, i) => ({
    id: 900_000 + i,
    contact_id: `raw-${i}`,
    email,
    email_lower: email.toLowerCase(),
    phone: null,
    first_name: null,
    integration_id: null,
    created_at: at,
    remind_at: new Date('2027-01-01T00:00:00Z'),
    purchased_at: null,
    sent_at: null,
    status: 'pending',
  }));
  await db.collection('contacts').insertMany(raw);
  // Every 'fast' contact sent before the comparisons start.
  await waitFor(async () => (await db.collection('contacts').countDocuments({ integration_id: fast.id, status: 'pending' })) === 0, { timeoutMs: 30_000, what: 'fast reminders sent' });
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await client?.close();
  await b?.svc.stop();
  await a?.svc.stop();
  if (a) await dropDb(a.db);
});

describe('contacts list: both instances agree with the brute-force order', () => {
  it('every sort, direction, filter and page', async () => {
    const docs = await db.collection('contacts').find({}).toArray();
    expect(docs.length).toBeGreaterThan(200);
    const filters: [string, (d: Document) => boolean][] = [
      ['', () => true],
      ['&status=sent', (d) => d.status === 'sent'],
      ['&status=purchased', (d) => d.status === 'purchased'],
      [`&integration_id=${slow.id}`, (d) => d.integration_id === slow.id],
      ['&integration_id=none', (d) => d.integration_id === null],
      [`&status=pending&integration_id=${slow.id}`, (d) => d.status === 'pending' && d.integration_id === slow.id],
    ];
    let compared = 0;
    for (const field of FIELDS) {
      for (const dir of [1, -1] as const) {
        for (const [fq, pick] of filters) {
          const want = expected(docs.filter(pick), field, dir).map((d) => d.id as number);
          const sort = dir === 1 ? field : `-${field}`;
          const pages = [[1, 25], [4, 10], [2, 100]] as const;
          const answers = await Promise.all(pages.map(([p, size]) => `?page=${p}&pageSize=${size}&sort=${sort}${fq}`).map((q) => Promise.all([q, page(a, q), page(b, q)] as const)));
          for (const [i, [q, fromA, fromB]] of answers.entries()) {
            const [p, size] = pages[i]!;
            expect([q, fromA.source, fromB.source]).toEqual([q, 'mongodb', 'mongodb']);
            const slice = want.slice((p - 1) * size, p * size);
            expect([q, fromA.body.total]).toEqual([q, want.length]);
            expect(fromB.body.total).toBe(want.length);
            if (field !== 'email') expect([q, fromB.body.items.map((c: Row) => c.id)]).toEqual([q, slice]);
            expect(fromA.body.items).toEqual(fromB.body.items);
            compared++;
          }
          if (field === 'email') {
            // The stand-in orders strings by UTF-16 units, MongoDB by UTF-8 bytes: they differ on the two raw
            // rows only (U+1F600 against U+FFFD), so MongoDB's answer is checked without them.
            const q = `?page=1&pageSize=1000&sort=${sort}${fq}`;
            const odd = new Set([900_000, 900_001]);
            for (const svc of [a, b]) {
              const ids = ((await page(svc, q)).body.items as Row[]).map((c) => c.id).filter((id) => !odd.has(id));
              expect([q, ids]).toEqual([q, want.filter((id) => !odd.has(id))]);
            }
          }
        }
        if (NULLABLE.has(field)) {
          // nulls last in both directions
          const rows = (await page(a, `?page=1&pageSize=1000&sort=${dir === 1 ? field : `-${field}`}`)).body.items as Row[];
          const firstNull = rows.findIndex((r) => r[field as 'purchased_at'] === null);
          expect(firstNull).toBeGreaterThan(0);
          expect(rows.slice(firstNull).every((r) => r[field as 'purchased_at'] === null)).toBe(true);
        }
      }
    }
    expect(compared).toBe(FIELDS.length * 2 * filters.length * 3);
    // The whole list (no page) is the same list too.
    const [allA, allB] = await Promise.all([page(a, ''), page(b, '')]);
    expect(allA.body).toEqual(allB.body);
    expect(allA.body.map((c: Row) => c.id)).toEqual(expected(docs, 'created_at', -1).map((d) => d.id));
    // Equal emails keep the _id order (the stand-in and MongoDB agree there; they differ on U+1F600 against U+FFFD).
    const byEmail = ((await page(a, '?page=1&pageSize=1000&sort=email&integration_id=none')).body.items as Row[]).map((c) => c.contact_id);
    expect(byEmail.filter((c) => c === 'raw-2' || c === 'raw-3')).toEqual(['raw-2', 'raw-3']);
  }, 120_000);

  it("shows on A's next read what B wrote: a webhook, a mark-purchased, a cleared integration", async () => {
    const before = (await page(a, '?page=1&pageSize=10')).body.total as number;
    await b.api('POST', '/api/webhook', { body: contactCreated('late-1', 'late@example.com', 'lv-slow'), user: null });
    const afterHook = await page(a, '?page=1&pageSize=10');
    expect(afterHook.body.total).toBe(before + 1);
    expect(afterHook.body.items[0].contact_id).toBe('late-1');

    const target = afterHook.body.items[0] as Row;
    expect((await b.api('POST', '/api/contacts/mark-purchased', { body: { contact_id: target.id } })).status).toBe(200);
    const bought = await page(a, '?page=1&pageSize=250&status=purchased');
    expect(bought.body.items.map((c: Row) => c.id)).toContain(target.id);

    // A's own write shows on its next read.
    await a.api('POST', '/api/webhook', { body: contactCreated('late-2', 'late2@example.com', 'lv-slow'), user: null });
    const own = await page(a, '?page=1&pageSize=10');
    expect([own.source, own.body.items[0].contact_id, own.body.total]).toEqual(['mongodb', 'late-2', before + 2]);

    await b.api('POST', `/api/webhook-integrations/${fast.id}/clear-contacts`);
    const cleared = await page(a, `?page=1&pageSize=10&integration_id=${fast.id}`);
    expect(cleared.body.total).toBe(0);
    expect((await page(a, `?page=1&pageSize=10&integration_id=${fast.id}`)).body).toMatchObject({ total: 0, items: [] });
  });

  it('clear-data on one instance empties the list on the other', async () => {
    expect((await a.api('POST', '/api/test/clear-data')).status).toBe(200);
    expect((await page(b, '?page=1&pageSize=10')).body).toMatchObject({ total: 0, items: [] });
    await b.api('POST', '/api/webhook', { body: contactCreated('after-clear', 'ac@example.com', 'lv-slow'), user: null });
    expect((await page(a, '?page=1&pageSize=10')).body.items.map((c: Row) => c.contact_id)).toEqual(['after-clear']);
    expect((await page(a, '?page=1&pageSize=10')).body.items.map((c: Row) => c.contact_id)).toEqual(['after-clear']);
  });
});
