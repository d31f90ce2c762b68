/**
 * The timing rules on SMS, through the service over HTTP and NATS with the fake Twilio: the blackout read on the
 * shopper's clock (an Australian mobile at 03:00 Sydney is held until 08:00 there, while a New York number, in its
 * afternoon, is texted), and the frequency cap over the person's sends on both channels (an email the email side
 * sent makes a text due within the cap wait until the cap's end). Each hold is on the contact's timeline with its
 * reason; then the service's clock moves past the holds (a restart on the same database) and each held text goes
 * out once.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import { MongoClient } from 'mongodb';
import { call, type ServiceProcess } from '@act/service-kit/testing';
import { startFakeTwilio, type FakeTwilio } from '@act/testing';
import { Subjects } from '@act/contracts';
import type { SmsContact, SmsLog } from '@act/contracts/src/sms-api';
import type { TimelinePart } from '@act/contracts/src/timeline';
import {
  configureSending,
  createFunnel,
  dropDb,
  dropStream,
  postContact,
  publishEvent,
  smsTestEnv,
  startSms,
  waitFor,
  type SmsTestEnv,
} from '../test/helpers';

jest.setTimeout(240_000);

const SYDNEY = 'Australia/Sydney';
const AU_MOBILE = '+61412345678';
const NY_PHONE = '+12125550143';
const CAPPED_PHONE = '+12125550144';
const CAPPED_EMAIL = 'capped.shopper@example.com';
const CAP_HOURS = 2;
/** A New York number whose Shopify checkout bills to Sydney: the address the sender gave decides, not the number. */
const BILLED_IN_SYDNEY = '+12125550146';

let twilio: FakeTwilio;
let t: SmsTestEnv;
let svc: ServiceProcess;
let client: MongoClient;
/** 03:00 in Sydney, tomorrow: the service's clock starts there. */
const night = DateTime.now().setZone(SYDNEY).plus({ days: 1 }).set({ hour: 3, minute: 0, second: 0, millisecond: 0 });
const morning = night.set({ hour: 8 });
const startAt = (at: DateTime) => startSms(t, { SMS_CLOCK_OFFSET_MS: String(at.toMillis() - Date.now()) });

beforeAll(async () => {
  twilio = await startFakeTwilio();
  t = smsTestEnv('timing', twilio);
  svc = await startAt(night);
  client = await MongoClient.connect(t.env.MONGODB_URI!);
  // The account's blackout as shipped (22:00-08:00, New York the fallback zone) and a two-hour cap.
  await configureSending(svc.url, {
    blackout_enabled: true,
    blackout_start_hour: 22,
    blackout_end_hour: 8,
    blackout_timezone: 'America/New_York',
    frequency_cap_hours: CAP_HOURS,
  });
  await createFunnel(svc.url, 'timing', [{ message: 'Your cart is waiting {first_name}' }]);
}, 180_000);
afterAll(async () => {
  await svc?.stop();
  await twilio?.stop();
  await client?.close();
  if (t) {
    await dropStream(t.natsPrefix);
    await dropDb(t.db);
  }
});

const sentTo = (phone: string) => twilio.messages.filter((m) => m.to === phone);
const contactOf = async (contactId: string) =>
  ((await call(svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).find((c) => c.contact_id === contactId)!;
const logsOf = async (contactId: string) =>
  ((await call(svc.url, 'GET', '/api/sms-logs')).body as SmsLog[]).filter((l) => l.contact_id === contactId);
const timelineOf = async (id: number) => (await call(svc.url, 'GET', `/internal/timeline?contact=${id}`)).body as TimelinePart;

it('holds an Australian mobile at 03:00 Sydney until 08:00 there (and a New York number whose Shopify checkout bills to Sydney), texts a New York number at once, and caps a person the email side just reached', async () => {
  // The email side's send to the capped person, as it reaches this side's ledger (at the service's 03:00).
  const emailedAt = new Date(night.toMillis() + 1_000);
  await publishEvent(t.natsPrefix, Subjects.emailSent, {
    eventId: randomUUID(),
    source: 'svc-email',
    occurredAt: emailedAt.toISOString(),
    channel: 'email',
    funnelId: 'timing',
    contactId: 'cap-1',
    email: CAPPED_EMAIL,
    phone: null,
    integrationId: 1,
    campaignId: 1,
    templateId: 1,
    step: 1,
    messageId: 're_capped',
    sendId: 'resend:re_capped',
    sentAt: emailedAt.toISOString(),
  });
  await waitFor(async () => (await client.db(t.db).collection('revenue_touches').countDocuments({ keys: `e:${CAPPED_EMAIL}` })) === 1, 30_000);

  expect((await postContact(svc.url, 'timing', 'au-1', AU_MOBILE, { first_name: 'Mia' })).status).toBe(200);
  expect((await postContact(svc.url, 'timing', 'ny-1', NY_PHONE, { first_name: 'Ned' })).status).toBe(200);
  expect((await postContact(svc.url, 'timing', 'cap-1', CAPPED_PHONE, { first_name: 'Cal', email: CAPPED_EMAIL })).status).toBe(200);
  // Shopify's own checkout (the documented fixture), its billing address in New South Wales.
  const checkout = JSON.parse(readFileSync(path.join(__dirname, '../../../packages/sources/src/shopify/fixtures/checkouts-create.json'), 'utf8'));
  Object.assign(checkout, { token: 'billed-au-1', phone: BILLED_IN_SYDNEY, customer: { ...checkout.customer, phone: BILLED_IN_SYDNEY, first_name: 'Bea' } });
  checkout.billing_address = { ...checkout.billing_address, phone: BILLED_IN_SYDNEY, country_code: 'AU', province_code: 'NSW' };
  const [integration] = (await call(svc.url, 'GET', '/api/sms-webhook-integrations')).body as { webhook_url: string }[];
  const shopify = await call(svc.url, 'POST', new URL(integration!.webhook_url).pathname, {
    raw: JSON.stringify(checkout),
    headers: { 'content-type': 'application/json', 'X-Shopify-Topic': 'checkouts/create', 'X-Shopify-Webhook-Id': 'billed-au-1' },
    user: null,
  });
  expect(shopify.status).toBe(200);

  // The control: 03:00 in Sydney is the New York afternoon before, outside the window there.
  await waitFor(async () => sentTo(NY_PHONE).length === 1, 30_000);
  const au = await waitFor(async () => {
    const c = await contactOf('au-1');
    return c.held_until ? c : null;
  }, 30_000);
  expect(au.held_until).toBe(morning.toUTC().toISO());
  expect(au.held_by).toBe('blackout');
  expect(au.next_send_at).toBe(au.held_until);
  expect(au.status).toBe('pending');
  const auLogs = await logsOf('au-1');
  expect(auLogs).toHaveLength(1);
  expect(auLogs[0]).toMatchObject({
    status: 'held_blackout',
    held_until: au.held_until,
    message_sid: null,
    error_message: 'quiet hours in Australia/Sydney (from the phone number): held until 08:00 local time',
  });
  const auEntries = (await timelineOf(au.id)).entries.filter((e) => e.kind === 'message');
  expect(auEntries.map((e) => [e.title, e.detail])).toEqual([
    [`SMS held by the blackout until ${au.held_until}`, 'quiet hours in Australia/Sydney (from the phone number): held until 08:00 local time'],
  ]);

  const billed = await waitFor(async () => {
    const c = await contactOf('billed-au-1');
    return c?.held_until ? c : null;
  }, 30_000);
  expect(billed.held_until).toBe(morning.toUTC().toISO());
  expect((await logsOf('billed-au-1'))[0]).toMatchObject({
    status: 'held_blackout',
    error_message: 'quiet hours in Australia/Sydney (from the billing address): held until 08:00 local time',
  });

  const capEnd = new Date(emailedAt.getTime() + CAP_HOURS * 3_600_000).toISOString();
  const cap = await waitFor(async () => {
    const c = await contactOf('cap-1');
    return c.held_until ? c : null;
  }, 30_000);
  expect(cap.held_until).toBe(capEnd);
  expect(cap.held_by).toBe('frequency_cap');
  const capLogs = await logsOf('cap-1');
  expect(capLogs).toHaveLength(1);
  expect(capLogs[0]).toMatchObject({
    status: 'held_frequency_cap',
    held_until: capEnd,
    error_message: `frequency cap: an email went out at ${emailedAt.toISOString()}; at most one message per ${CAP_HOURS} h, held until ${capEnd}`,
  });
  const capEntries = (await timelineOf(cap.id)).entries.filter((e) => e.kind === 'message');
  expect(capEntries.map((e) => e.title)).toEqual([`SMS held by the frequency cap until ${capEnd}`]);
  expect(sentTo(AU_MOBILE)).toEqual([]);
  expect(sentTo(CAPPED_PHONE)).toEqual([]);
  expect(sentTo(BILLED_IN_SYDNEY)).toEqual([]);

  // Past 08:00 in Sydney (and past the cap's end): the same database, the service's clock moved on.
  await svc.stop();
  svc = await startAt(morning.plus({ seconds: 5 }));
  await waitFor(async () => sentTo(AU_MOBILE).length === 1 && sentTo(CAPPED_PHONE).length === 1 && sentTo(BILLED_IN_SYDNEY).length === 1, 60_000);
  expect(sentTo(AU_MOBILE).map((m) => m.body)).toEqual(['Your cart is waiting Mia']);
  expect(sentTo(CAPPED_PHONE).map((m) => m.body)).toEqual(['Your cart is waiting Cal']);
  const after = await waitFor(async () => {
    const logs = await logsOf('au-1');
    return logs.length === 2 ? logs : null;
  }, 15_000);
  expect(after.map((l) => l.status).sort()).toEqual(['held_blackout', 'queued']);
  expect((await contactOf('au-1')).held_until).toBeNull();
  expect(sentTo(NY_PHONE)).toHaveLength(1);
});

it("keeps the email side's frequency cap: its change, published on NATS, is the cap here", async () => {
  expect(((await call(svc.url, 'GET', '/api/twilio/config')).body as { frequency_cap_hours: number | null }).frequency_cap_hours).toBe(CAP_HOURS);
  const changedAt = new Date().toISOString();
  await publishEvent(t.natsPrefix, Subjects.frequencyCapChanged, { eventId: randomUUID(), source: 'svc-email', occurredAt: changedAt, hours: 5, changedAt });
  await waitFor(async () => ((await call(svc.url, 'GET', '/api/twilio/config')).body as { frequency_cap_hours: number | null }).frequency_cap_hours === 5, 20_000);
});
