/** Provider settings with credentials, against the fake Twilio through the real SDK. */
import { call, type ServiceProcess } from '@act/service-kit/testing';
import { startFakeTwilio, type FakeTwilio } from '../test/fake-twilio';
import {
  configureSending,
  createFunnel,
  dropDb,
  dropStream,
  postContact,
  sleep,
  smsTestEnv,
  startSms,
  waitFor,
  type SmsTestEnv,
} from '../test/helpers';
import type { SmsContact } from '@act/contracts/src/sms-api';

// Starting the service takes a while on a loaded machine (tsx, the twilio SDK, Agenda).
jest.setTimeout(120_000);

let twilio: FakeTwilio;
let svc: ServiceProcess;
let t: SmsTestEnv;

beforeAll(async () => {
  twilio = await startFakeTwilio();
  t = smsTestEnv('prov', twilio);
  svc = await startSms(t);
});
afterAll(async () => {
  await svc?.stop();
  await twilio?.stop();
  await dropStream(t.natsPrefix);
  await dropDb(t.db);
});

it('says configured, never showing the credentials', async () => {
  const r = await call(svc.url, 'GET', '/api/twilio/config');
  expect(r.body.configured).toBe(true);
  expect(r.text).not.toContain(twilio.accountSid);
  expect(r.text).not.toContain(twilio.authToken);
});

it('lists messaging services as sid and friendlyName', async () => {
  const r = await call(svc.url, 'GET', '/api/twilio/messaging-services');
  expect(r.body).toEqual({
    services: [
      { sid: 'MG00000000000000000000000000000001', friendlyName: 'Cart Reminders' },
      { sid: 'MG00000000000000000000000000000002', friendlyName: 'Marketing' },
    ],
  });
});

it('tests the connection', async () => {
  const r = await call(svc.url, 'POST', '/api/twilio/test-connection');
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ success: true, message: 'Twilio connection test successful: Fake Test Account (active)' });
});

it('refuses a test SMS until a sender is configured', async () => {
  const r = await call(svc.url, 'POST', '/api/twilio/test-sms', {
    body: { test_phone: '+15552070001', test_message: 'Hi' },
  });
  expect(r).toMatchObject({
    status: 400,
    body: { error: 'Twilio sender is not configured: choose a messaging service or enter a phone number' },
  });
  expect(twilio.messages).toHaveLength(0);
});

it('keeps due contacts waiting while no sender is set, and sends once one is', async () => {
  await createFunnel(svc.url, 'wait-funnel', [{ message: 'Finally' }]);
  await call(svc.url, 'POST', '/api/twilio/config', { body: { blackout_enabled: false } });
  await postContact(svc.url, 'wait-funnel', 'wait-1', '+15552070002');
  await sleep(2_500);
  expect(twilio.messages).toHaveLength(0);
  const c = ((await call(svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).find(
    (x) => x.contact_id === 'wait-1',
  )!;
  expect(c.status).toBe('pending');
  expect(new Date(c.next_send_at!).getTime()).toBeLessThan(Date.now());
  await configureSending(svc.url);
  await waitFor(async () => twilio.messages.some((m) => m.to === '+15552070002' && m.body === 'Finally'), 10_000);
});

it('reports a Twilio refusal of the credentials', async () => {
  const bad = await startSms(t, { TWILIO_AUTH_TOKEN: 'wrong-token', MONGODB_DB: `${t.db}_bad` });
  try {
    const r = await call(bad.url, 'POST', '/api/twilio/test-connection');
    expect(r.status).toBe(502);
    expect(r.body).toEqual({ success: false, message: 'Authenticate', error: 'Authenticate' });
    expect((await call(bad.url, 'GET', '/api/twilio/messaging-services')).status).toBe(502);
  } finally {
    await bad.stop();
    await dropDb(`${t.db}_bad`);
  }
});
