/**
 * Email's own quiet hours, read on each shopper's clock, through the service over HTTP with the fake Resend: a
 * shopper without a phone on the fallback zone's clock is held until the window ends and then emailed; an
 * Australian mobile, on Sydney's clock, is outside the window and emailed at once. The service's flows run on a
 * clock set 100 s before a full hour (EMAIL_CLOCK_OFFSET_MS), so the hold ends during the test.
 */
import { DateTime } from 'luxon';
import { MongoClient } from 'mongodb';
import type { FakeResend } from '@act/testing';
import type { EmailTimingSettings } from '@act/contracts/src/timing';
import { HOOK_TIMEOUT_MS, MONGODB_URI, sleep, waitFor } from '../test/helpers';
import { emailLogsOf, funnelCampaign, postContact, saveTiming, startSendingEmail, type SendingEmail } from '../test/live-sending';
import { EMAIL_FALLBACK_ZONE } from './timing';

jest.setTimeout(300_000);

const LEAD_MS = 100_000;
/** The contacts come in this long before the window's end: their first step is looked at well before it. */
const POSTED_BEFORE_END_MS = 25_000;
/** When the service's flow clock reaches the next full hour of the fallback zone: the quiet hour's end. */
const TOP = DateTime.fromMillis(Date.now() + LEAD_MS).setZone(EMAIL_FALLBACK_ZONE).startOf('hour').plus({ hours: 1 });
/**
 * At start, the flow clock reads LEAD_MS before it (room for a slow service start; never behind the machine's clock:
 * intake dates contacts by the machine's).
 */
const OFFSET_MS = TOP.toMillis() - LEAD_MS - Date.now();
const serviceNow = () => DateTime.fromMillis(Date.now() + OFFSET_MS).setZone(EMAIL_FALLBACK_ZONE);

let fake: FakeResend;
let email: SendingEmail;
let client: MongoClient;
beforeAll(async () => {
  email = await startSendingEmail('quiet_hours', { env: { EMAIL_CLOCK_OFFSET_MS: String(OFFSET_MS) } });
  fake = email.resend;
  client = await MongoClient.connect(MONGODB_URI);
  await funnelCampaign(email, 'quiet', { name: 'Quiet' });
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await client?.close();
  await email?.stop();
});

const logsFor = (contactId: string) => emailLogsOf(email, contactId);
const timing = (body: Partial<EmailTimingSettings>) => saveTiming(email, body);
const post = (contactId: string, to: string, extra: Record<string, unknown> = {}) => postContact(email, 'quiet', contactId, to, extra);

it("holds a step in email's quiet hours on the shopper's clock until the window ends, then sends it; Sydney's shopper at once", async () => {
  expect((await email.api('GET', '/api/settings/timing')).body).toEqual({ quiet_hours_enabled: false, quiet_start_hour: 22, quiet_end_hour: 8, frequency_cap_hours: null });
  // The contacts come in some 25 s before the window's end (a slow start leaves less: never under 12 s).
  const left = TOP.toMillis() - serviceNow().toMillis();
  expect(left).toBeGreaterThan(12_000);
  if (left > POSTED_BEFORE_END_MS) await sleep(left - POSTED_BEFORE_END_MS);
  // A window of the fallback zone's current hour on the flow clock: Sydney's clock is hours away from it.
  const local = serviceNow();
  expect(local.hour).toBe(TOP.minus({ hours: 1 }).hour);
  await timing({ quiet_hours_enabled: true, quiet_start_hour: local.hour, quiet_end_hour: TOP.hour });
  try {
    await post('qh-1', 'night.one@example.com');
    await post('qh-au', 'sydney.two@example.com', { phone: '+61412345678' });
    await waitFor(async () => fake.emailsTo('sydney.two@example.com').length === 1, { timeoutMs: 20_000, what: "the Sydney shopper's email" });
    const held = await waitFor(async () => (await logsFor('qh-1')).find((l) => l.status === 'held'), { timeoutMs: 20_000, what: 'the held log' });
    expect(held.message).toBe(
      `Not sent yet to night.one@example.com: quiet hours in ${EMAIL_FALLBACK_ZONE} (the integration's time zone): held until ${TOP.toFormat('HH:mm')} local time`,
    );
    const row = await client.db(email.db).collection('email_sequence_steps').findOne({ contact_id: 'qh-1' });
    expect(row?.due_at?.toISOString()).toBe(TOP.toUTC().toISO());
    expect(fake.emailsTo('night.one@example.com')).toEqual([]);

    // The window ends: the held step is due again and the email goes out, not before the hold's end.
    await waitFor(async () => fake.emailsTo('night.one@example.com').length === 1, { timeoutMs: 75_000, what: 'the email after the quiet hours' });
    expect(serviceNow().toMillis()).toBeGreaterThanOrEqual(TOP.toMillis());
    const logs = await waitFor(async () => {
      const l = await logsFor('qh-1');
      return l.length === 2 ? l : null;
    }, { timeoutMs: 10_000, what: 'the sent log' });
    expect(logs.map((l) => l.status).sort()).toEqual(['held', 'sent']);
    expect(fake.emailsTo('sydney.two@example.com')).toHaveLength(1);
  } finally {
    await timing({ quiet_hours_enabled: false });
  }
});
