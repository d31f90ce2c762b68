import { contactCreated, dropDb, startEmail, waitFor, waitUntilRemindersDone, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

// Two svc-email processes on one database: every path (each one's due poller, both sweeps) races for the same
// contacts; the lease on each contact's flow row and the conditional pending → sent update must let exactly one
// win each time.
let a: EmailUnderTest;
let b: EmailUnderTest;
const N = 200;

beforeAll(async () => {
  a = await startEmail('twoA', { REMINDER_DUE_SCAN_MS: '100' });
  await a.api('POST', '/api/webhook-integrations', { body: { name: 'Race', funnel_id: 'race', reminder_delay: 8 } });
  await Promise.all(
    Array.from({ length: N }, (_, i) => a.api('POST', '/api/webhook', { body: contactCreated(`d-${i}`, `d${i}@example.com`, 'race'), user: null })),
  );
  // B starts after the contacts exist: its start-up adoption and its poller see all of them at once.
  b = await startEmail('twoB', { MONGODB_DB: a.db, NATS_PREFIX: a.prefix, REMINDER_DUE_SCAN_MS: '100' });
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all([a?.svc.stop(), b?.svc.stop()]);
  if (a) await dropDb(a.db);
}, HOOK_TIMEOUT_MS);

it('sends each due reminder exactly once', async () => {
  const contacts = (await a.api('GET', '/api/contacts')).body as { remind_at: string }[];
  expect(contacts).toHaveLength(N);
  const due = Math.max(...contacts.map((c) => Date.parse(c.remind_at)));
  // Both sweeps join in right when everything is due.
  await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
  const [sa, sb] = await Promise.all([a.api('POST', '/api/test/check-abandoned-carts'), b.api('POST', '/api/test/check-abandoned-carts')]);
  expect(sa.status).toBe(200);
  expect(sb.status).toBe(200);
  const logs = await waitFor(
    async () => {
      const l = (await a.api('GET', '/api/email-logs')).body as { contact_id: string }[];
      return l.length >= N ? l : null;
    },
    { timeoutMs: 45_000, what: `${N} reminder logs` },
  );
  // The positive control: every other path has had its go at these contacts since. No row is left at its reminder
  // step (each taken and written), and both sweeps look again now.
  await waitUntilRemindersDone(a);
  const again = await Promise.all([a.api('POST', '/api/test/check-abandoned-carts'), b.api('POST', '/api/test/check-abandoned-carts')]);
  expect(again.map((r) => r.body.processed)).toEqual([0, 0]);
  const final = (await b.api('GET', '/api/email-logs')).body as { contact_id: string }[];
  expect(final).toHaveLength(N);
  expect(new Set(final.map((l) => l.contact_id)).size).toBe(N);
  expect(logs.length).toBe(N);
  const statuses = ((await b.api('GET', '/api/contacts?status=sent')).body as unknown[]).length;
  expect(statuses).toBe(N);
}, 120_000);

it('the same deliveries racing on both instances make one contact each', async () => {
  await a.api('POST', '/api/webhook-integrations', { body: { name: 'Slow', funnel_id: 'slow', reminder_delay: 600 } });
  await new Promise((r) => setTimeout(r, 1_200)); // B's integration cache
  const M = 50;
  const posts = Array.from({ length: M }, (_, i) => contactCreated(`dup-${i}`, `dup${i}@example.com`, 'slow'));
  const answers = await Promise.all(posts.flatMap((body) => [a, b, a, b].map((svc) => svc.api('POST', '/api/webhook', { body, user: null }))));
  expect(answers.every((r) => r.status === 200)).toBe(true);
  expect(answers.filter((r) => r.body.message === 'Contact created')).toHaveLength(M);
  const dups = ((await b.api('GET', '/api/contacts')).body as { contact_id: string }[]).filter((c) => c.contact_id.startsWith('dup-'));
  expect(dups).toHaveLength(M);
}, 60_000);
