import type { NatsConnection, Subscription } from 'nats';
import { contactCreated, dropDb, natsConnect, sleep, startEmail, waitFor, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

let email: EmailUnderTest;
let nc: NatsConnection;
let sub: Subscription;
const purchases: Record<string, unknown>[] = [];

beforeAll(async () => {
  email = await startEmail('contacts');
  nc = await natsConnect();
  sub = nc.subscribe(`${email.prefix}funnel.purchase.created`);
  void (async () => {
    for await (const m of sub) purchases.push(JSON.parse(m.string()));
  })();
  await email.api('POST', '/api/webhook-integrations', { body: { name: 'A', funnel_id: 'fa', reminder_delay: 600 } });
  for (let i = 1; i <= 12; i++) {
    await email.api('POST', '/api/webhook', { body: contactCreated(`k-${String(i).padStart(2, '0')}`, `k${i}@example.com`, i % 2 ? 'fa' : undefined), user: null });
    await sleep(3);
  }
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  sub?.unsubscribe();
  await nc?.close();
  await email?.svc.stop();
  if (email) await dropDb(email.db);
});

type Row = { id: number; contact_id: string; status: string; created_at: string; purchased_at: string | null; integration_id: number | null };
const list = async (query = '') => (await email.api('GET', `/api/contacts${query}`)).body;

describe('GET /api/contacts', () => {
  it('returns every contact, newest first, in the spec\'s shape', async () => {
    const all = (await list()) as Row[];
    expect(all).toHaveLength(12);
    expect(all[0]!.contact_id).toBe('k-12');
    expect(Object.keys(all[0]!).sort()).toEqual(['cart', 'contact_id', 'created_at', 'email', 'id', 'integration_id', 'purchased_at', 'remind_at', 'reminders_held', 'simulated', 'status', 'test', 'unsubscribed']);
  });

  it('pages, sorts and filters on request', async () => {
    const page = await list('?page=2&pageSize=5&sort=contact_id');
    expect(page).toMatchObject({ total: 12, page: 2, pageSize: 5 });
    expect(page.items.map((c: Row) => c.contact_id)).toEqual(['k-06', 'k-07', 'k-08', 'k-09', 'k-10']);
    const desc = await list('?page=1&pageSize=3&sort=contact_id:desc');
    expect(desc.items.map((c: Row) => c.contact_id)).toEqual(['k-12', 'k-11', 'k-10']);
    const integ = ((await email.api('GET', '/api/webhook-integrations')).body as { id: number; funnel_id: string }[]).find((i) => i.funnel_id === 'fa')!;
    const inA = (await list(`?integration_id=${integ.id}`)) as Row[];
    expect(inA).toHaveLength(6);
    expect((await list('?integration_id=none')) as Row[]).toHaveLength(0);
    expect(await list('?status=purchased')).toEqual([]);
  });

  it('refuses bad query values with 400', async () => {
    for (const q of ['?page=0', '?page=x', '?pageSize=100000', '?sort=password', '?status=gone', '?integration_id=-1', '?status=a&status=b']) {
      const r = await email.api('GET', `/api/contacts${q}`);
      expect([q, r.status, typeof r.body.error]).toEqual([q, 400, 'string']);
    }
    // Bracket syntax is not parsed into objects (Koa's querystring): an operator cannot reach the query.
    const r = await email.api('GET', '/api/contacts?status[$ne]=x');
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(12);
  });
});

describe('POST /api/contacts/mark-purchased', () => {
  it('accepts the funnel contact_id string, answers the contact, publishes the purchase', async () => {
    const r = await email.api('POST', '/api/contacts/mark-purchased', { body: { contact_id: 'k-03' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, contact: { contact_id: 'k-03', status: 'purchased' } });
    expect(r.body.contact.purchased_at).toEqual(expect.any(String));
    const ev = await waitFor(async () => purchases.find((p) => p.contactId === 'k-03'));
    expect(ev).toMatchObject({ source: 'svc-email', funnelId: 'fa', email: 'k3@example.com' });
  });

  it('accepts the numeric id, is idempotent, sorts purchased_at with nulls last', async () => {
    const target = ((await list()) as Row[]).find((c) => c.contact_id === 'k-08')!;
    const r = await email.api('POST', '/api/contacts/mark-purchased', { body: { contact_id: target.id } });
    expect(r.body.contact).toMatchObject({ id: target.id, status: 'purchased' });
    const again = await email.api('POST', '/api/contacts/mark-purchased', { body: { contact_id: target.id } });
    expect(again.status).toBe(200);
    expect(again.body.contact.purchased_at).toBe(r.body.contact.purchased_at);
    for (const sort of ['purchased_at', '-purchased_at']) {
      const rows = (await list(`?page=1&pageSize=20&sort=${sort}`)).items as Row[];
      expect(rows.slice(0, 2).every((c) => c.purchased_at !== null)).toBe(true);
      expect(rows.slice(2).every((c) => c.purchased_at === null)).toBe(true);
    }
    const page2 = (await list('?page=2&pageSize=1&sort=purchased_at')).items as Row[];
    expect(page2[0]!.purchased_at).not.toBeNull();
    expect(((await list('?page=3&pageSize=1&sort=purchased_at')).items as Row[])[0]!.purchased_at).toBeNull();
  });

  it('404 for an unknown contact, 400 for a bad body', async () => {
    expect(await email.api('POST', '/api/contacts/mark-purchased', { body: { contact_id: 'nope' } })).toMatchObject({ status: 404, body: { error: 'Contact not found' } });
    expect(await email.api('POST', '/api/contacts/mark-purchased', { body: { contact_id: 424242 } })).toMatchObject({ status: 404 });
    for (const body of [{}, { contact_id: { $ne: null } }, { contact_id: '' }, { contact_id: -4 }, { contact_id: true }]) {
      const r = await email.api('POST', '/api/contacts/mark-purchased', { body });
      expect([body, r.status]).toEqual([body, 400]);
    }
    expect(await email.api('POST', '/api/contacts/mark-purchased', { raw: 'nope' })).toMatchObject({ status: 400, body: { error: 'Invalid JSON body' } });
  });

  it('needs a signed-in user', async () => {
    expect(await email.api('POST', '/api/contacts/mark-purchased', { body: { contact_id: 'k-01' }, user: null })).toMatchObject({ status: 401 });
    expect(await email.api('GET', '/api/contacts', { user: null })).toMatchObject({ status: 401 });
  });
});

describe('POST /api/test/clear-data', () => {
  it('removes contacts, email logs and webhook events', async () => {
    const r = await email.api('POST', '/api/test/clear-data');
    expect(r).toMatchObject({ status: 200, body: { success: true, message: expect.any(String) } });
    expect(await list()).toEqual([]);
    expect((await email.api('GET', '/api/webhook-events')).body).toEqual([]);
    expect((await email.api('GET', '/api/email-logs')).body).toEqual([]);
    // Integrations stay.
    expect(((await email.api('GET', '/api/webhook-integrations')).body as unknown[]).length).toBe(2);
  });
});
