/**
 * Without live sending a reminder is simulated (a would_send log): a contact whose reminders are held, or a test
 * delivery's sample shopper, gets none; its reminder log says why, and it is no touch of any count.
 */
import { randomUUID } from 'node:crypto';
import { TEST_DELIVERY_HEADER } from '@act/contracts/src/test-delivery';
import type { TimelinePart } from '@act/contracts/src/timeline';
import { contactCreated, dropDb, natsConnect, startEmail, waitFor, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

let email: EmailUnderTest;
beforeAll(async () => {
  email = await startEmail('reminder-holds');
  await email.api('POST', '/api/webhook-integrations', { body: { name: 'Held', funnel_id: 'held', reminder_delay: 2 } });
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await email?.svc.stop();
  if (email) await dropDb(email.db);
});

type Log = { contact_id: string; status: string; message: string };
const logsFor = async (contactId: string) => ((await email.api('GET', '/api/email-logs')).body as Log[]).filter((l) => l.contact_id === contactId);

it('a held contact and a test delivery get no would_send reminder; the log says why; a real contact gets one', async () => {
  await email.api('POST', '/api/webhook', { body: contactCreated('rh-1', 'declined@example.com', 'held'), user: null });
  await email.api('POST', '/api/webhook', { body: contactCreated('rh-td', 'test-delivery+9a8b@example.com', 'held'), user: null, headers: { [TEST_DELIVERY_HEADER]: '9a8b' } });
  await email.api('POST', '/api/webhook', { body: contactCreated('rh-real', 'real@example.com', 'held'), user: null });
  const nc = await natsConnect();
  try {
    await nc.jetstream().publish(
      `${email.prefix}funnel.contact.created`,
      JSON.stringify({
        eventId: randomUUID(),
        source: 'svc-sms',
        occurredAt: new Date().toISOString(),
        funnelId: 'held',
        contactId: 'rh-1',
        email: 'declined@example.com',
        phone: null,
        createdAt: new Date().toISOString(),
        remindersHeld: 'The shopper declined promotional messages at checkout',
      }),
    );
  } finally {
    await nc.close();
  }
  await waitFor(async () => (await logsFor('rh-real')).length === 1, { timeoutMs: 15_000, what: 'the control reminder' });
  expect((await logsFor('rh-real'))[0]).toMatchObject({ status: 'would_send' });
  const held = await waitFor(async () => ((await logsFor('rh-1')).length ? logsFor('rh-1') : null), { timeoutMs: 10_000, what: 'the held log' });
  expect(held).toEqual([
    expect.objectContaining({ status: 'held', message: 'Not sent: reminders held for declined@example.com (The shopper declined promotional messages at checkout)' }),
  ]);
  const td = await waitFor(async () => ((await logsFor('rh-td')).length ? logsFor('rh-td') : null), { timeoutMs: 10_000, what: 'the test delivery log' });
  expect(td).toEqual([expect.objectContaining({ status: 'held', message: 'Not sent: reminders held for test-delivery+9a8b@example.com (test delivery)' })]);
  // The sweep finds nothing left to remind.
  expect((await email.api('POST', '/api/test/check-abandoned-carts')).body).toMatchObject({ success: true, processed: 0 });

  // What the screens read: the held contacts carry their reason and are not simulated (nothing was even logged as
  // sent), so Contacts and the contact page write "Held" with it; the real contact's reminder was simulated.
  type Row = { id: number; contact_id: string; status: string; reminders_held: string | null; simulated?: boolean; test?: boolean };
  const rows = (await email.api('GET', '/api/contacts')).body as Row[];
  const row = (id: string) => rows.find((c) => c.contact_id === id)!;
  expect(['rh-1', 'rh-td', 'rh-real'].map((id) => [id, row(id).reminders_held, row(id).simulated, row(id).test])).toEqual([
    ['rh-1', 'The shopper declined promotional messages at checkout', false, false],
    ['rh-td', null, false, true],
    ['rh-real', null, true, false],
  ]);
  const page = async (id: string) => ((await email.api('GET', `/internal/timeline?contact=${row(id).id}`)).body as TimelinePart).contact!;
  expect(await Promise.all(['rh-1', 'rh-td', 'rh-real'].map(async (id) => [id, (await page(id)).reminders_held, (await page(id)).simulated]))).toEqual([
    ['rh-1', 'The shopper declined promotional messages at checkout', false],
    ['rh-td', 'test delivery', false],
    ['rh-real', null, true],
  ]);
});
