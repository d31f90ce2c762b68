import { MongoClient } from 'mongodb';
import { MONGODB_URI, contactCreated, dropDb, sleep, startEmail, waitFor, waitUntilRemindersDone, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

// REMINDER_DELAY_UNIT_MS=1000 in tests: an integration delay of N "minutes" lasts N seconds.
let email: EmailUnderTest;
beforeAll(async () => {
  email = await startEmail('reminders');
  await email.api('POST', '/api/webhook-integrations', { body: { name: 'Fast', funnel_id: 'fast', reminder_delay: 1 } });
  await email.api('POST', '/api/webhook-integrations', { body: { name: 'Slower', funnel_id: 'slower', reminder_delay: 2 } });
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await email?.svc.stop();
  if (email) await dropDb(email.db);
});

type Log = { id: number; contact_id: string; email: string; timestamp: string; message: string; status: string };
type Row = { id: number; contact_id: string; status: string; remind_at: string; purchased_at: string | null };
const logs = async () => (await email.api('GET', '/api/email-logs')).body as Log[];
const contact = async (id: string) => ((await email.api('GET', '/api/contacts')).body as Row[]).find((c) => c.contact_id === id)!;

describe('reminders', () => {
  it('sends one would_send reminder at remind_at, never a second one', async () => {
    await email.api('POST', '/api/webhook', { body: contactCreated('r-1', 'remind.me@example.com', 'fast'), user: null });
    expect((await logs()).filter((l) => l.contact_id === 'r-1')).toHaveLength(0);
    const log = await waitFor(async () => (await logs()).find((l) => l.contact_id === 'r-1'), { timeoutMs: 8_000, what: 'the reminder log' });
    const c = await contact('r-1');
    expect(log).toMatchObject({ email: 'remind.me@example.com', message: 'Abandoned cart reminder would be sent to remind.me@example.com', status: 'would_send' });
    const lateness = Date.parse(log.timestamp) - Date.parse(c.remind_at);
    expect(lateness).toBeGreaterThanOrEqual(0);
    // Sent by the due poller, the one scheduler. How late it is (p99 <= 2 s) is a figure of bench/reminders.mjs,
    // not a bound here.
    expect(c.status).toBe('sent');
    // The flow's reminder step and the sweep find nothing left to do. The positive control: the row has left its
    // reminder step (taken and written), and the sweep is called here and answers once it has looked.
    await waitUntilRemindersDone(email, [c.id], { timeoutMs: 15_000 });
    const sweep = await email.api('POST', '/api/test/check-abandoned-carts');
    expect(sweep.body).toMatchObject({ success: true, processed: 0 });
    expect((await logs()).filter((l) => l.contact_id === 'r-1')).toHaveLength(1);
  });

  it('a purchase before remind_at means no reminder', async () => {
    await email.api('POST', '/api/webhook', { body: contactCreated('r-2', 'bought@example.com', 'slower'), user: null });
    // The positive control: same funnel, same delay, no purchase.
    await email.api('POST', '/api/webhook', { body: contactCreated('r-2-control', 'waiting@example.com', 'slower'), user: null });
    await email.api('POST', '/api/webhook', { body: { event: 'purchase_created', funnel_id: 'slower', contact: { id: 'r-2' } }, user: null });
    // Once the control's reminder is out, r-2's would have been due too (it was created first).
    await waitFor(async () => (await logs()).find((l) => l.contact_id === 'r-2-control'), { timeoutMs: 10_000, what: 'the control reminder' });
    expect(await contact('r-2')).toMatchObject({ status: 'purchased' });
    await email.api('POST', '/api/test/check-abandoned-carts');
    expect((await logs()).filter((l) => l.contact_id === 'r-2')).toHaveLength(0);
  });

  it('Mark as Purchased before remind_at means no reminder either', async () => {
    await email.api('POST', '/api/webhook', { body: contactCreated('r-3', 'marked@example.com', 'slower'), user: null });
    await email.api('POST', '/api/webhook', { body: contactCreated('r-3-control', 'unmarked@example.com', 'slower'), user: null });
    await email.api('POST', '/api/contacts/mark-purchased', { body: { contact_id: 'r-3' } });
    await waitFor(async () => (await logs()).find((l) => l.contact_id === 'r-3-control'), { timeoutMs: 10_000, what: 'the control reminder' });
    expect((await logs()).filter((l) => l.contact_id === 'r-3')).toHaveLength(0);
  });
});

describe('Process Missed Emails (POST /api/test/check-abandoned-carts)', () => {
  // A service whose due poller looks only at start and then every 10 minutes: only the sweep can send.
  let idle: EmailUnderTest;
  beforeAll(async () => {
    idle = await startEmail('sweep', { REMINDER_DUE_SCAN_MS: '600000' });
    await idle.api('POST', '/api/webhook-integrations', { body: { name: 'Fast', funnel_id: 'fast', reminder_delay: 1 } });
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await idle?.svc.stop();
    if (idle) await dropDb(idle.db);
  });

  it('sends every pending contact whose reminder time has passed, once', async () => {
    for (let i = 0; i < 5; i++) await idle.api('POST', '/api/webhook', { body: contactCreated(`m-${i}`, `m${i}@example.com`, 'fast'), user: null });
    await idle.api('POST', '/api/webhook', { body: contactCreated('m-later', 'later@example.com'), user: null });
    await idle.api('POST', '/api/webhook', { body: { event: 'purchase_created', funnel_id: 'fast', contact: { id: 'm-0' } }, user: null });
    const rows = ((await idle.api('GET', '/api/contacts')).body as Row[]).filter((c) => c.contact_id !== 'm-later');
    const firstDue = Math.min(...rows.map((c) => Date.parse(c.remind_at)));
    const lastDue = Math.max(...rows.map((c) => Date.parse(c.remind_at)));
    const early = await idle.api('POST', '/api/test/check-abandoned-carts');
    // Only provable when the call ended before the first was due (a loaded machine may be slower).
    if (Date.now() < firstDue) expect(early.body).toMatchObject({ success: true, processed: 0 });
    await sleep(Math.max(0, lastDue - Date.now()) + 100);
    const r = await idle.api('POST', '/api/test/check-abandoned-carts');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: expect.any(String), processed: 4 - (early.body.processed as number) });
    expect((await idle.api('POST', '/api/test/check-abandoned-carts')).body.processed).toBe(0);
    const sent = (await idle.api('GET', '/api/email-logs')).body as Log[];
    expect(sent.map((l) => l.contact_id).sort()).toEqual(['m-1', 'm-2', 'm-3', 'm-4']);
  });
});

describe('the flow row written with the contact at intake', () => {
  // The poller out of the way (it looks at start, then every 10 minutes): the rows are seen as intake leaves them,
  // and only the sweep takes their steps.
  let rowsOnly: EmailUnderTest;
  let client: MongoClient;
  beforeAll(async () => {
    rowsOnly = await startEmail('rows', { REMINDER_DUE_SCAN_MS: '600000' });
    await rowsOnly.api('POST', '/api/webhook-integrations', { body: { name: 'Fast', funnel_id: 'fast', reminder_delay: 2 } });
    client = await MongoClient.connect(MONGODB_URI);
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await client?.close();
    await rowsOnly?.svc.stop();
    if (rowsOnly) await dropDb(rowsOnly.db);
  });

  type FlowRow = { contact_ref: number; stage?: string; state: string; due_at: Date | null; stop_reason: string | null };
  const rowsFor = (contactId: number) => client.db(rowsOnly.db).collection<FlowRow>('email_sequence_steps').find({ contact_ref: contactId }).toArray();
  const row = async (cid: string) => ((await rowsOnly.api('GET', '/api/contacts')).body as Row[]).find((c) => c.contact_id === cid)!;
  const logsOf = async (cid: string) => ((await rowsOnly.api('GET', '/api/email-logs')).body as Log[]).filter((l) => l.contact_id === cid);

  it('one row per contact, due at remind_at, written before the webhook answers; a purchase means its step sends nothing', async () => {
    await rowsOnly.api('POST', '/api/webhook', { body: contactCreated('f-1', 'f1@example.com', 'fast'), user: null });
    await rowsOnly.api('POST', '/api/webhook', { body: contactCreated('f-2', 'f2@example.com', 'fast'), user: null });
    await rowsOnly.api('POST', '/api/webhook', { body: contactCreated('f-1', 'f1@example.com', 'fast'), user: null });
    const [c1, c2] = [await row('f-1'), await row('f-2')];
    const rows = await rowsFor(c1.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ stage: 'remind', state: 'waiting' });
    expect(new Date(rows[0]!.due_at!).toISOString()).toBe(c1.remind_at);
    expect(await rowsFor(c2.id)).toHaveLength(1);
    await rowsOnly.api('POST', '/api/contacts/mark-purchased', { body: { contact_id: c2.id } });
    await sleep(Math.max(0, Date.parse(c2.remind_at) - Date.now()) + 100);
    // Both due now: the sweep takes both steps; only f-1's sends.
    expect((await rowsOnly.api('POST', '/api/test/check-abandoned-carts')).body).toMatchObject({ success: true, processed: 1 });
    const log = (await logsOf('f-1'))[0]!;
    expect(log).toMatchObject({ status: 'would_send' });
    expect(Date.parse(log.timestamp)).toBeGreaterThanOrEqual(Date.parse(c1.remind_at));
    expect((await row('f-1')).status).toBe('sent');
    expect((await rowsFor(c1.id))[0]).toMatchObject({ state: 'finished', due_at: null });
    expect((await rowsFor(c2.id))[0]).toMatchObject({ state: 'stopped', stop_reason: 'purchased', due_at: null });
    expect(await logsOf('f-2')).toEqual([]);
    // The positive control: a contact created after f-2 (so due after it) is reminded by the same step.
    await rowsOnly.api('POST', '/api/webhook', { body: contactCreated('f-3', 'f3@example.com', 'fast'), user: null });
    const c3 = await row('f-3');
    expect(Date.parse(c3.remind_at)).toBeGreaterThanOrEqual(Date.parse(c2.remind_at));
    await sleep(Math.max(0, Date.parse(c3.remind_at) - Date.now()) + 100);
    expect((await rowsOnly.api('POST', '/api/test/check-abandoned-carts')).body).toMatchObject({ processed: 1 });
    const logs = (await rowsOnly.api('GET', '/api/email-logs')).body as Log[];
    expect(logs.map((l) => l.contact_id).sort()).toEqual(['f-1', 'f-3']);
  });

  it('a pending contact without a row (written straight into the database) is adopted by the sweep and reminded once', async () => {
    await rowsOnly.api('POST', '/api/webhook', { body: contactCreated('f-4', 'f4@example.com', 'fast'), user: null });
    const c4 = await row('f-4');
    await client.db(rowsOnly.db).collection('email_sequence_steps').deleteOne({ contact_ref: c4.id });
    await sleep(Math.max(0, Date.parse(c4.remind_at) - Date.now()) + 100);
    expect((await rowsOnly.api('POST', '/api/test/check-abandoned-carts')).body).toMatchObject({ processed: 1 });
    expect((await rowsFor(c4.id))[0]).toMatchObject({ state: 'finished' });
    expect((await rowsOnly.api('POST', '/api/test/check-abandoned-carts')).body).toMatchObject({ processed: 0 });
    expect(await logsOf('f-4')).toEqual([expect.objectContaining({ status: 'would_send' })]);
  });

  it('a reminder claimed by a step that died before writing its log and row is logged once by the next take', async () => {
    await rowsOnly.api('POST', '/api/webhook', { body: contactCreated('f-5', 'f5@example.com', 'fast'), user: null });
    const c5 = await row('f-5');
    // What the claim left: the contact moved pending → sent; no log yet, the row still at its reminder step.
    expect((await client.db(rowsOnly.db).collection('contacts').updateOne({ id: c5.id, status: 'pending' }, { $set: { status: 'sent', sent_at: new Date() } })).modifiedCount).toBe(1);
    await sleep(Math.max(0, Date.parse(c5.remind_at) - Date.now()) + 100);
    expect((await rowsOnly.api('POST', '/api/test/check-abandoned-carts')).body).toMatchObject({ processed: 1 });
    expect((await rowsOnly.api('POST', '/api/test/check-abandoned-carts')).body).toMatchObject({ processed: 0 });
    expect(await logsOf('f-5')).toEqual([expect.objectContaining({ status: 'would_send', message: 'Abandoned cart reminder would be sent to f5@example.com' })]);
    expect((await rowsFor(c5.id))[0]).toMatchObject({ state: 'finished' });
  });
});
