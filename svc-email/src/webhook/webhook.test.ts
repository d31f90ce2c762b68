import type { NatsConnection, Subscription } from 'nats';
import { contactCreated, dropDb, natsConnect, startEmail, waitFor, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

let email: EmailUnderTest;
let nc: NatsConnection;
let sub: Subscription;
const published: { subject: string; data: Record<string, unknown> }[] = [];

beforeAll(async () => {
  email = await startEmail('webhook');
  nc = await natsConnect();
  sub = nc.subscribe(`${email.prefix}funnel.>`);
  void (async () => {
    for await (const m of sub) published.push({ subject: m.subject.slice(email.prefix.length), data: JSON.parse(m.string()) });
  })();
  const created = await email.api('POST', '/api/webhook-integrations', { body: { name: 'Summer', funnel_id: 'summer-sale', reminder_delay: 60 } });
  expect(created.status).toBe(201);
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  sub?.unsubscribe();
  await nc?.close();
  await email?.svc.stop();
  if (email) await dropDb(email.db);
});

const post = (body: unknown) => email.api('POST', '/api/webhook', { body, user: null });
const contacts = async () => (await email.api('GET', '/api/contacts')).body as { id: number; contact_id: string; email: string; status: string; integration_id: number; created_at: string; remind_at: string; purchased_at: string | null }[];
const events = async () => (await email.api('GET', '/api/webhook-events')).body as { id: number; type: string; payload: string; timestamp: string }[];

describe('POST /api/webhook', () => {
  it('answers the handshake and stores it', async () => {
    const r = await post({ event: 'handshake' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok', message: 'Handshake received' });
    expect((await events())[0]).toMatchObject({ type: 'handshake', payload: '{"event":"handshake"}' });
  });

  it('creates a contact from the new format in the funnel\'s integration, remind_at = created_at + its delay', async () => {
    const r = await post(contactCreated('c-1001', 'jane@example.com', 'summer-sale', { phone: '+1 555 123 4567', first_name: 'Jane' }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', message: 'Contact created', contact_id: 'c-1001' });
    const [c] = (await contacts()).filter((x) => x.contact_id === 'c-1001');
    expect(c).toMatchObject({ email: 'jane@example.com', status: 'pending', purchased_at: null, integration_id: r.body.integration_id });
    // 60 "minutes" at the test unit of 1 s.
    expect(Date.parse(c!.remind_at) - Date.parse(c!.created_at)).toBe(60_000);
    const ev = await waitFor(async () => published.find((p) => p.subject === 'funnel.contact.created' && p.data.contactId === 'c-1001'), { what: 'funnel.contact.created' });
    expect(ev.data).toMatchObject({ source: 'svc-email', funnelId: 'summer-sale', email: 'jane@example.com', phone: '+1 555 123 4567', firstName: 'Jane' });
    expect(typeof ev.data.eventId).toBe('string');
  });

  it('creates from the legacy format and ignores a repeated delivery', async () => {
    const body = { event_type: 'contact_created', funnel_id: 'summer-sale', contact_id: 'c-2002', email: 'bob@example.com', phone: '+15551234567' };
    const first = await post(body);
    const second = await post(body);
    expect(first.body.message).toBe('Contact created');
    expect(second.status).toBe(200);
    expect(second.body.message).toBe('Contact already exists');
    // Concurrent duplicates too.
    const burst = await Promise.all(Array.from({ length: 10 }, () => post({ ...body, contact_id: 'c-2003' })));
    expect(burst.every((b) => b.status === 200)).toBe(true);
    const list = await contacts();
    expect(list.filter((c) => c.contact_id === 'c-2002')).toHaveLength(1);
    expect(list.filter((c) => c.contact_id === 'c-2003')).toHaveLength(1);
    expect((await events()).filter((e) => e.payload.includes('c-2003'))).toHaveLength(10);
  });

  it('falls back to the default integration for an unknown, missing or inactive funnel', async () => {
    const integrations = (await email.api('GET', '/api/webhook-integrations')).body as { id: number; funnel_id: string }[];
    const def = integrations.find((i) => i.funnel_id === 'default')!;
    const paused = await email.api('POST', '/api/webhook-integrations', { body: { name: 'Paused', funnel_id: 'paused-funnel', active: false } });
    await post(contactCreated('c-u1', 'u1@example.com', 'no-such-funnel'));
    await post(contactCreated('c-u2', 'u2@example.com'));
    await post(contactCreated('c-u3', 'u3@example.com', 'paused-funnel'));
    const list = await contacts();
    for (const id of ['c-u1', 'c-u2', 'c-u3']) expect(list.find((c) => c.contact_id === id)?.integration_id).toBe(def.id);
    expect(paused.status).toBe(201);
    const ev = await waitFor(async () => published.find((p) => p.subject === 'funnel.contact.created' && p.data.contactId === 'c-u2'));
    expect(ev.data.funnelId).toBe('default');
  });

  it('contact_updated changes email and phone of a known contact, creates an unknown one', async () => {
    await post(contactCreated('c-3003', 'old@example.com', 'summer-sale'));
    const r = await post({ event: 'contact_updated', funnel_id: 'summer-sale', contact: { id: 'c-3003', email: 'New@Example.com', phone: '+1 555 000 1111' } });
    expect(r.body).toMatchObject({ status: 'ok', message: 'Contact updated' });
    const r2 = await post({ event: 'contact_updated', funnel_id: 'summer-sale', contact: { id: 'c-3004', email: 'fresh@example.com' } });
    expect(r2.body.message).toBe('Contact created');
    const list = await contacts();
    expect(list.filter((c) => c.contact_id === 'c-3003')).toEqual([expect.objectContaining({ email: 'New@Example.com', status: 'pending' })]);
    expect(list.find((c) => c.contact_id === 'c-3004')).toMatchObject({ email: 'fresh@example.com', status: 'pending' });
    const ev = await waitFor(async () => published.find((p) => p.subject === 'funnel.contact.updated' && p.data.contactId === 'c-3003'));
    expect(ev.data).toMatchObject({ email: 'New@Example.com', phone: '+1 555 000 1111', funnelId: 'summer-sale' });
  });

  it('purchase_created (legacy) marks the contact purchased by contact_id and publishes the purchase', async () => {
    await post(contactCreated('c-4004', 'buyer@example.com', 'summer-sale'));
    const r = await post({ event_type: 'purchase_created', funnel_id: 'summer-sale', contact_id: 'c-4004', email: 'buyer@example.com', amount: 49.0, currency: 'USD' });
    expect(r.body).toMatchObject({ status: 'ok', message: 'Purchase recorded', matched: 1 });
    const c = (await contacts()).find((x) => x.contact_id === 'c-4004')!;
    expect(c.status).toBe('purchased');
    expect(c.purchased_at).not.toBeNull();
    const ev = await waitFor(async () => published.find((p) => p.subject === 'funnel.purchase.created' && p.data.contactId === 'c-4004'));
    expect(ev.data).toMatchObject({ funnelId: 'summer-sale', amount: 49, currency: 'USD', email: 'buyer@example.com' });
  });

  it('a purchase with another contact id matches by email, case-insensitively', async () => {
    await post(contactCreated('c-5005', 'Mixed.Case@Example.com', 'summer-sale'));
    const r = await post({ event: 'purchase_created', funnel_id: 'summer-sale', contact: { id: 'order-77', email: 'mixed.case@example.COM' }, purchase: { amount: 10, currency: 'USD' } });
    expect(r.body.matched).toBe(1);
    expect((await contacts()).find((x) => x.contact_id === 'c-5005')!.status).toBe('purchased');
    const none = await post({ event: 'purchase_created', contact: { id: 'nobody', email: 'nobody@example.com' } });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ message: 'Purchase recorded; no matching contact', matched: 0 });
  });

  it.each([
    ['malformed JSON', '{"event": "contact_created", ', 'Invalid JSON body'],
    ['missing contact id', JSON.stringify({ event: 'contact_created', contact: { email: 'x@example.com' } }), 'contact_id is required'],
    ['missing email', JSON.stringify({ event: 'contact_created', contact: { id: 'c-x' } }), 'email is required for contact_created'],
    ['unknown type', JSON.stringify({ event: 'order_refunded', contact: { id: 'c-x' } }), 'Unknown event type: order_refunded'],
    ['operator injection', JSON.stringify({ event: 'contact_created', contact: { id: { $gt: '' }, email: 'x@example.com' } }), 'contact_id must be a string or a number'],
    ['an array', '[1,2,3]', 'Request body must be a JSON object'],
  ])('%s: 400 with an error, the raw delivery stored as invalid, nothing else changed', async (_label, raw, error) => {
    const before = (await contacts()).length;
    const r = await email.api('POST', '/api/webhook', { raw, user: null });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error });
    expect((await events())[0]).toMatchObject({ type: 'invalid', payload: raw });
    expect((await contacts()).length).toBe(before);
  });

  it('refuses a body over 1 MB with 413', async () => {
    const big = JSON.stringify({ event: 'contact_created', contact: { id: 'big', email: 'big@example.com', note: 'x'.repeat(1024 * 1024) } });
    const r = await email.api('POST', '/api/webhook', { raw: big, user: null });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ error: 'Request body too large' });
  });

  it('lists webhook events newest first, and pages them on request', async () => {
    const all = await events();
    const stamps = all.map((e) => Date.parse(e.timestamp));
    expect(stamps).toEqual([...stamps].sort((a, b) => b - a));
    const page = await email.api('GET', '/api/webhook-events?page=2&pageSize=3');
    expect(page.body).toMatchObject({ total: all.length, page: 2, pageSize: 3 });
    expect(page.body.items.map((e: { id: number }) => e.id)).toEqual(all.slice(3, 6).map((e) => e.id));
  });
});
