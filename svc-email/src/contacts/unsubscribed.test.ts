// Email contacts show that their address is on the unsubscribe list, whenever it got there (before the contact came
// in, after it, after its purchase; through the public page or the admin list), stop showing it when the entry is
// removed, and the status filter finds them (purchased first, then unsubscribed, then the lifecycle status).
// Contacts stored without the flag get it when an instance starts.
import { MongoClient } from 'mongodb';
import { contactCreated, dropDb, MONGODB_URI, startEmail, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

let email: EmailUnderTest;
let client: MongoClient;

type Row = { id: number; contact_id: string; status: string; unsubscribed: boolean };
const list = async (query = '') => {
  const r = await email.api('GET', `/api/contacts${query}`);
  expect(r.status).toBe(200);
  return r.body;
};
const byRef = async () => new Map(((await list()) as Row[]).map((c) => [c.contact_id, c]));
const refs = (rows: Row[]) => rows.map((c) => c.contact_id).sort();

beforeAll(async () => {
  client = await MongoClient.connect(MONGODB_URI);
  email = await startEmail('unsubscribed');
  expect((await email.api('POST', '/api/webhook-integrations', { body: { name: 'U', funnel_id: 'fu', reminder_delay: 600 } })).status).toBe(201);
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await client?.close();
  await email?.svc.stop();
  if (email) await dropDb(email.db);
});

it('flags a contact whose address was on the list before it came in, or got there after, and the filter finds them', async () => {
  expect((await email.api('POST', '/api/email-unsubscribes/quick-add', { body: { email: 'Early@Example.com' } })).status).toBe(201);
  for (const [ref, address] of [['c-early', 'early@example.com'], ['c-late', 'Late@example.com'], ['c-other', 'other@example.com'], ['c-bought', 'bought@example.com']]) {
    expect((await email.api('POST', '/api/webhook', { body: contactCreated(ref, address, 'fu'), user: null })).status).toBe(200);
  }
  let rows = await byRef();
  expect([...rows.values()].map((c) => [c.contact_id, c.unsubscribed]).sort()).toEqual([['c-bought', false], ['c-early', true], ['c-late', false], ['c-other', false]]);

  // After it came in: through the public page (any case), and for one who then bought.
  expect((await email.api('POST', '/api/unsubscribe', { body: { email: 'LATE@example.com' }, user: null })).status).toBe(200);
  expect((await email.api('POST', '/api/contacts/mark-purchased', { body: { contact_id: 'c-bought' } })).status).toBe(200);
  expect((await email.api('POST', '/api/email-unsubscribes/quick-add', { body: { email: 'bought@example.com' } })).status).toBe(201);
  rows = await byRef();
  expect(rows.get('c-late')).toMatchObject({ status: 'pending', unsubscribed: true });
  expect(rows.get('c-bought')).toMatchObject({ status: 'purchased', unsubscribed: true });
  expect(rows.get('c-other')).toMatchObject({ status: 'pending', unsubscribed: false });

  // The filter by the status a screen shows: each contact in exactly one.
  expect(refs(await list('?status=unsubscribed'))).toEqual(['c-early', 'c-late']);
  expect(refs(await list('?status=pending'))).toEqual(['c-other']);
  expect(refs(await list('?status=purchased'))).toEqual(['c-bought']);
  const page = await list('?status=unsubscribed&page=1&pageSize=1&sort=contact_id');
  expect(page).toMatchObject({ total: 2, items: [{ contact_id: 'c-early', unsubscribed: true }] });
});

it('stops showing it once the entry is removed from the list', async () => {
  const entries = (await email.api('GET', '/api/direct-unsubscribes')).body as { id: number; email: string }[];
  const late = entries.find((e) => e.email === 'late@example.com')!;
  expect((await email.api('POST', '/api/email-unsubscribes/remove', { body: { id: late.id } })).status).toBe(200);
  expect((await byRef()).get('c-late')).toMatchObject({ unsubscribed: false });
  expect(refs(await list('?status=unsubscribed'))).toEqual(['c-early']);
  expect(refs(await list('?status=pending'))).toEqual(['c-late', 'c-other']);
});

it('an instance starting flags contacts stored without the flag', async () => {
  const db = client.db(email.db);
  const at = new Date();
  await db.collection('contacts').insertOne({ id: 990_001, contact_id: 'c-stored', email: 'Early@example.com', email_lower: 'early@example.com', phone: null, first_name: null, integration_id: null, created_at: at, remind_at: new Date(at.getTime() + 3_600_000), purchased_at: null, sent_at: null, status: 'pending' });
  expect((await byRef()).get('c-stored')).toMatchObject({ unsubscribed: false });
  const second = await startEmail('unsubscribed', { MONGODB_DB: email.db, NATS_PREFIX: email.prefix });
  try {
    const deadline = Date.now() + 15_000;
    while (!(await byRef()).get('c-stored')?.unsubscribed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect((await byRef()).get('c-stored')).toMatchObject({ unsubscribed: true });
  } finally {
    await second.svc.stop();
  }
}, HOOK_TIMEOUT_MS);
