/**
 * A step claimed by an attempt that is still sending (its burst slowed past the lease, or it is retrying Twilio)
 * is not judged interrupted while that attempt can still be under way (SMS_SEND_IN_FLIGHT_MS): the text it sends
 * late is found and logged, never sent a second time.
 */
import type { SmsContact, SmsLog } from '@act/contracts/src/sms-api';
import type { MongoClient } from 'mongodb';
import { call, type ServiceProcess } from '@act/service-kit/testing';
import type { FakeTwilio } from '@act/testing';
import { createFunnel, postContact, startSendingSms, waitFor, waitUntilSequencesClosed, type SendingSms, type SmsTestEnv } from '../test/helpers';

jest.setTimeout(120_000);

const IN_FLIGHT_MS = 6_000;
let twilio: FakeTwilio;
let svc: ServiceProcess;
let t: SmsTestEnv;
let mongo: MongoClient;
let sending: SendingSms;

beforeAll(async () => {
  sending = await startSendingSms('inflight', { SMS_STEP_LEASE_MS: '1500', SMS_SEND_IN_FLIGHT_MS: String(IN_FLIGHT_MS), SMS_DUE_SCAN_MS: '200' });
  ({ twilio, t, svc, mongo } = sending);
});
afterAll(() => sending?.stop());

it('waits for a claiming attempt that may still be sending, then logs its text instead of sending another', async () => {
  const { templates } = await createFunnel(svc.url, 'inflight-funnel', [{ message: 'Still there {first_name}?' }], 1);
  const phone = '+15552090001';
  const created = await postContact(svc.url, 'inflight-funnel', 'f-1', phone);
  const ref = (created.body as { id: number }).id;
  // Another attempt took the step (its lease id is on the contact) and is still in Twilio's hands: its claim is
  // fresh, its text not yet taken.
  const claimedAt = new Date();
  await mongo.db(t.db).collection('sms_contacts').updateOne({ id: ref }, { $set: { lease_id: 'the-attempt-still-sending' } });
  await mongo.db(t.db).collection('sms_sends').insertOne({ contact_ref: ref, template_id: templates[0].id, step: 0, claimed_at: claimedAt });
  // Past the due time and more than one lease end, the slow attempt's text lands at Twilio. The positive control:
  // the engine took the due step twice (each time it finds the claim still in flight it keeps the step for a lease,
  // next_send_at moving to that lease's end), so it had its chance to send again, after a lease had ended, and did not.
  const contactOf = async () => ((await call(svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).find((c) => c.contact_id === 'f-1')!;
  const remindAt = new Date((await contactOf()).remind_at).getTime();
  const leaseEnds = new Set<string>();
  await waitFor(async () => {
    const next = (await contactOf()).next_send_at;
    if (next && new Date(next).getTime() > remindAt) leaseEnds.add(next);
    // (A step that went ahead closes the sequence: the check below then says what was sent.)
    return leaseEnds.size >= 2 || next === null;
  }, 15_000);
  expect(twilio.messages.filter((m) => m.to === phone)).toHaveLength(0);
  const late = {
    sid: `SM${'7'.repeat(32)}`,
    accountSid: twilio.accountSid,
    to: phone,
    from: '+15005550006',
    messagingServiceSid: null,
    body: 'Still there Jane?',
    statusCallback: null,
    at: Date.now(),
    host: 'api.twilio.com',
  };
  twilio.messages.push(late);

  const log = await waitFor(async () => ((await call(svc.url, 'GET', '/api/sms-logs')).body as SmsLog[]).find((l) => l.contact_id === 'f-1'), 30_000);
  expect(Date.now() - claimedAt.getTime()).toBeGreaterThanOrEqual(IN_FLIGHT_MS);
  expect(log.message_sid).toBe(late.sid);
  // The positive control: the sequence (one template) is closed, so nothing more can be sent for it.
  await waitUntilSequencesClosed(svc.url, (c) => c.contact_id === 'f-1', 1);
  expect(twilio.messages.filter((m) => m.to === phone).map((m) => m.sid)).toEqual([late.sid]);
  const contact = ((await call(svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).find((c) => c.contact_id === 'f-1')!;
  expect(contact).toMatchObject({ status: 'sent', messages_sent: 1 });
});
