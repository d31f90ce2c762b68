/**
 * The sender says the checkout was completed elsewhere, through the service over HTTP with the fake Resend: one
 * shopper left two checkouts in one shop, and the sender then reports a purchase naming the first one. The first is
 * purchased; the second one's flow, due for its next email, ends instead, and its timeline says which checkout was
 * paid. A shopper with one checkout gets the whole campaign.
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
  email = await startSendingEmail('elsewhere');
  fake = email.resend;
}, HOOK_TIMEOUT_MS);
afterAll(() => email?.stop());

const subjects = (to: string) => fake.emailsTo(to).map((e) => e.subject.split(' for ')[0]);
const hook = async (body: unknown) => expect((await email.api('POST', '/api/webhook', { body, user: null })).status).toBe(200);

it("ends a flow when the sender reports the shopper's other checkout paid, and says so on the timeline", async () => {
  await funnelCampaign(email, 'ce-shop', { name: 'Campaign elsewhere', integrationName: 'shop', templates: [{ name: 'First' }, { name: 'Second', delayHours: 8 }] });

  await hook(contactCreated('co-A', 'two.carts@example.com', 'ce-shop'));
  await hook(contactCreated('co-B', 'two.carts@example.com', 'ce-shop'));
  await hook(contactCreated('co-C', 'one.cart@example.com', 'ce-shop'));
  await waitFor(async () => subjects('two.carts@example.com').length === 2 && subjects('one.cart@example.com').length === 1, { timeoutMs: 20_000, what: 'the first emails' });
  // The sender's purchase names checkout co-A (a Shopify order's checkout_token, a Stripe session, a WooCommerce order).
  await hook({ event: 'purchase_created', funnel_id: 'ce-shop', contact: { id: 'co-A', email: 'two.carts@example.com' }, purchase: { amount: 42, currency: 'EUR' } });
  await waitFor(async () => subjects('one.cart@example.com').length === 2, { timeoutMs: 30_000, what: "the other shopper's second email" });

  const client = await MongoClient.connect(MONGODB_URI);
  try {
    const rows = client.db(email.db).collection('email_sequence_steps');
    const b = await waitFor(
      async () => {
        const r = await rows.findOne({ contact_id: 'co-B' });
        return r?.state === 'stopped' ? r : null;
      },
      { timeoutMs: 30_000, what: "the second checkout's flow stopped" },
    );
    expect(b.stop_reason).toBe('completed_elsewhere');
    const a = await client.db(email.db).collection('contacts').findOne({ contact_id: 'co-A' });
    expect(a?.status).toBe('purchased');
    const contacts = (await email.api('GET', '/api/contacts')).body as { id: number; contact_id: string; status: string }[];
    // Not a purchase of its own: the second checkout's contact keeps its status.
    expect(contacts.find((x) => x.contact_id === 'co-B')!.status).not.toBe('purchased');
    const part = (await email.api('GET', `/internal/timeline?contact=${contacts.find((x) => x.contact_id === 'co-B')!.id}&limit=100`)).body as TimelinePart;
    const ended = part.entries.filter((e) => e.status === 'sequence_exited');
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ title: 'Email sequence ended' });
    expect(ended[0]!.detail).toMatch(/^checkout completed elsewhere \(the sender reported checkout co-A paid at \d{4}-\d\d-\d\dT[\d:.]+Z\)$/);
  } finally {
    await client.close();
  }
  // Each of the two checkouts got its first email only; the other shopper got both.
  expect(subjects('two.carts@example.com')).toEqual(['First', 'First']);
  expect(subjects('one.cart@example.com')).toEqual(['First', 'Second']);
});
