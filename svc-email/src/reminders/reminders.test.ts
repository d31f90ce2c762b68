import { contactCreated, dropDb, sleep, startEmail, waitFor, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

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
type Row = { contact_id: string; status: string; remind_at: string; purchased_at: string | null };
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
    // Due ticker every 200 ms here; the bound leaves room for a loaded CI machine, far below the 60 s sweep.
    expect(lateness).toBeLessThan(3_000);
    expect(c.status).toBe('sent');
    // Agenda's own job for it (polling every second here) and the sweep find nothing left to do.
    await sleep(2_500);
    const sweep = await email.api('POST', '/api/test/check-abandoned-carts');
    expect(sweep.body).toMatchObject({ success: true, processed: 0 });
    expect((await logs()).filter((l) => l.contact_id === 'r-1')).toHaveLength(1);
  });

  it('a purchase before remind_at means no reminder', async () => {
    await email.api('POST', '/api/webhook', { body: contactCreated('r-2', 'bought@example.com', 'slower'), user: null });
    await email.api('POST', '/api/webhook', { body: { event: 'purchase_created', funnel_id: 'slower', contact: { id: 'r-2' } }, user: null });
    await sleep(4_000);
    expect(await contact('r-2')).toMatchObject({ status: 'purchased' });
    await email.api('POST', '/api/test/check-abandoned-carts');
    expect((await logs()).filter((l) => l.contact_id === 'r-2')).toHaveLength(0);
  });

  it('Mark as Purchased before remind_at means no reminder either', async () => {
    await email.api('POST', '/api/webhook', { body: contactCreated('r-3', 'marked@example.com', 'slower'), user: null });
    await email.api('POST', '/api/contacts/mark-purchased', { body: { contact_id: 'r-3' } });
    await sleep(3_500);
    expect((await logs()).filter((l) => l.contact_id === 'r-3')).toHaveLength(0);
  });
});

describe('Process Missed Emails (POST /api/test/check-abandoned-carts)', () => {
  // A service whose ticker and Agenda poll are far apart: only the sweep can send.
  let idle: EmailUnderTest;
  beforeAll(async () => {
    idle = await startEmail('sweep', { REMINDER_DUE_SCAN_MS: '600000', AGENDA_PROCESS_EVERY_MS: '600000' });
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
    const early = await idle.api('POST', '/api/test/check-abandoned-carts');
    expect(early.body).toMatchObject({ success: true, processed: 0 });
    await sleep(1_200);
    const r = await idle.api('POST', '/api/test/check-abandoned-carts');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: expect.any(String), processed: 4 });
    expect((await idle.api('POST', '/api/test/check-abandoned-carts')).body.processed).toBe(0);
    const sent = (await idle.api('GET', '/api/email-logs')).body as Log[];
    expect(sent.map((l) => l.contact_id).sort()).toEqual(['m-1', 'm-2', 'm-3', 'm-4']);
  });
});
