/**
 * EMAIL_LIVE_SENDING off is the kill switch: the one scheduler still runs every reminder (the spec's `would_send`
 * log), but a campaign's steps already under way wait where they are.
 */
import { MongoClient } from 'mongodb';
import { MONGODB_URI, contactCreated, dropDb, startEmail, waitFor, waitUntilRemindersDone, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

let email: EmailUnderTest;
let client: MongoClient;
beforeAll(async () => {
  email = await startEmail('kill-switch', { EMAIL_LIVE_SENDING: 'false' });
  await email.api('POST', '/api/webhook-integrations', { body: { name: 'Off', funnel_id: 'off', reminder_delay: 1 } });
  await email.api('POST', '/api/webhook-integrations', { body: { name: 'Later', funnel_id: 'later', reminder_delay: 600 } });
  client = await MongoClient.connect(MONGODB_URI);
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await client?.close();
  await email?.svc.stop();
  if (email) await dropDb(email.db);
});

type Row = { id: number; contact_id: string; remind_at: string };
type Log = { contact_id: string; status: string };

it('a campaign step under way waits where it is; a reminder due meanwhile is still logged as would_send', async () => {
  await email.api('POST', '/api/webhook', { body: contactCreated('ks-camp', 'camp@example.com', 'later'), user: null });
  const contacts = (await email.api('GET', '/api/contacts')).body as Row[];
  const camp = contacts.find((c) => c.contact_id === 'ks-camp')!;
  const steps = client.db(email.db).collection('email_sequence_steps');
  // As the reminder step leaves a row whose campaign goes on (written while live sending was on): past its reminder,
  // due now.
  const dueAt = new Date(Date.now() - 1_000);
  expect((await steps.updateOne({ contact_ref: camp.id }, { $set: { campaign_id: 1, due_at: dueAt, base_at: dueAt }, $unset: { stage: '' } })).modifiedCount).toBe(1);

  await email.api('POST', '/api/webhook', { body: contactCreated('ks-new', 'new@example.com', 'off'), user: null });
  const fresh = ((await email.api('GET', '/api/contacts')).body as Row[]).find((c) => c.contact_id === 'ks-new')!;
  // The positive control: the new contact's reminder, due after the campaign row, has been taken and written.
  const logs = await waitFor(async () => {
    const l = ((await email.api('GET', '/api/email-logs')).body as Log[]).filter((x) => x.contact_id === 'ks-new');
    return l.length ? l : null;
  }, { timeoutMs: 15_000, what: 'the reminder of ks-new' });
  expect(logs).toEqual([expect.objectContaining({ status: 'would_send' })]);
  await waitUntilRemindersDone(email, [fresh.id]);
  // "Process Missed Emails" looks at reminders only: the campaign row is no reminder.
  expect((await email.api('POST', '/api/test/check-abandoned-carts')).body).toMatchObject({ processed: 0 });

  const row = await steps.findOne({ contact_ref: camp.id });
  expect(row).toMatchObject({ state: 'waiting', lease_id: null, campaign_id: 1, sent: 0 });
  expect(row!.due_at.toISOString()).toBe(dueAt.toISOString());
  expect(((await email.api('GET', '/api/email-logs')).body as Log[]).filter((x) => x.contact_id === 'ks-camp')).toEqual([]);
});
