/** GET /api/sms-stats-simple over real sends, skips, blocks, failures, callbacks and purchases. */
import type { SmsContact } from '@act/contracts/src/sms-api';
import twilioSdk from 'twilio';
import { call, gatewayHeaders } from '@act/service-kit/testing';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, postContact, PUBLIC_URL, waitFor } from '../test/helpers';

// Starting the service takes a while on a loaded machine (tsx, the twilio SDK, Agenda).
jest.setTimeout(120_000);

const sms = useSmsWithTwilio('stats', { sending: { blackout_timezone: 'UTC' } });

async function deliveryCallback(sid: string, status: string) {
  const params = { MessageSid: sid, MessageStatus: status };
  const url = `${PUBLIC_URL}/api/twilio/webhooks`;
  await fetch(`${sms.svc.url}/api/twilio/webhooks`, {
    method: 'POST',
    headers: {
      ...gatewayHeaders(null),
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSdk.getExpectedTwilioSignature(sms.twilio.authToken, url, params),
    },
    body: new URLSearchParams(params).toString(),
  });
}

it('counts every figure of section 3 per integration', async () => {
  const main = await createFunnel(sms.svc.url, 'stats-main', [{ message: 'Hi' }]);
  const other = await createFunnel(sms.svc.url, 'stats-other', [{ message: 'Yo' }]);
  sms.twilio.refuse.add('+15552060004');
  await postContact(sms.svc.url, 'stats-main', 's-1', '+15552060001');
  await postContact(sms.svc.url, 'stats-main', 's-2', '+15552060002');
  await postContact(sms.svc.url, 'stats-main', 's-3', '+15552060003');
  await postContact(sms.svc.url, 'stats-main', 's-4', '+15552060004'); // refused by Twilio
  await postContact(sms.svc.url, 'stats-main', 's-5', '+18885550100'); // toll-free
  await postContact(sms.svc.url, 'stats-other', 'o-1', '+15552060009');
  await waitFor(async () => sms.twilio.messages.length === 4, 10_000);
  // A second contact with s-1's phone is a duplicate.
  await postContact(sms.svc.url, 'stats-main', 's-6', '+15552060001');
  await waitFor(
    async () =>
      ((await call(sms.svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).find((c) => c.contact_id === 's-6')
        ?.status === 'skipped_duplicate',
    10_000,
  );
  const sid = (to: string) => sms.twilio.messages.find((m) => m.to === to)!.sid;
  await deliveryCallback(sid('+15552060001'), 'delivered');
  await deliveryCallback(sid('+15552060002'), 'sent');
  await deliveryCallback(sid('+15552060003'), 'undelivered');
  await call(sms.svc.url, 'POST', '/api/sms/webhook', {
    user: null,
    body: { event_type: 'purchase_created', funnel_id: 'stats-main', contact_id: 's-2' },
  });

  const all = await call(sms.svc.url, 'GET', '/api/sms-stats-simple?date_range=today');
  expect(all.status).toBe(200);
  expect(all.body.integrations).toEqual([
    { id: main.integration.id, name: 'Integration stats-main' },
    { id: other.integration.id, name: 'Integration stats-other' },
  ]);
  expect(all.body.stats).toEqual([
    {
      integration_id: main.integration.id,
      integration_name: 'Integration stats-main',
      unique_phones: 4,
      total_sms_sent: 4,
      purchases_recorded: 1,
      duplicates_sent: 0,
      sent_count: 1,
      delivered_count: 1,
      failed_count: 2,
      queued_count: 0,
      skipped_duplicate_count: 1,
      blocked_toll_free_count: 1,
      duplicate_phones: ['+15552060001'],
    },
    expect.objectContaining({
      integration_id: other.integration.id,
      total_sms_sent: 1,
      queued_count: 1,
      unique_phones: 1,
    }),
  ]);
  expect(all.body.daily).toEqual([{ date: new Date().toISOString().slice(0, 10), sent: 5, delivered: 1 }]);
  expect(all.body).toMatchObject({ date_range: 'today', timezone: 'UTC' });

  const one = await call(
    sms.svc.url,
    'GET',
    `/api/sms-stats-simple?date_range=last_7_days&integration_id=${other.integration.id}`,
  );
  expect(one.body.stats).toHaveLength(1);
  expect(one.body.stats[0].integration_id).toBe(other.integration.id);
  expect(one.body.integrations).toHaveLength(2);
  expect(one.body.daily).toHaveLength(7);
  expect(one.body.daily.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), sent: 1, delivered: 0 });

  const yesterday = await call(sms.svc.url, 'GET', '/api/sms-stats-simple?date_range=yesterday');
  expect(yesterday.body.stats[0]).toMatchObject({ total_sms_sent: 0, purchases_recorded: 0 });
  expect((await call(sms.svc.url, 'GET', '/api/sms-stats-simple?integration_id=99999')).status).toBe(400);
});
