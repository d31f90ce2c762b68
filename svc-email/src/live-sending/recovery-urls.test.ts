import { MongoClient } from 'mongodb';
import { HOOK_TIMEOUT_MS, MONGODB_URI, contactCreated, dropDb, startEmail, type EmailUnderTest } from '../test/helpers';
import { LEGACY_RECOVERY_URLS } from './recovery-urls';

// Earlier versions kept each contact's checkout link in a collection of its own; a start moves them onto the
// contacts' carts, where every sender's link now is, and a send or preview reads it there.
let email: EmailUnderTest | null = null;
let db = '';
let client: MongoClient;
beforeAll(async () => {
  client = await MongoClient.connect(MONGODB_URI);
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await email?.svc.stop();
  if (db) await dropDb(db);
  await client?.close();
});

const contactsOf = async () =>
  Object.fromEntries(
    (await client.db(db).collection('contacts').find({}, { projection: { _id: 0, contact_id: 1, integration_id: 1, cart: 1 } }).toArray()).map((c) => [c.contact_id, c]),
  );

it('moves the links kept apart onto the contacts at start; a contact whose sender gave a link keeps it', async () => {
  email = await startEmail('legacy-links');
  db = email.db;
  const post = async (body: unknown) => expect((await email!.api('POST', '/api/webhook', { body, user: null })).status).toBe(200);
  await post(contactCreated('LL-none', 'no.cart@example.com', 'legacy-links'));
  await post(contactCreated('LL-own', 'own.link@example.com', 'legacy-links', { checkout_url: 'https://shop.example.com/own' }));
  await post(contactCreated('LL-total', 'total.only@example.com', 'legacy-links', { amount: 42.5, currency: 'USD' }));
  await email.svc.stop();

  const before = await contactsOf();
  expect(before['LL-none']!.cart ?? null).toBeNull();
  expect(before['LL-own']!.cart.recovery_url).toBe('https://shop.example.com/own');
  expect(before['LL-total']!.cart).toMatchObject({ recovery_url: null, total: 4250, currency: 'USD' });
  const integrationId = before['LL-none']!.integration_id as number;
  const updated_at = new Date('2026-11-01T10:00:00Z');
  await client.db(db).collection(LEGACY_RECOVERY_URLS).insertMany([
    { integration_id: integrationId, contact_id: 'LL-none', url: 'https://shop.example.com/legacy-none', updated_at },
    { integration_id: integrationId, contact_id: 'LL-own', url: 'https://shop.example.com/legacy-own', updated_at },
    { integration_id: integrationId, contact_id: 'LL-total', url: 'https://shop.example.com/legacy-total', updated_at },
    { integration_id: integrationId, contact_id: 'LL-gone', url: 'https://shop.example.com/legacy-gone', updated_at },
  ]);

  email = await startEmail('legacy-links', { MONGODB_DB: db });
  const after = await contactsOf();
  expect(after['LL-none']!.cart).toMatchObject({ recovery_url: 'https://shop.example.com/legacy-none', items: [], total: null });
  expect(after['LL-own']!.cart.recovery_url).toBe('https://shop.example.com/own');
  expect(after['LL-total']!.cart).toMatchObject({ recovery_url: 'https://shop.example.com/legacy-total', total: 4250, currency: 'USD' });
  expect(after['LL-gone']).toBeUndefined();
  expect(await client.db(db).collection(LEGACY_RECOVERY_URLS).countDocuments()).toBe(0);

  // The preview writes the moved link as a send would.
  const id = (await client.db(db).collection('contacts').findOne({ contact_id: 'LL-none' }))!.id as number;
  const preview = await email.api('POST', '/api/resend/templates/preview', {
    body: { subject: 'Back', html_content: '<p><a href="{{recoveryUrl}}">Back to your cart</a></p>', contact_id: id },
  });
  expect(preview.status).toBe(200);
  expect(preview.body.html).toContain('href="https://shop.example.com/legacy-none"');
}, 90_000);
