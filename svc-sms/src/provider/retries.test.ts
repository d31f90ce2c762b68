/**
 * A busy or failing Twilio: 429 / 20429 and 5xx are retried with backoff until the deadline; a request
 * Twilio took but never answered is found in Twilio's own list instead of being sent twice. Through the service's
 * test-SMS route, the real SDK against the fake.
 */
import { call } from '@act/service-kit/testing';
import { useSmsWithTwilio } from '../test/sms-with-twilio';

jest.setTimeout(120_000);

const sms = useSmsWithTwilio('retries', {
  env: { TWILIO_RETRY_BASE_MS: '50', TWILIO_RETRY_DEADLINE_MS: '3000' },
});

const sendTest = (phone: string) =>
  call(sms.svc.url, 'POST', '/api/twilio/test-sms', { body: { test_phone: phone, test_message: 'Hello' } });
const to = (phone: string) => sms.twilio.messages.filter((m) => m.to === phone);

it('retries 429 (20429) and 5xx until Twilio takes the message, which goes out once', async () => {
  sms.twilio.failNext(429, 2);
  sms.twilio.failNext(503, 1);
  const r = await sendTest('+15552060001');
  expect([r.status, r.body.success]).toEqual([200, true]);
  expect(to('+15552060001')).toHaveLength(1);
});

it('a message Twilio took without answering is found in its list, not sent again', async () => {
  sms.twilio.failNext('reset', 1);
  const r = await sendTest('+15552060002');
  expect([r.status, r.body.success]).toEqual([200, true]);
  expect(to('+15552060002')).toHaveLength(1);
  expect(r.body.sid).toBe(to('+15552060002')[0]!.sid);
});

it('gives up at the deadline with the reason and the attempt count', async () => {
  sms.twilio.failNext(500, 1_000);
  const r = await sendTest('+15552060003');
  expect(r.status).toBe(502);
  expect(r.body.error).toMatch(/^Internal Server Error \(after \d+ attempts\)$/);
  expect(to('+15552060003')).toHaveLength(0);
});
