/**
 * Earlier versions kept an SMS contact's checkout link on the contact (`checkout_url`) beside its cart; a start moves
 * it onto the cart, where the texts and previews read it, once.
 */
import { MongoClient } from 'mongodb';
import { call, type ServiceProcess } from '@act/service-kit/testing';
import { dropDb, dropStream, postContact, smsTestEnv, startSms, type SmsTestEnv } from '../test/helpers';

jest.setTimeout(180_000);

let t: SmsTestEnv;
let svc: ServiceProcess | null = null;
let client: MongoClient;
beforeAll(async () => {
  t = smsTestEnv('links-onto-carts', null);
  client = await MongoClient.connect(t.env.MONGODB_URI!);
});
afterAll(async () => {
  await svc?.stop();
  await dropStream(t.natsPrefix);
  await dropDb(t.db);
  await client?.close();
});

const contacts = () => client.db(t.db).collection('sms_contacts');
const byContactId = async () =>
  Object.fromEntries((await contacts().find({}, { projection: { _id: 0 } }).toArray()).map((c) => [c.contact_id, c]));

it("moves each contact's own link onto its cart at start; a cart's own link stays; the texts read the cart's", async () => {
  svc = await startSms(t);
  const integration = await call(svc.url, 'POST', '/api/sms-webhook-integrations', { body: { name: 'Legacy links', funnel_id: 'legacy-links' } });
  expect(integration.status).toBe(201);
  for (const [id, phone, extra] of [
    ['LL-none', '+15552081001', {}],
    ['LL-total', '+15552081002', { amount: 42.5, currency: 'USD' }],
    ['LL-own', '+15552081003', { checkout_url: 'https://shop.example/own' }],
    ['LL-bad', '+15552081004', {}],
  ] as const)
    expect((await postContact(svc.url, 'legacy-links', id, phone, extra)).status).toBe(200);
  await svc.stop();
  svc = null;

  // The rows as an earlier version left them: the link on the contact, none (or another) on the cart, no mark.
  const at = new Date('2026-11-01T10:00:00Z');
  await contacts().updateOne({ contact_id: 'LL-none' }, { $set: { checkout_url: 'https://shop.example/legacy-none', updated_at: at }, $unset: { cart: '' } });
  await contacts().updateOne({ contact_id: 'LL-total' }, { $set: { checkout_url: 'https://shop.example/legacy-total' } });
  await contacts().updateOne({ contact_id: 'LL-own' }, { $set: { checkout_url: 'https://shop.example/legacy-own' } });
  await contacts().updateOne({ contact_id: 'LL-bad' }, { $set: { checkout_url: 'javascript:alert(1)' }, $unset: { cart: '' } });
  await client.db(t.db).collection('migrations').deleteMany({});
  const before = await byContactId();
  expect(before['LL-total']!.cart).toMatchObject({ recovery_url: null, total: 4250, currency: 'USD' });
  expect(before['LL-own']!.cart.recovery_url).toBe('https://shop.example/own');

  svc = await startSms(t);
  const after = await byContactId();
  expect(after['LL-none']!.cart).toMatchObject({ recovery_url: 'https://shop.example/legacy-none', items: [], total: null, updated_at: at.toISOString() });
  expect(after['LL-total']!.cart).toMatchObject({ recovery_url: 'https://shop.example/legacy-total', total: 4250, currency: 'USD' });
  expect(after['LL-own']!.cart.recovery_url).toBe('https://shop.example/own');
  expect(after['LL-bad']!.cart ?? null).toBeNull();
  for (const c of Object.values(after)) expect(c).not.toHaveProperty('checkout_url');
  expect(await client.db(t.db).collection('migrations').countDocuments({ _id: 'sms-contact-links-onto-carts' as never })).toBe(1);

  // The preview fills {checkout_url} from the moved link, as a text would.
  const preview = await call(svc.url, 'POST', '/api/sms-templates/preview', { body: { message: 'Back: {checkout_url}', contact_id: after['LL-none']!.id } });
  expect(preview.status).toBe(200);
  expect(preview.body.message).toBe('Back: https://shop.example/legacy-none');

  // Done once: a link written back onto a contact afterwards is not looked for again at the next start.
  await contacts().updateOne({ contact_id: 'LL-bad' }, { $set: { checkout_url: 'https://shop.example/late' } });
  await svc.stop();
  svc = await startSms(t);
  expect((await byContactId())['LL-bad']!.checkout_url).toBe('https://shop.example/late');
});
