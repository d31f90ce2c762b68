import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import type { RevenuePurchasesPage } from '@act/contracts/src/revenue-api';
import { contactCreated, MONGODB_URI, waitFor, HOOK_TIMEOUT_MS } from '../test/helpers';
import { startEmailBesideSms, type EmailBesideSms } from '../test/sms-side';

const HOUR = 3_600_000;

/**
 * The list of recent attributed purchases through the running svc-email: reminders and purchases arrive on the stream
 * as the SMS side publishes them, the list is read over HTTP with the email side's contact numbers and integration.
 */
describe('recent attributed purchases (email side)', () => {
  let email: EmailBesideSms;
  const funnel = `plist-${Date.now().toString(36)}`;
  const now = Date.now();
  const at = (msAgo: number) => new Date(now - msAgo).toISOString();

  beforeAll(async () => {
    email = await startEmailBesideSms('revenue-purchases');
  }, HOOK_TIMEOUT_MS);
  afterAll(() => email?.stop());

  const fromSms = (subject: string, payload: Record<string, unknown>) => email.fromSms(subject, payload);
  const list = async (query: string) => {
    const r = await email.api('GET', `/api/revenue/purchases?${query}`);
    expect(r.status).toBe(200);
    return r.body as RevenuePurchasesPage;
  };

  it('answers the credited purchases newest first, a page at a time, with contact, integration, credited step and recovered session', async () => {
    const integration = (await email.api('POST', '/api/webhook-integrations', { body: { name: 'Stripe shop', funnel_id: funnel, reminder_delay: 720, active: true } })).body as { id: number };
    for (const id of ['a', 'b']) expect((await email.api('POST', '/api/webhook', { body: contactCreated(`${funnel}-${id}`, `${id}.${funnel}@example.com`, funnel) })).status).toBe(200);
    const send = (contactId: string, sentAt: string, step: number) =>
      fromSms('send.sms.sent', { channel: 'sms', funnelId: funnel, contactId, email: null, phone: '+15550008888', integrationId: 7, campaignId: 70, templateId: 700 + step, step, messageId: `SM${randomUUID()}`, sentAt });
    await send(`${funnel}-a`, at(5 * HOUR), 1);
    await send(`${funnel}-a`, at(4 * HOUR), 2);
    await send(`${funnel}-b`, at(3 * HOUR), 1);
    const purchase = (contactId: string, purchasedAt: string, extra: Record<string, unknown> = {}) =>
      fromSms('funnel.purchase.created', { funnelId: funnel, contactId, email: null, phone: null, amount: 79.2, currency: 'EUR', purchasedAt, ...extra });
    await purchase(`${funnel}-a`, at(2 * HOUR), { recoveredFrom: 'cs_test_recovered_a' });
    await purchase(`${funnel}-b`, at(1 * HOUR), { amount: 12 });
    // Organic: nobody reminded this buyer.
    await purchase(`${funnel}-organic`, at(30 * 60_000), { amount: 5 });

    const q = `integration_id=${integration.id}`;
    const first = await waitFor(async () => {
      const p = await list(`${q}&limit=1`);
      return p.purchases.length === 1 && p.next ? p : null;
    }, { what: 'the newest credited purchase' });
    expect(first.purchases[0]).toMatchObject({
      contact: { contact_id: `${funnel}-b`, email: null },
      integration: { id: integration.id, name: 'Stripe shop' },
      amount: 12,
      currency: 'EUR',
      credited: { channel: 'sms', template_id: 701, step: 1 },
      recovered_from: null,
    });
    const second = await waitFor(async () => {
      const p = await list(`${q}&limit=1&before=${encodeURIComponent(first.next!)}`);
      return p.purchases.length === 1 ? p : null;
    }, { what: 'the page after it' });
    const [a] = second.purchases;
    expect(a).toMatchObject({ contact: { contact_id: `${funnel}-a` }, amount: 79.2, credited: { channel: 'sms', template_id: 702, step: 2 }, recovered_from: 'cs_test_recovered_a' });
    expect(a.purchased_at).toBe(at(2 * HOUR));
    // The email side's own contact of that checkout: its contact page.
    const client = await MongoClient.connect(MONGODB_URI);
    try {
      const own = await client.db(email.db).collection('contacts').findOne({ integration_id: integration.id, contact_id: `${funnel}-a` });
      expect(typeof own?.id).toBe('number');
      expect(a.contact.id).toBe(own?.id);
    } finally {
      await client.close();
    }
    // First touch credits a's first text; the organic purchase is never listed.
    const all = await list(`${q}&model=first`);
    expect(all.purchases.map((p) => [p.contact.contact_id, p.credited.step])).toEqual([
      [`${funnel}-b`, 1],
      [`${funnel}-a`, 1],
    ]);
    expect(all.next).toBeNull();
  });

  it('refuses a before it did not answer and a limit out of range; 404 for an unknown integration', async () => {
    expect((await email.api('GET', '/api/revenue/purchases?before=nonsense')).status).toBe(400);
    expect((await email.api('GET', '/api/revenue/purchases?limit=101')).status).toBe(400);
    expect((await email.api('GET', '/api/revenue/purchases?integration_id=99999')).status).toBe(404);
  });
});
