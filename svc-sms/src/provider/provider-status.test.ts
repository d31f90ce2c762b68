/** GET /api/sms/provider-status over the running svc-sms without Twilio: steps due wait, and the answer says how many. */
import type { ProviderStatusResponse } from '@act/contracts/src/provider-status';
import { TEST_DELIVERY_HEADER } from '@act/contracts/src/test-delivery';
import { call } from '@act/service-kit/testing';
import { createFunnel, dropDb, dropStream, postContact, smsTestEnv, startSms, waitFor, type SmsTestEnv } from '../test/helpers';
import type { ServiceProcess } from '@act/service-kit/testing';

jest.setTimeout(120_000);

let svc: ServiceProcess;
let t: SmsTestEnv;
beforeAll(async () => {
  t = smsTestEnv('provstatus', null);
  svc = await startSms(t);
});
afterAll(async () => {
  await svc?.stop();
  await dropStream(t.natsPrefix);
  await dropDb(t.db);
});

const status = async () => {
  const r = await call(svc.url, 'GET', '/api/sms/provider-status');
  expect(r.status).toBe(200);
  return r.body as ProviderStatusResponse;
};

it('says Twilio is not configured and counts the steps that came due and wait for it', async () => {
  expect(await status()).toEqual({
    provider: 'twilio',
    configured: false,
    waiting: 0,
    message: 'Twilio is not configured: no SMS step is waiting. Set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN and restart svc-sms.',
    row_reason: 'Waiting: Twilio is not configured',
  });
  await createFunnel(svc.url, 'wait', [{ message: 'Hi' }]);
  for (const [i, phone] of ['+15552070001', '+15552070002', '+15552070003'].entries()) expect((await postContact(svc.url, 'wait', `w-${i}`, phone)).status).toBe(200);
  // A test delivery's contact is never scheduled and in no count.
  expect((await postContact(svc.url, 'wait', 'w-test', '+14155550100', { email: 'test-delivery+abc@example.com' }, { [TEST_DELIVERY_HEADER]: 'abc' })).status).toBe(200);
  // One "minute" of delay is one second here.
  const s = await waitFor(async () => {
    const got = await status();
    return got.waiting === 3 ? got : null;
  }, 15_000);
  expect(s.message).toBe('Twilio is not configured: 3 SMS steps are waiting. Set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN and restart svc-sms.');
  expect((await call(svc.url, 'GET', '/api/sms/provider-status', { user: null })).status).toBe(401);
});

it('removes the test deliveries in one action, audited, leaving every real contact', async () => {
  const before = (await call(svc.url, 'GET', '/api/sms-contacts')).body as { contact_id: string }[];
  expect(before.map((c) => c.contact_id).sort()).toEqual(['w-0', 'w-1', 'w-2', 'w-test']);
  const r = await call(svc.url, 'POST', '/api/sms-webhook-integrations/clear-test-deliveries', {});
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ success: true, cleared: { contacts: 1 } });
  const after = (await call(svc.url, 'GET', '/api/sms-contacts')).body as { contact_id: string }[];
  expect(after.map((c) => c.contact_id).sort()).toEqual(['w-0', 'w-1', 'w-2']);
  // Nothing left to remove: a second click removes nothing.
  expect((await call(svc.url, 'POST', '/api/sms-webhook-integrations/clear-test-deliveries', {})).body).toMatchObject({ cleared: { contacts: 0 } });
});
