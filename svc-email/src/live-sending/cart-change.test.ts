/**
 * A cart that changes while the email sequence runs, through the service over HTTP and NATS with the fake Resend: a
 * campaign set to restart starts again from its first template; one left on continue goes on with its next one.
 */
import { randomUUID } from 'node:crypto';
import type { FakeResend } from '@act/testing';
import type { EmailCampaign } from '@act/contracts/src/email-api';
import type { TimelinePart } from '@act/contracts/src/timeline';
import { contactCreated, HOOK_TIMEOUT_MS, natsConnect, waitFor } from '../test/helpers';
import { funnelCampaign, startSendingEmail, type SendingEmail } from '../test/live-sending';

jest.setTimeout(120_000);

let fake: FakeResend;
let email: SendingEmail;
beforeAll(async () => {
  email = await startSendingEmail('cartchange');
  fake = email.resend;
}, HOOK_TIMEOUT_MS);
afterAll(() => email?.stop());

async function funnel(funnelId: string, onCartChange?: 'restart'): Promise<EmailCampaign> {
  let { campaign: c } = await funnelCampaign(email, funnelId, {
    templates: [{ name: 'First' }, { name: 'Second', delayHours: 8 }, { name: 'Third', delayHours: 2 }],
    reminderDelay: 2,
  });
  expect(c).toMatchObject({ on_cart_change: 'continue', priority: 0 });
  if (onCartChange) {
    const r = await email.api('PUT', `/api/email/campaigns/${c.id}`, { body: { name: c.name, on_cart_change: onCartChange, priority: 3 } });
    expect(r.status).toBe(200);
    c = r.body as EmailCampaign;
    expect(c).toMatchObject({ on_cart_change: onCartChange, priority: 3, active: true });
  }
  return c;
}

/** The SMS side's fact of the contact with its cart (the email side keeps the newer cart). */
async function relayCart(funnelId: string, contactId: string, to: string, total: number) {
  const nc = await natsConnect();
  try {
    await nc.jetstream().publish(
      `${email.prefix}funnel.contact.created`,
      JSON.stringify({
        eventId: randomUUID(), source: 'svc-sms', occurredAt: new Date().toISOString(), funnelId, contactId, email: to, phone: null, createdAt: new Date().toISOString(),
        cart: { items: [], more_items: 0, subtotal: total, discounts: null, total, currency: 'EUR', recovery_url: 'https://pay.example.com/c/r', recovery_expires_at: null, updated_at: new Date().toISOString(), updated_at_source: 'sender' },
      }),
    );
  } finally {
    await nc.close();
  }
}
const subjects = (to: string) => fake.emailsTo(to).map((e) => e.subject.split(' for ')[0]);

it('a cart changed after the first email restarts a campaign set to restart; a campaign left on continue goes on', async () => {
  await funnel('ec-restart', 'restart');
  await funnel('ec-continue');
  // Resend answers the first emails late: a cart changed while its email is on the way (after the message showed the
  // old cart, before the send is done) is still a change the shopper has not seen.
  fake.answerAfter(1500);
  for (const [f, id, to] of [['ec-restart', 'er-1', 'restart.one@example.com'], ['ec-continue', 'ec-1', 'continue.one@example.com']] as const) {
    expect((await email.api('POST', '/api/webhook', { body: contactCreated(id, to, f), user: null })).status).toBe(200);
    await relayCart(f, id, to, 4200);
  }
  // The shopper changes the cart before the second template falls due: here, as soon as Resend took the first email
  // and before it answered.
  await waitFor(async () => subjects('restart.one@example.com').length === 1, { timeoutMs: 20_000, what: 'the first email of the restarting campaign' });
  await relayCart('ec-restart', 'er-1', 'restart.one@example.com', 9900);
  await waitFor(async () => subjects('continue.one@example.com').length === 1, { timeoutMs: 20_000, what: 'the first email of the continuing campaign' });
  await relayCart('ec-continue', 'ec-1', 'continue.one@example.com', 9900);
  fake.answerAfter(0);
  await waitFor(async () => subjects('continue.one@example.com').length === 3, { timeoutMs: 40_000, what: 'the continued sequence' });
  expect(subjects('continue.one@example.com')).toEqual(['First', 'Second', 'Third']);
  await waitFor(async () => subjects('restart.one@example.com').length === 4, { timeoutMs: 40_000, what: 'the restarted sequence' });
  expect(subjects('restart.one@example.com')).toEqual(['First', 'First', 'Second', 'Third']);
  // The restart is on the contact's timeline, with its reason; the sequence that went on has no such entry.
  expect(await flowEntries('er-1')).toEqual([
    { title: 'Email sequence started again from its first email', status: 'sequence_restarted', detail: 'the cart changed: the sequence starts again from its first step' },
  ]);
  expect(await flowEntries('ec-1')).toEqual([]);
});

/** The contact's timeline entries about its flow itself (restarted, ended by an exit rule). */
async function flowEntries(contactId: string) {
  const contacts = (await email.api('GET', '/api/contacts')).body as { id: number; contact_id: string }[];
  const id = contacts.find((c) => c.contact_id === contactId)!.id;
  const part = (await email.api('GET', `/internal/timeline?contact=${id}&limit=100`)).body as TimelinePart;
  return part.entries.filter((e) => e.status?.startsWith('sequence_')).map(({ title, status, detail }) => ({ title, status, detail }));
}
