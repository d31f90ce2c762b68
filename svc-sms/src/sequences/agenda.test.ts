/**
 * With the due scan turned off, Agenda alone drives the sequences: per-step jobs send on time, and the periodic
 * sweep job sends what has no job (here: jobs deleted behind the service's back). The sweep job runs when the
 * service starts and then every ten minutes: the first test proves from its lastRunAt that it did not send, the
 * second runs it on purpose (nextRunAt moved to now, as the ten minutes passing would).
 */
import type { SmsContact } from '@act/contracts/src/sms-api';
import mongoose from 'mongoose';
import { call } from '@act/service-kit/testing';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, postContact, waitFor } from '../test/helpers';

// Starting the service takes a while on a loaded machine (tsx, the twilio SDK, Agenda).
jest.setTimeout(120_000);

const sms = useSmsWithTwilio('agenda', {
  env: { SMS_DUE_SCAN_MS: '0', SMS_AGENDA_PROCESS_EVERY_MS: '200', SMS_SWEEP_EVERY_MS: '600000' },
});
let conn: mongoose.Connection;

beforeAll(async () => {
  conn = await mongoose.createConnection(sms.t.env.MONGODB_URI!, { dbName: sms.t.db }).asPromise();
});
afterAll(async () => {
  await conn?.close();
});

const sentTo = (phone: string) => sms.twilio.messages.filter((m) => m.to === phone);
const sweepJob = () => conn.collection('agenda_jobs').findOne({ name: 'sms-sweep' });

it('sends each step from its Agenda job', async () => {
  await createFunnel(sms.svc.url, 'agenda-funnel', [{ message: 'A1' }, { message: 'A2', delay_minutes: 1 }]);
  // The sweep's run at start-up is over (it may come a little after the service answers); the next is ten minutes off.
  await waitFor(async () => !!(await sweepJob())?.lastRunAt, 15_000);
  const posted = Date.now();
  await postContact(sms.svc.url, 'agenda-funnel', 'ag-1', '+15552050001');
  await waitFor(async () => sentTo('+15552050001').length === 2, 10_000);
  const [m1, m2] = sentTo('+15552050001');
  expect(m1!.at - posted).toBeGreaterThanOrEqual(900);
  expect(m2!.at - m1!.at).toBeGreaterThanOrEqual(1_000);
  // Sent by the step jobs: the sweep last ran before the contact existed (no upper bound on the times, which was a
  // figure of how busy the machine was; how late a step may be is measured by bench/reminders.mjs).
  const sweep = await sweepJob();
  expect(sweep).not.toBeNull();
  expect(new Date(sweep!.lastRunAt).getTime()).toBeLessThan(posted);
});

it('the sweep sends what no job covers', async () => {
  await createFunnel(sms.svc.url, 'sweep-funnel', [{ message: 'S1' }]);
  await postContact(sms.svc.url, 'sweep-funnel', 'sw-1', '+15552050002');
  const c = ((await call(sms.svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).find(
    (x) => x.contact_id === 'sw-1',
  );
  const removed = await conn
    .collection('agenda_jobs')
    .deleteMany({ name: 'sms-contact-step', 'data.contactId': c!.id });
  expect(removed.deletedCount).toBe(1);
  // The sweep's next run once the contact is due, rather than in ten minutes.
  const before = Date.now();
  const due = Math.max(before, new Date(c!.remind_at).getTime() + 50);
  await conn.collection('agenda_jobs').updateOne({ name: 'sms-sweep' }, { $set: { nextRunAt: new Date(due) } });
  await waitFor(async () => sentTo('+15552050002').length === 1, 15_000);
  // Sent by that run: the sweep ran after the job was gone.
  expect(new Date((await sweepJob())!.lastRunAt).getTime()).toBeGreaterThanOrEqual(before - 5);
});
