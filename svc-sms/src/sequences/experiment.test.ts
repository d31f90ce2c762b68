/**
 * Campaign experiments on the SMS steps, through the service over HTTP and NATS with the fake Twilio: a variant's
 * text is what is sent, and a variant with a later delay than the step's waits for it; a held-out contact gets no
 * text and its log says "held out (control group)".
 */
import { randomUUID } from 'node:crypto';
import { call } from '@act/service-kit/testing';
import { Subjects } from '@act/contracts';
import type { SmsContact, SmsLog } from '@act/contracts/src/sms-api';
import type { TimelinePart } from '@act/contracts/src/timeline';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, publishEvent, sleep, waitFor } from '../test/helpers';

jest.setTimeout(120_000);

const sms = useSmsWithTwilio('experiments');
const contact = (funnelId: string, contactId: string, phone: string) => ({
  eventId: randomUUID(),
  source: 'svc-email',
  occurredAt: new Date().toISOString(),
  funnelId,
  contactId,
  email: `${contactId}@example.com`,
  phone,
  firstName: 'Ann',
  checkoutUrl: 'https://pay.example.com/c/recover',
  createdAt: new Date().toISOString(),
});
/** The titles of a contact's messages on its contact page (the SMS side's part of the timeline). */
const timelineTitles = async (contact: SmsContact) =>
  ((await call(sms.svc.url, 'GET', `/internal/timeline?contact=${contact.id}`)).body as TimelinePart).entries.filter((e) => e.kind === 'message').map((e) => e.title);
const variant = (id: string, content: string, delay: number | null = null) => ({ id, share: 50, subject: null, content, delay, incentive: null });

it("each contact gets its variant's text, a later variant delay is waited for, and nothing else is sent", async () => {
  const { campaign, templates } = await createFunnel(sms.svc.url, 'exp-variants', [{ message: 'Own {first_name}' }]);
  // B waits 4 units (seconds here) after the reminder time; A goes at the reminder time.
  const put = await call(sms.svc.url, 'PUT', `/api/sms-campaigns/${campaign.id}/experiment`, {
    body: { holdout_percent: 0, steps: [{ template_id: templates[0].id, variants: [variant('A', 'Alpha {first_name}'), variant('B', 'Beta {first_name}', 4)] }] },
  });
  expect(put.status).toBe(200);
  const phones = Array.from({ length: 12 }, (_, i) => `+1555301${String(1000 + i)}`);
  for (const [i, phone] of phones.entries()) await publishEvent(sms.t.natsPrefix, Subjects.contactCreated, contact('exp-variants', `v-${i}`, phone));
  const mine = () => sms.twilio.messages.filter((m) => phones.includes(m.to));
  await waitFor(async () => new Set(mine().map((m) => m.to)).size === phones.length, 30_000);
  await sleep(1_500);
  expect(mine()).toHaveLength(phones.length);
  const bodies = new Set(mine().map((m) => m.body));
  expect([...bodies].sort()).toEqual(['Alpha Ann', 'Beta Ann']);
  const contacts = ((await call(sms.svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).filter((c) => c.contact_id.startsWith('v-'));
  const remindAt = new Map(contacts.map((c) => [c.phone, Date.parse(c.remind_at)]));
  for (const m of mine()) {
    if (m.body === 'Beta Ann') expect(m.at).toBeGreaterThanOrEqual(remindAt.get(m.to)! + 4_000);
  }
  // The contact page says which variant a contact got.
  const b = contacts.find((c) => mine().some((m) => m.to === c.phone && m.body === 'Beta Ann'))!;
  expect(await timelineTitles(b)).toEqual(['SMS handed to Twilio (queued) (step 1), variant B']);
});

it('a held-out contact gets no text; its log says so and its sequence ends', async () => {
  const { campaign } = await createFunnel(sms.svc.url, 'exp-holdout', [{ message: 'Hello {first_name}' }]);
  expect((await call(sms.svc.url, 'PUT', `/api/sms-campaigns/${campaign.id}/experiment`, { body: { holdout_percent: 50, steps: [] } })).status).toBe(200);
  const phones = Array.from({ length: 16 }, (_, i) => `+1555302${String(1000 + i)}`);
  for (const [i, phone] of phones.entries()) await publishEvent(sms.t.natsPrefix, Subjects.contactCreated, contact('exp-holdout', `h-${i}`, phone));
  const logs = async () => ((await call(sms.svc.url, 'GET', '/api/sms-logs')).body as SmsLog[]).filter((l) => phones.includes(l.phone));
  await waitFor(async () => (await logs()).length === phones.length, 30_000);
  const held = (await logs()).filter((l) => l.status === 'held_out');
  // 16 contacts at 50%: some of each (the draw is a fixed hash of campaign and contact).
  expect(held.length).toBeGreaterThan(0);
  expect(held.length).toBeLessThan(phones.length);
  expect(new Set(held.map((l) => l.message))).toEqual(new Set(['held out (control group)']));
  const texted = new Set(sms.twilio.messages.filter((m) => phones.includes(m.to)).map((m) => m.to));
  expect(held.filter((l) => texted.has(l.phone))).toEqual([]);
  expect(texted.size).toBe(phones.length - held.length);
  const contacts = ((await call(sms.svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).filter((c) => held.some((l) => l.phone === c.phone));
  expect(contacts.map((c) => c.next_send_at)).toEqual(contacts.map(() => null));
  expect(await timelineTitles(contacts[0]!)).toEqual(['held out (control group)']);
});
