/**
 * The timing rules on email, through the service over HTTP and NATS with the fake Resend: the frequency cap over the
 * person's sends on both channels (a text the SMS side sent holds the email until the cap's end, then it goes out),
 * and the cap kept equal with the SMS side's over NATS. Email's quiet hours: quiet-hours.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { StringCodec } from 'nats';
import type { FakeResend } from '@act/testing';
import { Subjects } from '@act/contracts';
import type { EmailTimingSettings } from '@act/contracts/src/timing';
import { HOOK_TIMEOUT_MS, MONGODB_URI, natsConnect, waitFor } from '../test/helpers';
import { emailLogsOf, funnelCampaign, postContact, saveTiming, startSendingEmail, type SendingEmail } from '../test/live-sending';

jest.setTimeout(120_000);

let fake: FakeResend;
let email: SendingEmail;
let client: MongoClient;
beforeAll(async () => {
  email = await startSendingEmail('timing');
  fake = email.resend;
  client = await MongoClient.connect(MONGODB_URI);
  await funnelCampaign(email, 'timing', { name: 'Timing' });
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await client?.close();
  await email?.stop();
});

const logsFor = (contactId: string) => emailLogsOf(email, contactId);
const timing = (body: Partial<EmailTimingSettings>) => saveTiming(email, body);
const post = (contactId: string, to: string, extra: Record<string, unknown> = {}) => postContact(email, 'timing', contactId, to, extra);

it('holds an email due within the cap of a text the SMS side sent the same person, and sends it at the cap end', async () => {
  const capSaved = new Promise<Record<string, unknown>>((resolve) => {
    void natsConnect().then((nc) => {
      const sub = nc.subscribe(`${email.prefix}${Subjects.frequencyCapChanged}`, { max: 1 });
      void (async () => {
        for await (const m of sub) resolve(JSON.parse(StringCodec().decode(m.data)));
        await nc.close();
      })();
    });
  });
  // Subscribed before the save (a core subscription sees what JetStream stores on the subject).
  await new Promise((r) => setTimeout(r, 300));
  expect(await timing({ frequency_cap_hours: 1 })).toMatchObject({ frequency_cap_hours: 1 });
  expect(await capSaved).toMatchObject({ source: 'svc-email', hours: 1 });

  // The text went out 59 min 45 s ago: the cap ends 15 s from now.
  const textedAt = new Date(Date.now() - 3_600_000 + 15_000);
  const capEnd = new Date(textedAt.getTime() + 3_600_000);
  const nc = await natsConnect();
  try {
    await nc.jetstream().publish(
      `${email.prefix}${Subjects.smsSent}`,
      JSON.stringify({
        eventId: randomUUID(), source: 'svc-sms', occurredAt: textedAt.toISOString(), channel: 'sms', funnelId: 'timing', contactId: 'cap-1',
        email: 'capped.one@example.com', phone: '+12125550144', integrationId: 1, campaignId: 1, templateId: 1, step: 1,
        messageId: 'SMcapped', sendId: 'twilio:SMcapped', sentAt: textedAt.toISOString(),
      }),
    );
  } finally {
    await nc.close();
  }
  await waitFor(async () => (await client.db(email.db).collection('revenue_touches').countDocuments({ keys: 'e:capped.one@example.com' })) === 1, { timeoutMs: 20_000, what: 'the text in the ledger' });

  await post('cap-1', 'capped.one@example.com');
  await post('cap-2', 'free.two@example.com');
  await waitFor(async () => fake.emailsTo('free.two@example.com').length === 1, { timeoutMs: 20_000, what: 'the control email' });
  const held = await waitFor(async () => (await logsFor('cap-1')).find((l) => l.status === 'held'), { timeoutMs: 20_000, what: 'the held log' });
  expect(held.message).toBe(
    `Not sent yet to capped.one@example.com: frequency cap: a text message went out at ${textedAt.toISOString()}; at most one message per 1 h, held until ${capEnd.toISOString()}`,
  );
  expect(fake.emailsTo('capped.one@example.com')).toEqual([]);
  await waitFor(async () => fake.emailsTo('capped.one@example.com').length === 1, { timeoutMs: 45_000, what: 'the email after the cap' });
  expect(Date.now()).toBeGreaterThanOrEqual(capEnd.getTime());
  const logs = await waitFor(async () => {
    const l = await logsFor('cap-1');
    return l.length === 2 ? l : null;
  }, { timeoutMs: 10_000, what: 'the sent log' });
  expect(logs.map((l) => l.status).sort()).toEqual(['held', 'sent']);
  await timing({ frequency_cap_hours: null });
});

it("keeps the SMS side's cap: its change is stored here, an older one changes nothing", async () => {
  const publish = async (hours: number | null, changedAt: Date) => {
    const nc = await natsConnect();
    try {
      await nc.jetstream().publish(
        `${email.prefix}${Subjects.frequencyCapChanged}`,
        JSON.stringify({ eventId: randomUUID(), source: 'svc-sms', occurredAt: changedAt.toISOString(), hours, changedAt: changedAt.toISOString() }),
      );
    } finally {
      await nc.close();
    }
  };
  const capNow = async () => ((await email.api('GET', '/api/settings/timing')).body as EmailTimingSettings).frequency_cap_hours;
  await publish(6, new Date());
  await waitFor(async () => (await capNow()) === 6, { timeoutMs: 20_000, what: "the SMS side's cap" });
  await publish(2, new Date(Date.now() - 3_600_000));
  // Whatever order they are handled in, the latest change stands.
  await publish(4, new Date(Date.now() + 1_000));
  await waitFor(async () => (await client.db(email.db).collection('frequency_cap_events').countDocuments()) === 3, { timeoutMs: 20_000, what: 'the three changes handled' });
  expect(await capNow()).toBe(4);
});
