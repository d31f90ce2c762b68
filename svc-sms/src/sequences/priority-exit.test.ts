/**
 * A person in two campaigns, through the service over HTTP with the fake Twilio: the same phone enters another
 * integration's campaign of higher priority while its first sequence runs; that first sequence ends, the other goes
 * on. A phone only in the first campaign gets all of it.
 */
import { call } from '@act/service-kit/testing';
import type { SmsContact } from '@act/contracts/src/sms-api';
import type { TimelinePart } from '@act/contracts/src/timeline';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, postContact, waitFor } from '../test/helpers';

jest.setTimeout(120_000);

const sms = useSmsWithTwilio('priority');
const sentTo = (phone: string) => sms.twilio.messages.filter((m) => m.to === phone).map((m) => m.body);
const contactOf = async (contactId: string) =>
  ((await call(sms.svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).find((c) => c.contact_id === contactId)!;

it('a sequence ends when the person enters a campaign of higher priority; one of no higher priority goes on', async () => {
  await createFunnel(sms.svc.url, 'low', [{ message: 'Low first' }, { message: 'Low second', delay_minutes: 8 }]);
  const high = await createFunnel(sms.svc.url, 'high', [{ message: 'High first' }]);
  expect((await call(sms.svc.url, 'PATCH', `/api/sms-campaigns/${high.campaign.id}`, { body: { priority: 10 } })).status).toBe(200);

  await postContact(sms.svc.url, 'low', 'lo-1', '+15552092001');
  await postContact(sms.svc.url, 'low', 'lo-2', '+15552092002');
  await waitFor(async () => sentTo('+15552092001').length === 1 && sentTo('+15552092002').length === 1, 20_000);
  // The first person enters the higher campaign before the low one's second step.
  await postContact(sms.svc.url, 'high', 'hi-1', '+15552092001');
  await waitFor(async () => sentTo('+15552092001').includes('High first'), 20_000);

  // The control gets the low campaign's second step; by then the first person's low sequence has ended.
  await waitFor(async () => sentTo('+15552092002').length === 2, 30_000);
  await waitFor(async () => (await contactOf('lo-1')).next_send_at === null, 15_000);
  expect(sentTo('+15552092002')).toEqual(['Low first', 'Low second']);
  expect(sentTo('+15552092001')).toEqual(['Low first', 'High first']);
  // The ended sequence says so on the contact's timeline, with its reason; the control's has no such entry.
  const flowEntries = async (contactId: string) => {
    const part = (await call(sms.svc.url, 'GET', `/internal/timeline?contact=${(await contactOf(contactId)).id}&limit=100`)).body as TimelinePart;
    return part.entries.filter((e) => e.status?.startsWith('sequence_')).map(({ title, detail }) => ({ title, detail }));
  };
  expect(await flowEntries('lo-1')).toEqual([{ title: 'SMS sequence ended', detail: `entered campaign ${high.campaign.id}, of higher priority (10 > 0)` }]);
  expect(await flowEntries('lo-2')).toEqual([]);
});
