// Erasing one person on the SMS side, through the running svc-sms with a fake Twilio: the request comes
// over NATS as svc-auth publishes it, the answer goes back the same way. Afterwards nothing in the service's database
// names the person, SMS Statistics and revenue read the same, the hashed opt-out entry still stops texts to the
// number, and a second erase changes nothing.
import { MongoClient } from 'mongodb';
import { connect, type NatsConnection } from 'nats';
import { phoneDigitsPattern } from '@act/service-kit';
import { call } from '@act/service-kit/testing';
import { databaseAsText, privacyRequester, type PrivacySubject } from '@act/service-kit/privacy-testing';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, postContact, waitFor } from '../test/helpers';

jest.setTimeout(120_000);

const sms = useSmsWithTwilio('erase');
const person = { email: 'Erase.Sms@Example.com', phone: '+15552070142' };
const bystander = { email: 'stays.sms@example.com', phone: '+15552070199' };

let nc: NatsConnection;
let client: MongoClient;
let privacy: ReturnType<typeof privacyRequester>;

beforeAll(async () => {
  nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  client = await MongoClient.connect(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017');
  privacy = privacyRequester(nc, sms.t.natsPrefix);
});
afterAll(async () => {
  privacy?.close();
  await nc?.close();
  await client?.close();
});

const ask = (requestId: number, kind: 'export' | 'erase', who: PrivacySubject = person) =>
  privacy.ask(requestId, kind, who);
const counts = async () => {
  const stats = (await call(sms.svc.url, 'GET', '/api/sms-stats-simple?date_range=today')).body as Record<
    string,
    unknown
  >;
  const contacts = (await call(sms.svc.url, 'GET', '/api/sms-contacts?page=1')).body as {
    total?: number;
    items: unknown[];
  };
  const revenue = (await call(sms.svc.url, 'GET', '/api/sms/revenue/summary?days=7')).body as { totals: unknown };
  return { stats, contacts: contacts.total ?? contacts.items.length, revenue: revenue.totals };
};
const everything = () => databaseAsText(client, sms.t.db);

it('anonymises everything about the person, keeps the statistics, still stops texts to them, and is idempotent', async () => {
  await createFunnel(sms.svc.url, 'erase', [{ message: 'Hi {{first_name}}, your cart: {{checkout_url}}' }]);
  for (const [i, p] of [person, bystander].entries()) {
    const r = await postContact(sms.svc.url, 'erase', `s-${i}`, p.phone, {
      email: p.email,
      checkout_url: `https://shop.example/cart/${i}`,
    });
    expect(r.status).toBe(200);
  }
  await waitFor(async () => sms.twilio.messages.length === 2, 20_000);
  const db = client.db(sms.t.db);
  await waitFor(async () => (await db.collection('revenue_touches').countDocuments({})) === 2, 20_000);
  const purchase = {
    event_type: 'purchase_created',
    funnel_id: 'erase',
    contact_id: 's-0',
    email: person.email,
    amount: 30,
    currency: 'USD',
  };
  expect((await call(sms.svc.url, 'POST', '/api/sms/webhook', { user: null, body: purchase })).status).toBe(200);
  await waitFor(async () => (await db.collection('revenue_purchases').countDocuments({})) === 1, 20_000);
  // The person replied STOP once (an opt-out in clear).
  await db.collection('sms_opt_outs').insertOne({ phone: person.phone, keyword: 'STOP', opted_out_at: new Date() });
  // Each came in once more for a funnel without an SMS integration yet: kept to be picked up by one made later.
  for (const [i, p] of [person, bystander].entries())
    await db.collection('sms_earlier_contacts').insertOne({ funnel_id: 'erase-later', contact_id: `e-${i}`, phone: p.phone, email: p.email.toLowerCase(), first_name: null, trusted: true, received_at: new Date() });
  const before = await counts();

  const erased = await ask(1, 'erase');
  expect(erased.result).toMatchObject({ status: 'done', error: null });
  expect(erased.result.counts).toMatchObject({
    suppression_entries: 1,
    contacts: 1,
    sms_logs: 1,
    opt_outs: 1,
    earlier_contacts: 1,
    revenue_touches: 1,
    revenue_purchases: 1,
  });
  expect(erased.result.counts.webhook_deliveries).toBeGreaterThanOrEqual(2);

  const again = await ask(2, 'export');
  expect(Object.values(again.result.counts).every((n) => n === 0)).toBe(true);
  const text = await everything();
  expect(text.toLowerCase()).not.toContain(person.email.toLowerCase());
  expect(text).not.toMatch(new RegExp(phoneDigitsPattern(person.phone)!));
  expect(text).not.toContain('shop.example/cart/0');
  expect(text).toContain(bystander.phone);
  expect(await db.collection('sms_earlier_contacts').find({}, { projection: { _id: 0, contact_id: 1 } }).toArray()).toEqual([{ contact_id: 'e-1' }]);
  // Nor the ledger's name of the contact by funnel and contact id (in the revenue summary's day documents too).
  expect(text).not.toContain('c:erase:s-0');
  expect(text).toContain('c:erase:s-1');
  const list = JSON.stringify((await call(sms.svc.url, 'GET', '/api/sms-contacts?page=1')).body);
  expect(list).not.toContain(person.phone);
  expect(list).toContain(bystander.phone);
  expect(await counts()).toEqual(before);

  const twice = await ask(3, 'erase');
  expect(twice.result.status).toBe('done');
  expect(Object.values(twice.result.counts).every((n) => n === 0)).toBe(true);
  expect(await counts()).toEqual(before);

  // A new delivery for the number is accepted and stored, and no text goes out: the hashed opt-out stops it.
  const sent = sms.twilio.messages.length;
  expect((await postContact(sms.svc.url, 'erase', 's-new', person.phone)).status).toBe(200);
  const fresh = await waitFor(
    async () => db.collection('sms_contacts').findOne({ contact_id: 's-new', status: { $ne: 'pending' } }),
    20_000,
  );
  expect(fresh.status).toBe('opted_out');
  expect(sms.twilio.messages.length).toBe(sent);
  // The operator's test send to the number is refused as for any opted-out number.
  const test = await call(sms.svc.url, 'POST', '/api/twilio/test-sms', {
    body: { test_phone: person.phone, test_message: 'test' },
  });
  expect(test.status).toBe(400);
});
