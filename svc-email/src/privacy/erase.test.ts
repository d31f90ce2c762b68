// Erasing one person on the email side, through the running svc-email: the request comes over NATS as
// svc-auth publishes it, the answer goes back the same way. Afterwards nothing in the service's database names the
// person, the counts the pages show are the same, the hashed unsubscribe entry still stops them, and a second erase
// changes nothing.
import { MongoClient } from 'mongodb';
import type { NatsConnection } from 'nats';
import { phoneDigitsPattern } from '@act/service-kit';
import { databaseAsText, privacyRequester, type PrivacySubject } from '@act/service-kit/privacy-testing';
import {
  contactCreated,
  dropDb,
  MONGODB_URI,
  natsConnect,
  startEmail,
  waitFor,
  type EmailUnderTest,
  HOOK_TIMEOUT_MS,
} from '../test/helpers';

jest.setTimeout(120_000);

const person = { email: 'Erase.Me@Example.com', phone: '+1 (415) 555-0142' };
const bystander = { email: 'stays@example.com', phone: '+14155550199' };

let email: EmailUnderTest;
let nc: NatsConnection;
let client: MongoClient;
let privacy: ReturnType<typeof privacyRequester>;

beforeAll(async () => {
  email = await startEmail('erase');
  nc = await natsConnect();
  client = await MongoClient.connect(MONGODB_URI);
  await waitFor(async () => (await nc.jetstreamManager()).streams.info(`${email.prefix}FUNNEL`), { what: 'stream' });
  privacy = privacyRequester(nc, email.prefix);
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  privacy?.close();
  await nc?.close();
  await client?.close();
  await email?.svc.stop();
  if (email) await dropDb(email.db);
});

const ask = (requestId: number, kind: 'export' | 'erase', who: PrivacySubject = person) =>
  privacy.ask(requestId, kind, who);
const counts = async () => {
  const total = async (q: string) =>
    ((await email.api('GET', `/api/contacts?page=1&pageSize=1${q}`)).body as { total: number }).total;
  const logs = ((await email.api('GET', '/api/email-logs?page=1&pageSize=1')).body as { total: number }).total;
  const revenue = (await email.api('GET', '/api/revenue/summary?days=30')).body as {
    totals?: unknown;
    integrations: unknown[];
  };
  return {
    contacts: await total(''),
    sent: await total('&status=sent'),
    purchased: await total('&status=purchased'),
    logs,
    revenue,
  };
};
const everything = () => databaseAsText(client, email.db);

it('anonymises everything about the person, keeps the counts, still suppresses them, and is idempotent', async () => {
  expect(
    (
      await email.api('POST', '/api/webhook-integrations', {
        body: { name: 'Erase', funnel_id: 'fe', reminder_delay: 1 },
      })
    ).status,
  ).toBe(201);
  for (const [i, p] of [person, bystander].entries()) {
    const r = await email.api('POST', '/api/webhook', {
      body: contactCreated(`c-${i}`, p.email, 'fe', { phone: p.phone, first_name: 'Pat' }),
      user: null,
    });
    expect(r.status).toBe(200);
  }
  // Reminded (a log each), unsubscribed by an admin, and a purchase of the person's.
  const db = client.db(email.db);
  await waitFor(async () => (await db.collection('email_logs').countDocuments({})) === 2, {
    timeoutMs: 30_000,
    what: 'both reminders',
  });
  // Live sending is off here, so those reminders are simulated and remind nobody; a text the SMS side sent the person
  // makes them a reminded contact of the ledger, whose number the erase must rename.
  await nc.jetstream().publish(
    `${email.prefix}send.sms.sent`,
    JSON.stringify({ eventId: 'erase-text-1', source: 'svc-sms', occurredAt: new Date().toISOString(), channel: 'sms', funnelId: 'fe', contactId: 'c-0', email: person.email, phone: person.phone, integrationId: 1, campaignId: 1, templateId: 1, step: 1, messageId: 'SM-erase-1', sendId: 'twilio:SM-erase-1', sentAt: new Date().toISOString() }),
  );
  await waitFor(async () => (await db.collection('revenue_touches').countDocuments({})) === 3, {
    timeoutMs: 30_000,
    what: 'the three touches in the ledger',
  });
  expect(
    (await email.api('POST', '/api/email-unsubscribes/quick-add', { body: { email: person.email } })).status,
  ).toBeLessThan(300);
  const purchase = {
    event: 'purchase_created',
    funnel_id: 'fe',
    contact: { id: 'c-0', email: person.email },
    purchase: { amount: 42, currency: 'USD' },
  };
  expect((await email.api('POST', '/api/webhook', { body: purchase, user: null })).status).toBe(200);
  await waitFor(async () => (await db.collection('revenue_purchases').countDocuments({})) === 1, {
    timeoutMs: 30_000,
    what: 'the purchase in the ledger',
  });
  const before = await counts();
  expect(before).toMatchObject({ contacts: 2, purchased: 1, logs: 2 });

  const exported = await ask(1, 'export');
  expect(exported.result.counts).toMatchObject({
    contacts: 1,
    email_logs: 1,
    unsubscribes: 1,
    revenue_touches: 2,
    revenue_purchases: 1,
  });
  expect(exported.result.counts.webhook_deliveries).toBeGreaterThanOrEqual(2);

  const epoch = async () => ((await db.collection('revenue_funnels').findOne({ _id: 'epoch' as never })) as { v?: string } | null)?.v ?? null;
  const epochBefore = await epoch();
  const erased = await ask(2, 'erase');
  expect(erased.result).toMatchObject({ status: 'done', error: null });
  // The reminded contact was renamed in the ledger: a new epoch makes every instance forget the numbers it remembers.
  expect(await epoch()).not.toBe(epochBefore);
  expect(await epoch()).not.toBeNull();
  expect(erased.result.counts).toMatchObject({
    suppression_entries: 1,
    contacts: 1,
    email_logs: 1,
    unsubscribes: 1,
    revenue_touches: 2,
    revenue_purchases: 1,
  });
  expect(erased.records).toEqual({});

  // Nothing findable: the export finds nothing, and no document anywhere holds the address or the number.
  const again = await ask(3, 'export');
  expect(Object.values(again.result.counts).every((n) => n === 0)).toBe(true);
  const text = await everything();
  expect(text.toLowerCase()).not.toContain(person.email.toLowerCase());
  expect(text).not.toMatch(new RegExp(phoneDigitsPattern(person.phone)!));
  expect(text).toContain(bystander.email);
  // Nor the ledger's name of the contact by funnel and contact id, which the revenue summary's day documents carry
  // (the purchase's id, the reminded contact's number); the bystander's stays.
  expect(text).not.toContain('c:fe:c-0');
  expect(text).toContain('c:fe:c-1');
  const kept = await db.collection('contacts').findOne({ contact_id: { $ne: 'c-1' } });
  expect(kept).toMatchObject({
    first_name: null,
    phone: expect.stringMatching(/^erased-[0-9a-f]{32}$/),
    email: expect.stringMatching(/^erased-[0-9a-f]{32}@erased\.invalid$/),
  });

  // The contacts list (served from the service's in-memory copy) shows the erased form too.
  const list = JSON.stringify((await email.api('GET', '/api/contacts?page=1&pageSize=50')).body).toLowerCase();
  expect(list).not.toContain(person.email.toLowerCase());
  expect(list).toContain('@erased.invalid');
  // The same counts on the Dashboard, the logs and the revenue.
  expect(await counts()).toEqual(before);

  // Still unsubscribed, by the hash: the public check and the reminder path both see it.
  const check = await email.api('GET', `/api/unsubscribe?email=${encodeURIComponent(person.email)}`, { user: null });
  expect(check.body).toMatchObject({ status: 'already-unsubscribed' });
  const removal = await email.api('GET', '/api/direct-unsubscribes');
  const hashed = (removal.body as { id: number; email: string }[]).find((e) => e.email.endsWith('@erased.invalid'));
  expect((await email.api('POST', '/api/email-unsubscribes/remove', { body: { id: hashed!.id } })).status).toBe(409);

  // The same erase again: nothing left to change, no error.
  const twice = await ask(4, 'erase');
  expect(twice.result.status).toBe('done');
  expect(Object.values(twice.result.counts).every((n) => n === 0)).toBe(true);
  expect(await counts()).toEqual(before);

  // A new delivery for the person is accepted, and their reminder is not sent.
  const r = await email.api('POST', '/api/webhook', {
    body: contactCreated('c-new', person.email, 'fe', { phone: person.phone }),
    user: null,
  });
  expect(r.status).toBe(200);
  const log = await waitFor(async () => db.collection('email_logs').findOne({ contact_id: 'c-new' }), {
    timeoutMs: 30_000,
    what: "the new contact's reminder",
  });
  expect(log.status).toBe('unsubscribed');
});
