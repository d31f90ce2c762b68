/**
 * Two svc-sms instances on one database (and one NATS prefix, one durable consumer): every (contact, template)
 * goes out exactly once, whichever instance's scan, job or sweep reaches it first.
 */
import type { SmsContact, SmsLog } from '@act/contracts/src/sms-api';
import { call, type ServiceProcess } from '@act/service-kit/testing';
import { startFakeTwilio, type FakeTwilio } from '@act/testing';
import {
  configureSending,
  createFunnel,
  dropDb,
  dropStream,
  postContact,
  waitUntilSequencesClosed,
  smsTestEnv,
  startSms,
  type SmsTestEnv,
} from '../test/helpers';

// Starting the service takes a while on a loaded machine (tsx, the twilio SDK, Agenda).
jest.setTimeout(120_000);

let twilio: FakeTwilio;
let a: ServiceProcess;
let b: ServiceProcess;
let t: SmsTestEnv;

beforeAll(async () => {
  twilio = await startFakeTwilio();
  // Scans every 20 ms on both instances to make them collide as often as possible.
  t = smsTestEnv('two', twilio, {
    SMS_DUE_SCAN_MS: '20',
    SMS_AGENDA_PROCESS_EVERY_MS: '200',
    SMS_SWEEP_EVERY_MS: '1000',
  });
  [a, b] = await Promise.all([startSms(t), startSms(t)]);
  await configureSending(a.url);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await twilio?.stop();
  await dropStream(t.natsPrefix);
  await dropDb(t.db);
});

it('never double-sends', async () => {
  await createFunnel(a.url, 'two-funnel', [
    { message: 'One' },
    { message: 'Two', delay_minutes: 1 },
    { message: 'Three', delay_minutes: 0 },
  ]);
  const N = 20;
  // Contacts arrive through both instances, some twice (a funnel retrying).
  for (let i = 0; i < N; i++) {
    const phone = `+1555204${String(i).padStart(4, '0')}`;
    await postContact(i % 2 ? a.url : b.url, 'two-funnel', `two-${i}`, phone);
    if (i % 5 === 0) await postContact(i % 2 ? b.url : a.url, 'two-funnel', `two-${i}`, phone);
  }
  await twilio.waitForMessages(N * 3, 30_000);
  // The positive control: every sequence is closed (its three steps taken, by whichever instance).
  await waitUntilSequencesClosed(b.url, (c) => c.contact_id.startsWith('two-'), N);
  expect(twilio.messages).toHaveLength(N * 3);
  const byPhone = new Map<string, string[]>();
  for (const m of twilio.messages) byPhone.set(m.to, [...(byPhone.get(m.to) ?? []), m.body]);
  expect(byPhone.size).toBe(N);
  for (const bodies of byPhone.values()) expect(bodies).toEqual(['One', 'Two', 'Three']);
  const logs = (await call(b.url, 'GET', '/api/sms-logs')).body as SmsLog[];
  expect(logs).toHaveLength(N * 3);
  const contacts = (await call(b.url, 'GET', '/api/sms-contacts')).body as SmsContact[];
  expect(contacts).toHaveLength(N);
  expect(contacts.every((c) => c.status === 'sent' && c.messages_sent === 3)).toBe(true);
});
