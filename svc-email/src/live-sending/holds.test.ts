/**
 * Rules recorded on a contact at intake and enforced by the campaign's steps, through the service over HTTP and NATS
 * (the SMS side's relayed fact carries the cart and the hold), with the fake Resend: a held contact gets no step, a
 * test delivery's sample shopper gets no email, and past the sender's recovery deadline the contact's own link gives
 * way to the integration's fallback, or the step is skipped with the reason.
 */
import { randomUUID } from 'node:crypto';
import { startFakeResend, type FakeResend } from '@act/testing';
import { TEST_DELIVERY_HEADER } from '@act/contracts/src/test-delivery';
import { contactCreated, dropDb, natsConnect, sleep, startEmail, waitFor, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

const HOLD = 'The shopper declined promotional messages at checkout';
type Log = { contact_id: string; email: string; status: string; message: string };

let fake: FakeResend;
let email: EmailUnderTest;
beforeAll(async () => {
  fake = await startFakeResend();
  email = await startEmail('holds', {
    EMAIL_LIVE_SENDING: 'true',
    RESEND_BASE_URL: fake.url,
    RESEND_API_KEY: 're_live',
    RESEND_FROM: 'Shop <shop@example.com>',
    EMAIL_DELAY_HOUR_MS: '1000',
    PUBLIC_URL: 'https://carts.example.com',
    UNSUBSCRIBE_SECRET: 'holds-secret',
    UNSUBSCRIBE_MAILTO: '',
  });
  await campaign('held-funnel', [{ name: 'First', delay_hours: 0 }, { name: 'Second', delay_hours: 4 }], { checkout_fallback_url: 'https://shop.example.com/cart' });
  await campaign('fallback-funnel', [{ name: 'Link', delay_hours: 0 }], { checkout_fallback_url: 'https://shop.example.com/cart' });
  await campaign('nofallback-funnel', [{ name: 'Link', delay_hours: 0 }, { name: 'Plain', delay_hours: 0, html: '<p>Questions? Reply.</p>' }]);
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await email?.svc.stop();
  if (email) await dropDb(email.db);
  await fake?.close();
});

async function campaign(funnelId: string, templates: { name: string; delay_hours: number; html?: string }[], fields: Record<string, unknown> = {}) {
  const c = (await email.api('POST', '/api/email/campaigns', { body: { name: `Campaign ${funnelId}` } })).body as { id: number };
  for (const [i, t] of templates.entries()) {
    const r = await email.api('POST', '/api/resend/templates', {
      body: {
        campaign_id: c.id,
        name: t.name,
        subject: `${t.name} for {{contactEmail}}`,
        from_name: 'Cart Team',
        html_content: t.html ?? `<p><a href="{{recoveryUrl}}">Complete Your Purchase</a></p>`,
        template_order: i + 1,
        delay_hours: t.delay_hours,
      },
    });
    expect(r.status).toBe(201);
  }
  const r = await email.api('POST', '/api/webhook-integrations', {
    body: { name: funnelId, funnel_id: funnelId, reminder_delay: 2, campaign_id: c.id, ...fields },
  });
  expect(r.status).toBe(201);
}

const logsFor = async (contactId: string) => ((await email.api('GET', '/api/email-logs')).body as Log[]).filter((l) => l.contact_id === contactId);
const subjects = (to: string) => fake.emailsTo(to).map((e) => e.subject.split(' for ')[0]);

/** The SMS side's fact of a contact of this funnel (its cart, its hold), as the email side reads it from NATS. */
async function relay(funnelId: string, contactId: string, to: string, extra: Record<string, unknown>) {
  const nc = await natsConnect();
  try {
    await nc.jetstream().publish(
      `${email.prefix}funnel.contact.created`,
      JSON.stringify({ eventId: randomUUID(), source: 'svc-sms', occurredAt: new Date().toISOString(), funnelId, contactId, email: to, phone: null, createdAt: new Date().toISOString(), ...extra }),
    );
  } finally {
    await nc.close();
  }
}

const cart = (expiresAt: string) => ({
  items: [],
  more_items: 0,
  subtotal: 4200,
  discounts: null,
  total: 4200,
  currency: 'EUR',
  recovery_url: 'https://pay.example.com/c/recover',
  recovery_expires_at: expiresAt,
  updated_at: new Date().toISOString(),
  updated_at_source: 'sender',
});

it('a contact held after its first email gets no further step; the log says why and nothing counts as sent', async () => {
  await email.api('POST', '/api/webhook', { body: contactCreated('hd-1', 'held.one@example.com', 'held-funnel'), user: null });
  await email.api('POST', '/api/webhook', { body: contactCreated('hd-2', 'kept.two@example.com', 'held-funnel'), user: null });
  await waitFor(async () => fake.emailsTo('held.one@example.com').length === 1, { timeoutMs: 15_000, what: 'the first email' });
  await relay('held-funnel', 'hd-1', 'held.one@example.com', { remindersHeld: HOLD });
  // The positive control: the other contact's second step goes out after its delay.
  await waitFor(async () => fake.emailsTo('kept.two@example.com').length === 2, { timeoutMs: 20_000, what: 'the control second email' });
  await waitFor(async () => (await logsFor('hd-1')).some((l) => l.status === 'held'), { timeoutMs: 10_000, what: 'the held log' });
  expect(subjects('held.one@example.com')).toEqual(['First']);
  const logs = await logsFor('hd-1');
  expect(logs.filter((l) => l.status === 'sent')).toHaveLength(1);
  expect(logs.find((l) => l.status === 'held')?.message).toBe(`Not sent: reminders held for held.one@example.com (${HOLD})`);
});

it("a test delivery's sample shopper gets no email and no simulated reminder; a real contact of the funnel does", async () => {
  await email.api('POST', '/api/webhook', { body: contactCreated('td-1', 'test-delivery+5e1f@example.com', 'held-funnel'), user: null, headers: { [TEST_DELIVERY_HEADER]: '5e1f' } });
  await email.api('POST', '/api/webhook', { body: contactCreated('td-real', 'real.three@example.com', 'held-funnel'), user: null });
  await waitFor(async () => fake.emailsTo('real.three@example.com').length === 1, { timeoutMs: 15_000, what: 'the control email' });
  const held = await waitFor(async () => (await logsFor('td-1')).find((l) => l.status === 'held'), { timeoutMs: 10_000, what: 'the held log' });
  expect(held.message).toBe('Not sent: reminders held for test-delivery+5e1f@example.com (test delivery)');
  await sleep(1_500);
  expect(fake.emailsTo('test-delivery+5e1f@example.com')).toEqual([]);
  expect((await logsFor('td-1')).map((l) => l.status)).toEqual(['held']);
});

it("past the recovery deadline the integration's fallback link is used; before it, the contact's own link", async () => {
  const past = new Date(Date.now() - 60_000).toISOString();
  const future = new Date(Date.now() + 86_400_000).toISOString();
  await email.api('POST', '/api/webhook', { body: contactCreated('ex-1', 'expired.one@example.com', 'fallback-funnel', { checkout_url: 'https://pay.example.com/c/one' }), user: null });
  await email.api('POST', '/api/webhook', { body: contactCreated('ex-2', 'fresh.two@example.com', 'fallback-funnel', { checkout_url: 'https://pay.example.com/c/two' }), user: null });
  await relay('fallback-funnel', 'ex-1', 'expired.one@example.com', { cart: cart(past) });
  await relay('fallback-funnel', 'ex-2', 'fresh.two@example.com', { cart: cart(future) });
  await waitFor(async () => fake.emailsTo('expired.one@example.com').length === 1 && fake.emailsTo('fresh.two@example.com').length === 1, {
    timeoutMs: 15_000,
    what: 'both emails',
  });
  expect(fake.emailsTo('expired.one@example.com')[0]!.html).toContain('href="https://shop.example.com/cart"');
  expect(fake.emailsTo('expired.one@example.com')[0]!.html).not.toContain('pay.example.com/c/');
  // The link is the cart's: the relayed cart, newer by the sender's time, replaced the delivery's with its own.
  expect(fake.emailsTo('fresh.two@example.com')[0]!.html).toContain('href="https://pay.example.com/c/recover"');
});

it('past the recovery deadline with no fallback the step is skipped with the reason; the next step is sent', async () => {
  await email.api('POST', '/api/webhook', { body: contactCreated('ex-3', 'expired.three@example.com', 'nofallback-funnel', { checkout_url: 'https://pay.example.com/c/three' }), user: null });
  await relay('nofallback-funnel', 'ex-3', 'expired.three@example.com', { cart: cart(new Date(Date.now() - 60_000).toISOString()) });
  await waitFor(async () => fake.emailsTo('expired.three@example.com').length === 1, { timeoutMs: 15_000, what: 'the plain email' });
  expect(subjects('expired.three@example.com')).toEqual(['Plain']);
  const skipped = (await logsFor('ex-3')).find((l) => l.status === 'skipped_no_link');
  expect(skipped?.message).toBe('Not sent "Link" (step 1) to expired.three@example.com: recovery link expired (and no fallback link)');
});
