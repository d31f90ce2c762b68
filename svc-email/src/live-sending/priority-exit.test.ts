/**
 * A person in two email campaigns, through the service over HTTP with the fake Resend: the same address enters
 * another funnel's campaign of higher priority while its first flow runs; that first flow ends, the other goes on.
 * An address only in the first campaign gets all of it.
 */
import { MongoClient } from 'mongodb';
import type { FakeResend } from '@act/testing';
import type { TimelinePart } from '@act/contracts/src/timeline';
import { contactCreated, HOOK_TIMEOUT_MS, MONGODB_URI, waitFor } from '../test/helpers';
import { funnelCampaign, startSendingEmail, type SendingEmail } from '../test/live-sending';

jest.setTimeout(120_000);

let fake: FakeResend;
let email: SendingEmail;
beforeAll(async () => {
  email = await startSendingEmail('priority');
  fake = email.resend;
}, HOOK_TIMEOUT_MS);
afterAll(() => email?.stop());

async function funnel(funnelId: string, templates: [string, number][], priority = 0) {
  const { campaign } = await funnelCampaign(email, funnelId, { priority, templates: templates.map(([name, delayHours]) => ({ name, delayHours })) });
  expect(campaign.priority).toBe(priority);
}
const post = async (funnelId: string, contactId: string, to: string) =>
  expect((await email.api('POST', '/api/webhook', { body: contactCreated(contactId, to, funnelId), user: null })).status).toBe(200);
const subjects = (to: string) => fake.emailsTo(to).map((e) => e.subject.split(' for ')[0]);

it('a flow ends when the address enters a campaign of higher priority; an address only in the first gets all of it', async () => {
  await funnel('e-low', [['LowFirst', 0], ['LowSecond', 8]]);
  await funnel('e-high', [['HighFirst', 0]], 10);
  await post('e-low', 'el-1', 'both.one@example.com');
  await post('e-low', 'el-2', 'only.two@example.com');
  await waitFor(async () => subjects('both.one@example.com').length === 1 && subjects('only.two@example.com').length === 1, { timeoutMs: 20_000, what: 'the first emails' });
  await post('e-high', 'eh-1', 'both.one@example.com');
  await waitFor(async () => subjects('both.one@example.com').includes('HighFirst'), { timeoutMs: 20_000, what: 'the higher campaign' });
  await waitFor(async () => subjects('only.two@example.com').length === 2, { timeoutMs: 30_000, what: "the control's second email" });
  // The first person's low flow, due for its second email, ends instead.
  const client = await MongoClient.connect(MONGODB_URI);
  try {
    const row = await waitFor(
      async () => {
        const r = await client.db(email.db).collection('email_sequence_steps').findOne({ contact_id: 'el-1' });
        return r?.state === 'stopped' ? r : null;
      },
      { timeoutMs: 30_000, what: 'the low flow stopped' },
    );
    expect(row.stop_reason).toBe('higher_priority_campaign');
  } finally {
    await client.close();
  }
  expect(subjects('only.two@example.com')).toEqual(['LowFirst', 'LowSecond']);
  expect(subjects('both.one@example.com')).toEqual(['LowFirst', 'HighFirst']);
  // The ended flow says so on the contact's timeline, with its reason.
  const contacts = (await email.api('GET', '/api/contacts')).body as { id: number; contact_id: string }[];
  const low = contacts.find((c) => c.contact_id === 'el-1')!.id;
  const high = (await email.api('GET', '/api/email/campaigns')).body as { id: number; name: string }[];
  const highId = high.find((c) => c.name === 'Campaign e-high')!.id;
  const part = (await email.api('GET', `/internal/timeline?contact=${low}&limit=100`)).body as TimelinePart;
  expect(part.entries.filter((e) => e.status === 'sequence_exited').map(({ title, detail }) => ({ title, detail }))).toEqual([
    { title: 'Email sequence ended', detail: `entered campaign ${highId}, of higher priority (10 > 0)` },
  ]);
});
