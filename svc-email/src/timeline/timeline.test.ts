import { MongoClient } from 'mongodb';
import type { TimelineEntry, TimelinePart } from '@act/contracts/src/timeline';
import { contactCreated, dropDb, HOOK_TIMEOUT_MS, MONGODB_URI, sleep, startEmail, waitFor, type EmailUnderTest } from '../test/helpers';

let email: EmailUnderTest;
let client: MongoClient;

beforeAll(async () => {
  email = await startEmail('timeline');
  client = await MongoClient.connect(MONGODB_URI);
  // One "minute" of delay lasts a second here (FAST_REMINDERS): the reminder is written while the test waits.
  await email.api('POST', '/api/webhook-integrations', { body: { name: 'Shop', funnel_id: 'shop', reminder_delay: 1 } });
  // Contacts whose own reminder stays far off, for stories made of rows written here.
  await email.api('POST', '/api/webhook-integrations', { body: { name: 'Slow', funnel_id: 'slow', reminder_delay: 600 } });
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await client?.close();
  await email?.svc.stop();
  if (email) await dropDb(email.db);
});

const part = async (query: string) => {
  const r = await email.api('GET', `/internal/timeline?${query}`);
  expect([query, r.status]).toEqual([query, 200]);
  return r.body as TimelinePart;
};
const contactIdOf = async (contactId: string) => {
  const all = (await email.api('GET', '/api/contacts')).body as { id: number; contact_id: string }[];
  return all.find((c) => c.contact_id === contactId)!.id;
};
const isNewestFirst = (entries: TimelineEntry[]) =>
  entries.every((e, i) => i === 0 || Date.parse(entries[i - 1]!.at) > Date.parse(e.at) || (entries[i - 1]!.at === e.at && entries[i - 1]!.key > e.key));

describe('GET /internal/timeline (the email side of a contact page)', () => {
  it('tells a person\'s story on this side: the delivery with its sender and verification, the reminder as written, the purchase with its reminder, the unsubscribe', async () => {
    expect((await email.api('POST', '/api/webhook', { body: contactCreated('ann-1', 'Ann@Example.com', 'shop', { phone: '+1 (555) 010-2000' }), user: null })).status).toBe(200);
    const id = await contactIdOf('ann-1');
    // The reminder comes due after a second and is only logged (live sending is off by default).
    await waitFor(async () => (await part(`contact=${id}`)).entries.some((e) => e.kind === 'message'), { timeoutMs: 20_000, what: 'the reminder' });
    await sleep(5);
    const purchase = await email.api('POST', '/api/webhook', {
      body: { event: 'purchase_created', funnel_id: 'shop', contact: { id: 'ann-1', email: 'ann@example.com' }, purchase: { amount: 149.5, currency: 'USD' } },
      user: null,
    });
    expect(purchase.status).toBe(200);
    // The ledger hears the purchase over NATS.
    await waitFor(async () => (await part(`contact=${id}`)).entries.some((e) => e.kind === 'purchase'), { timeoutMs: 20_000, what: 'the purchase in the ledger' });
    await sleep(5);
    expect((await email.api('POST', '/api/email-unsubscribes/quick-add', { body: { email: 'ANN@example.com' } })).status).toBe(201);
    // A stranger's delivery is not in Ann's story.
    await email.api('POST', '/api/webhook', { body: contactCreated('bob-1', 'bob@example.com', 'shop'), user: null });

    const body = await part(`contact=${id}`);
    expect(body.contact).toMatchObject({ side: 'email', id, contact_id: 'ann-1', email: 'Ann@Example.com', integration_name: 'Shop', funnel_id: 'shop', status: 'purchased' });
    expect(body.person.emails).toEqual(['ann@example.com']);
    expect(body.person.contact_ids).toEqual([{ funnel_id: 'shop', contact_id: 'ann-1' }]);
    expect(isNewestFirst(body.entries)).toBe(true);
    const kinds = body.entries.map((e) => `${e.kind}:${e.status}`);
    expect(kinds).toEqual(['unsubscribe:admin', 'delivery:purchase_created', 'purchase:purchased', 'message:would_send', 'delivery:contact_created']);
    const [unsub, , bought, reminder, delivery] = body.entries;
    expect(unsub!.title).toBe('Added to the unsubscribe list by staff');
    expect(delivery).toMatchObject({ side: 'email', title: 'Delivery received: contact created', source: 'generic', verification: 'unsigned' });
    expect(reminder!.title).toBe('Reminder email simulated (live sending off: nobody received it)');
    expect(bought).toMatchObject({ amount: 149.5, currency: 'USD', attributed: { channel: 'email' } });
    expect(bought!.attributed!.sent_at).toBe(reminder!.at);
    expect(body.more).toBe(false);
    // The Email Logs row names the contact's number, for its link to this page.
    const logs = (await email.api('GET', '/api/email-logs')).body as { contact_id: string; contact_ref?: number }[];
    expect(logs.find((l) => l.contact_id === 'ann-1')?.contact_ref).toBe(id);

    // Asked by the person (as the gateway asks the other side): the same story, by any of the names.
    for (const q of ['email=ANN%40example.com', 'contact_key=shop%3Aann-1']) {
      const byPerson = await part(q);
      expect(byPerson.contact).toBeNull();
      expect(byPerson.entries.map((e) => e.key)).toEqual(body.entries.map((e) => e.key));
    }
    // The same contact id in another funnel is somebody else.
    expect((await part('contact_key=other%3Aann-1')).entries).toEqual([]);
  });

  it('reports Resend\'s word on a message at the time it came', async () => {
    await email.api('POST', '/api/webhook', { body: contactCreated('cy-1', 'cy@example.com', 'slow'), user: null });
    const id = await contactIdOf('cy-1');
    const logs = client.db(email.db).collection('email_logs');
    const sent = new Date(Date.now() - 60_000);
    await logs.insertOne({ id: 900_001, contact_id: 'cy-1', contact_ref: id, email: 'cy@example.com', timestamp: sent, message: 'Reminder sent', status: 'sent', message_id: 're_1', delivery: 'bounced', delivery_at: new Date(sent.getTime() + 5_000) });
    const body = await part(`contact=${id}`);
    const provider = body.entries.find((e) => e.kind === 'provider')!;
    expect(provider).toMatchObject({ title: 'Resend: bounced', status: 'bounced', at: new Date(sent.getTime() + 5_000).toISOString() });
    expect(body.entries.find((e) => e.kind === 'message')).toMatchObject({ title: 'Reminder email sent', at: sent.toISOString() });
  });

  it('pages 1,000 entries of one person newest first with a cursor, each page quickly, none twice, none missed', async () => {
    await email.api('POST', '/api/webhook', { body: contactCreated('dee-1', 'dee@example.com', 'slow'), user: null });
    const id = await contactIdOf('dee-1');
    const logs = client.db(email.db).collection('email_logs');
    const base = Date.now() - 10 * 86_400_000;
    // 999 reminders, some sharing an instant (a burst), plus the delivery: 1,000 entries.
    await logs.insertMany(
      Array.from({ length: 999 }, (_, i) => ({
        id: 100_000 + i,
        contact_id: 'dee-1',
        contact_ref: id,
        email: 'dee@example.com',
        timestamp: new Date(base + Math.floor(i / 3) * 60_000),
        message: `Reminder ${i}`,
        status: i % 2 ? 'sent' : 'would_send',
      })),
    );
    const seen: string[] = [];
    let before = '';
    let pages = 0;
    let slowest = 0;
    for (;;) {
      const started = performance.now();
      const r = await email.api('GET', `/internal/timeline?contact=${id}&limit=100${before ? `&before=${encodeURIComponent(before)}` : ''}`);
      slowest = Math.max(slowest, performance.now() - started);
      expect(r.status).toBe(200);
      const page = r.body as TimelinePart;
      seen.push(...page.entries.map((e) => e.key));
      pages++;
      if (!page.more) break;
      const last = page.entries[page.entries.length - 1]!;
      before = `${Date.parse(last.at)}~${last.key}`;
    }
    expect(seen).toHaveLength(1000);
    expect(new Set(seen).size).toBe(1000);
    expect(pages).toBe(10);
    expect(slowest).toBeLessThan(2_000);
  });

  it('refuses bad questions with a 400 and an unknown contact with a 404', async () => {
    for (const q of ['', 'contact=0', 'contact=x', 'limit=0&contact=1', 'limit=500&contact=1', 'before=nonsense&contact=1', 'contact_key=nofunnelcolon']) {
      const r = await email.api('GET', `/internal/timeline?${q}`);
      expect([q, r.status, typeof r.body.error]).toEqual([q, 400, 'string']);
    }
    const r = await email.api('GET', '/internal/timeline?contact=999999');
    expect([r.status, r.body]).toEqual([404, { error: 'Contact not found' }]);
    expect((await email.api('GET', '/internal/timeline?contact=1', { user: null })).status).toBe(401);
  });
});
