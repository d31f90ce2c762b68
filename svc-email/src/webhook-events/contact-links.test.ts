/**
 * Webhook Events rows name the contact they produced or named (`contact_ref`, the row's link to its contact page),
 * in the plain list and in the paged one: a contact delivery and its purchase name the contact of their integration
 * (not a same-id contact of another funnel); a delivery that named no one has none. Over HTTP against the service.
 */
import type { Contact, Paged, WebhookEvent } from '@act/contracts/src/email-api';
import { contactCreated, dropDb, startEmail, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

let email: EmailUnderTest;
beforeAll(async () => {
  email = await startEmail('event-contacts');
  for (const funnel of ['links', 'other'])
    expect((await email.api('POST', '/api/webhook-integrations', { body: { name: funnel, funnel_id: funnel, reminder_delay: 600 } })).status).toBe(201);
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await email?.svc.stop();
  if (email) await dropDb(email.db);
});

it('a contact delivery and its purchase link to the contact of their funnel; an invalid delivery to none', async () => {
  expect((await email.api('POST', '/api/webhook', { body: contactCreated('lk-1', 'other@example.com', 'other'), user: null })).status).toBe(200);
  expect((await email.api('POST', '/api/webhook', { body: contactCreated('lk-1', 'links@example.com', 'links'), user: null })).status).toBe(200);
  const purchase = { event: 'purchase_created', funnel_id: 'links', contact: { id: 'lk-1' }, purchase: { amount: 20, currency: 'USD' } };
  expect((await email.api('POST', '/api/webhook', { body: purchase, user: null })).status).toBe(200);
  expect((await email.api('POST', '/api/webhook', { body: { event: 'contact_created', funnel_id: 'links' }, user: null })).status).toBe(400);
  const contacts = (await email.api('GET', '/api/contacts')).body as Contact[];
  const mine = contacts.find((c) => c.email === 'links@example.com')!;
  const other = contacts.find((c) => c.email === 'other@example.com')!;

  const plain = (await email.api('GET', '/api/webhook-events')).body as WebhookEvent[];
  const paged = ((await email.api('GET', '/api/webhook-events?page=1&pageSize=25')).body as Paged<WebhookEvent>).items;
  for (const rows of [plain, paged])
    expect(rows.map((e) => [e.type, e.contact_ref])).toEqual([
      ['invalid', null],
      ['purchase_created', mine.id],
      ['contact_created', mine.id],
      ['contact_created', other.id],
    ]);
});
