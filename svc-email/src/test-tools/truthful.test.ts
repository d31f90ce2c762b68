/**
 * What the email side's screens read, over HTTP against the running svc-email with live sending off and no Resend:
 * a would_send reminder is marked simulated on its contact row and counted nowhere as reminded; a test delivery's
 * contact is marked test, in no count, and removed in one audited action; the Resend status says what waits.
 */
import { TEST_DELIVERY_HEADER } from '@act/contracts/src/test-delivery';
import type { Contact } from '@act/contracts/src/email-api';
import type { ProviderStatusResponse } from '@act/contracts/src/provider-status';
import type { RevenueSummary } from '@act/contracts/src/revenue-api';
import { collectAuditRecords, contactCreated, dropDb, startEmail, waitFor, HOOK_TIMEOUT_MS, type AuditCollector, type EmailUnderTest } from '../test/helpers';

describe('truthful figures on the email side', () => {
  let email: EmailUnderTest;
  let audit: AuditCollector;
  beforeAll(async () => {
    email = await startEmail('truthful', { RESEND_API_KEY: '', RESEND_FROM: '' });
    audit = await collectAuditRecords(email.prefix);
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await audit?.stop();
    await email?.svc.stop();
    if (email) await dropDb(email.db);
  });

  const contacts = async () => {
    const r = await email.api('GET', '/api/contacts');
    expect(r.status).toBe(200);
    return r.body as Contact[];
  };

  it('marks a would_send reminder simulated and a test delivery test; neither is counted as reminded', async () => {
    const created = await email.api('POST', '/api/webhook-integrations', { body: { name: 'Truth', funnel_id: 'truth', reminder_delay: 1 } });
    expect(created.status).toBeLessThan(300);
    const integrationId = (created.body as { id: number }).id;
    for (const [id, address] of [['t-1', 'shopper1@shop.test'], ['t-2', 'shopper2@shop.test'], ['t-test', 'test-delivery+0123abcd@example.com']])
      expect((await email.api('POST', '/api/webhook', { body: contactCreated(id, address, 'truth'), user: null, headers: id === 't-test' ? { [TEST_DELIVERY_HEADER]: '0123abcd' } : {} })).status).toBe(200);
    const rows = await waitFor(async () => {
      const got = await contacts();
      // The claim (status sent) comes before the reminder's log, which is what says it was simulated.
      return got.filter((c) => c.status === 'sent' && c.simulated !== undefined).length >= 2 &&
        got.find((c) => c.contact_id === 't-1')?.simulated
        ? got
        : null;
    }, { timeoutMs: 20_000, what: 'the reminders logged' });
    const byId = new Map(rows.map((c) => [c.contact_id, c]));
    expect(byId.get('t-1')).toMatchObject({ status: 'sent', simulated: true, test: false });
    expect(byId.get('t-test')).toMatchObject({ test: true });
    const s = (await email.api('GET', `/api/revenue/summary?days=1&integration_id=${integrationId}`)).body as RevenueSummary;
    expect(s.sending_simulated).toBe(true);
    // Two real contacts came in; nobody received an email, so nobody was reminded.
    expect(s.funnel).toEqual({ contacts: 2, reminded: 0, clicked: 0, purchased: 0 });
    expect(s.integrations.every((i) => i.reminded === 0)).toBe(true);
  }, 60_000);

  it('says Resend is not configured and that reminders are only logged', async () => {
    const r = await email.api('GET', '/api/resend/status');
    expect(r.status).toBe(200);
    expect(r.body as ProviderStatusResponse).toEqual({
      provider: 'resend',
      configured: false,
      waiting: 0,
      simulated: true,
      message: 'Resend is not configured: reminders are only logged (live sending is off), no email reaches a shopper. Set the API key and from-address on the Resend page or RESEND_API_KEY and RESEND_FROM.',
      row_reason: null,
    });
  });

  it('removes the test deliveries in one audited action, and only them', async () => {
    const r = await email.api('POST', '/api/test/clear-test-deliveries', { body: {} });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, cleared: { contacts: 1 } });
    expect((await contacts()).map((c) => c.contact_id).sort()).toEqual(['t-1', 't-2']);
    const record = await waitFor(async () => audit.seen.find((a) => a.route === 'POST /api/test/clear-test-deliveries'), { what: 'the audit record' });
    expect(record).toMatchObject({ target_kind: 'test-deliveries' });
    expect((await email.api('POST', '/api/test/clear-test-deliveries', { body: {}, user: null })).status).toBe(401);
  });
});
