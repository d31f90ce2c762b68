/** Provider settings with credentials, against the fake Twilio through the real SDK. */
import { call } from '@act/service-kit/testing';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { configureSending, createFunnel, dropDb, postContact, startSms, waitFor } from '../test/helpers';
import type { SmsContact } from '@act/contracts/src/sms-api';

// Starting the service takes a while on a loaded machine (tsx, the twilio SDK, Agenda).
jest.setTimeout(120_000);

// LOG_LEVEL warn whatever the shell says: a test below waits for the engine's not-configured warning.
const sms = useSmsWithTwilio('prov', { sending: false, env: { LOG_LEVEL: 'warn' } });

it('says configured, never showing the credentials', async () => {
  const r = await call(sms.svc.url, 'GET', '/api/twilio/config');
  expect(r.body.configured).toBe(true);
  expect(r.text).not.toContain(sms.twilio.accountSid);
  expect(r.text).not.toContain(sms.twilio.authToken);
});

it('lists messaging services as sid and friendlyName', async () => {
  const r = await call(sms.svc.url, 'GET', '/api/twilio/messaging-services');
  expect(r.body).toEqual({
    services: [
      { sid: 'MG00000000000000000000000000000001', friendlyName: 'Cart Reminders' },
      { sid: 'MG00000000000000000000000000000002', friendlyName: 'Marketing' },
    ],
  });
});

it('tests the connection', async () => {
  const r = await call(sms.svc.url, 'POST', '/api/twilio/test-connection');
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ success: true, message: 'Twilio connection test successful: Fake Test Account (active)' });
});

it('refuses a test SMS until a sender is configured', async () => {
  const r = await call(sms.svc.url, 'POST', '/api/twilio/test-sms', {
    body: { test_phone: '+15552070001', test_message: 'Hi' },
  });
  expect(r).toMatchObject({
    status: 400,
    body: { error: 'Twilio sender is not configured: choose a messaging service or enter a phone number' },
  });
  expect(sms.twilio.messages).toHaveLength(0);
});

it('keeps due contacts waiting while no sender is set, and sends once one is', async () => {
  await createFunnel(sms.svc.url, 'wait-funnel', [{ message: 'Finally' }]);
  await call(sms.svc.url, 'POST', '/api/twilio/config', { body: { blackout_enabled: false } });
  await postContact(sms.svc.url, 'wait-funnel', 'wait-1', '+15552070002');
  // The positive control: the engine found the contact due and held it for want of a sender (its warning, logged
  // at the level the test services run at), rather than not having looked yet.
  await waitFor(async () => sms.svc.output().includes('SMS contacts are due but Twilio is not configured'), 15_000);
  expect(sms.twilio.messages).toHaveLength(0);
  const c = ((await call(sms.svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).find(
    (x) => x.contact_id === 'wait-1',
  )!;
  expect(c.status).toBe('pending');
  expect(new Date(c.next_send_at!).getTime()).toBeLessThan(Date.now());
  await configureSending(sms.svc.url);
  await waitFor(async () => sms.twilio.messages.some((m) => m.to === '+15552070002' && m.body === 'Finally'), 10_000);
});

it('reports a Twilio refusal of the credentials', async () => {
  const bad = await startSms(sms.t, { TWILIO_AUTH_TOKEN: 'wrong-token', MONGODB_DB: `${sms.t.db}_bad` });
  try {
    const r = await call(bad.url, 'POST', '/api/twilio/test-connection');
    expect(r.status).toBe(502);
    expect(r.body).toEqual({ success: false, message: 'Authenticate', error: 'Authenticate' });
    expect((await call(bad.url, 'GET', '/api/twilio/messaging-services')).status).toBe(502);
  } finally {
    await bad.stop();
    await dropDb(`${sms.t.db}_bad`);
  }
});

it('a test SMS that Twilio refuses with 21610 puts the phone on the opt-out list, as a sequence send does', async () => {
  await configureSending(sms.svc.url);
  const phone = '+15552070003';
  sms.twilio.optedOut.add(phone);
  const r = await call(sms.svc.url, 'POST', '/api/twilio/test-sms', { body: { test_phone: phone, test_message: 'Test' } });
  expect(r).toMatchObject({
    status: 502,
    body: {
      error:
        'Twilio error 21610: Attempt to send to unsubscribed recipient (the recipient replied STOP to this sender; the number is now on the opt-out list)',
    },
  });
  // Twilio would take the next one (START at Twilio's side never reached us): the list, not Twilio, refuses it.
  sms.twilio.optedOut.delete(phone);
  const again = await call(sms.svc.url, 'POST', '/api/twilio/test-sms', { body: { test_phone: phone, test_message: 'Test' } });
  expect(again).toMatchObject({ status: 400, body: { error: 'This phone number replied STOP and has opted out of SMS; it must reply START first' } });
  // And no sequence messages it.
  await createFunnel(sms.svc.url, 'test-21610', [{ message: 'Reminder' }]);
  await postContact(sms.svc.url, 'test-21610', 'test-21610-a', phone);
  await waitFor(async () => {
    const c = ((await call(sms.svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).find((x) => x.contact_id === 'test-21610-a');
    return c?.status === 'opted_out';
  }, 15_000);
  expect(sms.twilio.messages.filter((m) => m.to === phone)).toEqual([]);
});
