/**
 * A burst gives its place back once each of its texts has had a first answer from Twilio: a text waiting out a
 * retry's backoff no longer holds up the steps due behind it (bench:delivery: the sender sat idle while every burst
 * in flight waited for a straggler).
 */
import { type ServiceProcess } from '@act/service-kit/testing';
import { startFakeTwilio, type FakeTwilio } from '@act/testing';
import {
  configureSending,
  createFunnel,
  dropDb,
  dropStream,
  postContact,
  smsTestEnv,
  startSms,
  waitFor,
  type SmsTestEnv,
} from '../test/helpers';

jest.setTimeout(120_000);

let twilio: FakeTwilio;
let t: SmsTestEnv;
let x: ServiceProcess;

beforeAll(async () => {
  twilio = await startFakeTwilio();
  // Bursts of one step, two at once, from the due ticker alone (the due scan, which would take them in one burst,
  // once in 10 minutes; Agenda's jobs 10 minutes after the steps); a refused text waits 3-6 s before its retry.
  t = smsTestEnv('stragglers', twilio, {
    SMS_DUE_BURST: '1',
    SMS_DUE_SCAN_MS: '600000',
    TWILIO_RETRY_BASE_MS: '6000',
    TWILIO_MAX_MPS: '50',
  });
  x = await startSms(t);
  await configureSending(x.url);
});
afterAll(async () => {
  await x?.stop();
  await twilio?.stop();
  await dropStream(t.natsPrefix);
  await dropDb(t.db);
});

it('sends the steps due behind two bursts whose texts are being retried before those retries', async () => {
  await createFunnel(x.url, 'straggler-funnel', [{ message: 'Hi {first_name}' }], 1);
  const phone = (i: number) => `+1555207${String(i).padStart(4, '0')}`;
  // The first two calls (one burst each, both bursts there may be at once) are refused and retried 3-6 s later.
  twilio.failNext(503, 2);
  await Promise.all(Array.from({ length: 6 }, (_, i) => postContact(x.url, 'straggler-funnel', `st-${i}`, phone(i))));
  const ours = () => twilio.messages.filter((m) => m.to.startsWith('+1555207'));
  await waitFor(async () => ours().length >= 6, 60_000);
  const times = ours()
    .map((m) => m.at)
    .sort((p, q) => p - q);
  expect(new Set(ours().map((m) => m.to)).size).toBe(6);
  // The four texts never refused leave together, well before the two retries (3 s at the least). Held behind their
  // bursts, the third text would have waited for a retry.
  expect(times[3]! - times[0]!).toBeLessThan(2_500);
  expect(times[4]! - times[3]!).toBeGreaterThan(500);
});
