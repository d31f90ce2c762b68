import { randomUUID } from 'node:crypto';
import type { NatsConnection } from 'nats';
import type { RevenueSummary } from '@act/contracts/src/revenue-api';
import { contactCreated, waitFor, HOOK_TIMEOUT_MS } from '../test/helpers';
import { startEmailBesideSms, type EmailBesideSms } from '../test/sms-side';

const DAY = 86_400_000;

/**
 * Recovered revenue through the running svc-email: purchases and reminders arrive as the two services publish them
 * (its own through its outbox, the SMS side's straight onto the stream), the summary is read over HTTP.
 */
describe('recovered revenue (email side)', () => {
  let email: EmailBesideSms;
  let nc: NatsConnection;
  const now = Date.now();
  const at = (msAgo: number) => new Date(now - msAgo).toISOString();

  beforeAll(async () => {
    email = await startEmailBesideSms('revenue');
    nc = email.nc;
  }, HOOK_TIMEOUT_MS);
  afterAll(() => email?.stop());

  const fromSms = (subject: string, payload: Record<string, unknown>) => email.fromSms(subject, payload);
  const smsSend = (funnelId: string, contactId: string, sentAt: string, extra: Record<string, unknown> = {}) =>
    fromSms('send.sms.sent', { channel: 'sms', funnelId, contactId, email: null, phone: '+15550009999', integrationId: 7, campaignId: 70, templateId: 700, step: 1, messageId: `SM${randomUUID()}`, sentAt, ...extra });
  const purchase = (funnelId: string, contactId: string | null, purchasedAt: string, extra: Record<string, unknown> = {}) =>
    fromSms('funnel.purchase.created', { funnelId, contactId, email: null, phone: null, amount: 10, currency: 'USD', purchasedAt, ...extra });
  const summary = async (query = '') => {
    const r = await email.api('GET', `/api/revenue/summary?days=30${query}`);
    expect(r.status).toBe(200);
    return r.body as RevenueSummary;
  };
  const row = (s: RevenueSummary, funnelId: string) => s.integrations.find((i) => i.funnel_id === funnelId);
  /** Waits until the funnel's row shows `purchases` purchases (the consumer is asynchronous). */
  const settled = (funnelId: string, purchases: number, recovered: number, query = '') =>
    waitFor(async () => {
      const s = await summary(query);
      const r = row(s, funnelId);
      return r?.purchases === purchases && r.recovered === recovered ? s : null;
    }, { what: `${purchases} purchase(s) of ${funnelId}, ${recovered} recovered` });

  it('counts a purchase recovered up to exactly the window before it, organic one second beyond', async () => {
    const purchasedAt = now - 60 * 60_000;
    await smsSend('edge', 'in', new Date(purchasedAt - 7 * DAY).toISOString());
    await smsSend('edge', 'out', new Date(purchasedAt - 7 * DAY - 1000).toISOString());
    await purchase('edge', 'in', new Date(purchasedAt).toISOString());
    await purchase('edge', 'out', new Date(purchasedAt).toISOString());
    const s = await settled('edge', 2, 1);
    expect(row(s, 'edge')).toMatchObject({ purchases: 2, recovered: 1, revenue: [{ currency: 'USD', recovered: 10, organic: 10 }] });
    // A wider window (query override) takes the second one too.
    expect(row(await summary('&window_days=8'), 'edge')).toMatchObject({ recovered: 2 });
  });

  it('credits the last reminder before the purchase, or the first with model=first; a reminder after it does not count', async () => {
    await fromSms('send.email.sent', { channel: 'email', funnelId: 'touch', contactId: 'lf', email: 'lf@example.com', phone: null, integrationId: 3, campaignId: 31, templateId: 311, step: 1, messageId: null, sendId: 'x-1', sentAt: at(3 * DAY) });
    await smsSend('touch', 'lf', at(1 * DAY), { campaignId: 41, templateId: 411, step: 2 });
    await smsSend('touch', 'lf', at(1000), { campaignId: 41, templateId: 412, step: 3 }); // after the purchase
    await purchase('touch', 'lf', at(2 * 60 * 60_000), { amount: 99.5, currency: 'EUR' });
    // The three events may be consumed in any order: a touch heard after the purchase still joins it, so wait for
    // the SMS step itself to be credited, not only for the purchase to count as recovered (it may be by 311 first).
    const last = await waitFor(async () => {
      const s = await summary();
      return row(s, 'touch')?.recovered === 1 && s.templates.some((t) => t.template_id === 411) ? s : null;
    }, { what: 'purchase of touch credited to template 411' });
    expect(last.templates.find((t) => t.template_id === 411)).toMatchObject({ channel: 'sms', campaign_id: 41, step: 2, recovered: 1, revenue: [{ currency: 'EUR', amount: 99.5 }] });
    expect(last.templates.some((t) => t.template_id === 412 || t.template_id === 311)).toBe(false);
    const first = await waitFor(async () => {
      const s = await summary('&model=first');
      return s.templates.some((t) => t.template_id === 311) ? s : null;
    }, { what: 'model=first credits template 311' });
    expect(first.model).toBe('first');
    expect(first.templates.find((t) => t.template_id === 311)).toMatchObject({ channel: 'email', campaign_id: 31, step: 1, recovered: 1 });
    expect(first.templates.some((t) => t.template_id === 411)).toBe(false);
  });

  it('a purchase before any reminder, and one for an unknown contact, are organic', async () => {
    await purchase('org', 'early', at(2 * DAY));
    await smsSend('org', 'early', at(DAY));
    await purchase('org', 'nobody-knows', at(DAY), { amount: 5 });
    const s = await settled('org', 2, 0);
    expect(row(s, 'org')).toMatchObject({ purchases: 2, recovered: 0, revenue: [{ currency: 'USD', recovered: 0, organic: 15 }] });
  });

  it('links a reminder that arrives after its purchase, and counts events delivered twice once', async () => {
    const sentAt = at(2 * DAY);
    await purchase('late', 'l-1', at(DAY), { amount: 20 });
    await settled('late', 1, 0);
    await smsSend('late', 'l-1', sentAt, { messageId: 'SM-late-1' });
    await smsSend('late', 'l-1', sentAt, { messageId: 'SM-late-1' }); // the same send, a second event id
    await purchase('late', 'l-1', at(DAY), { amount: 20 }); // the same purchase reported again
    const s = await waitFor(async () => {
      const got = await summary();
      return row(got, 'late')?.recovered === 1 ? got : null;
    }, { what: 'late reminder linked' });
    expect(row(s, 'late')).toMatchObject({ purchases: 1, recovered: 1, reminded: 1, recovery_rate: 1 });
  });

  it('keeps totals per currency', async () => {
    await smsSend('cur', 'c-1', at(DAY));
    await smsSend('cur', 'c-2', at(DAY));
    await purchase('cur', 'c-1', at(DAY - 60_000), { amount: 12.1, currency: 'usd' });
    await purchase('cur', 'c-2', at(DAY - 60_000), { amount: 30, currency: 'GBP' });
    await purchase('cur', 'c-3', at(DAY - 60_000), { amount: 0.2, currency: 'USD' });
    const s = await settled('cur', 3, 2);
    expect(row(s, 'cur')!.revenue).toEqual([
      { currency: 'GBP', recovered: 30, organic: 0 },
      { currency: 'USD', recovered: 12.1, organic: 0.2 },
    ]);
  });

  it('never credits its own would-send reminder: the purchase is organic, shown apart as what it would have been credited', async () => {
    const created = await email.api('POST', '/api/webhook-integrations', { body: { name: 'Own', funnel_id: 'own', reminder_delay: 1 } });
    expect(created.status).toBeLessThan(300);
    const integrationId = (created.body as { id: number }).id;
    await email.api('POST', '/api/webhook', { body: contactCreated('own-1', 'own1@example.com', 'own'), user: null });
    // The reminder (1 "minute" = 1 s here) is logged as would_send: live sending is off in this service.
    await waitFor(async () => {
      const logs = (await email.api('GET', '/api/email-logs')).body as { contact_id: string; status: string }[];
      return logs.some((l) => l.contact_id === 'own-1' && l.status === 'would_send');
    }, { timeoutMs: 20_000, what: 'own reminder logged would_send' });
    const body = { event: 'purchase_created', funnel_id: 'own', contact: { id: 'own-1', email: 'own1@example.com' }, purchase: { amount: 49, currency: 'USD' } };
    expect((await email.api('POST', '/api/webhook', { body, user: null })).status).toBe(200);
    // The funnel also posted it to the SMS side, which relays it.
    await purchase('own', 'own-1', new Date().toISOString(), { email: 'own1@example.com', amount: 49 });
    const s = await waitFor(async () => {
      const got = await summary(`&integration_id=${integrationId}`);
      return got.simulated.recovered === 1 ? got : null;
    }, { timeoutMs: 20_000, what: 'the simulated reminder linked to the purchase' });
    expect(s.sending_simulated).toBe(true);
    expect(s.totals).toMatchObject({ purchases: 1, recovered: 0, organic: 1, by_channel: { email: 0, sms: 0 }, revenue: [{ currency: 'USD', recovered: 0, organic: 49 }] });
    expect(s.simulated).toEqual({ recovered: 1, by_channel: { email: 1, sms: 0 }, revenue: [{ currency: 'USD', amount: 49 }] });
    // Nobody received an email: not reminded, so neither the funnel nor the integration row counts a reminder.
    expect(s.integrations).toEqual([expect.objectContaining({ integration_id: integrationId, name: 'Own', reminded: 0, recovered: 0, purchases: 1 })]);
    expect(s.funnel).toEqual({ contacts: 1, reminded: 0, clicked: 0, purchased: 0 });
    expect(s.templates).toEqual([]);
    const today = s.series.at(-1)!;
    expect(today).toMatchObject({ recovered: 0, email: 0, organic: 1, revenue: [{ currency: 'USD', email: 0, sms: 0, organic: 49 }] });
    // Two seconds on, still one (a late duplicate must not add a second row).
    await new Promise((r) => setTimeout(r, 2000));
    expect((await summary(`&integration_id=${integrationId}`)).totals.purchases).toBe(1);
  }, 60_000);

  it("gives each campaign its distinct contacts reminded and recovery rate; a campaign that recovered nothing shows 0", async () => {
    // Campaign 90 (SMS) reminds four contacts of funnel camp, one of them twice (two steps), every event twice; one buys.
    for (const c of ['k-1', 'k-2', 'k-3', 'k-4'])
      for (const step of c === 'k-1' ? [1, 2] : [1]) {
        const extra = { campaignId: 90, templateId: 900 + step, step, messageId: `SM-camp-${c}-${step}` };
        await smsSend('camp', c, at(2 * DAY), extra);
        await smsSend('camp', c, at(2 * DAY), extra);
      }
    // The same person on another funnel counts there too ("reminded" is per funnel, as on the integration rows).
    await smsSend('camp-2', 'k-1', at(2 * DAY), { campaignId: 90, templateId: 901, step: 1, messageId: 'SM-camp2-k-1' });
    // Campaign 91 (email) reminds one contact, who does not buy.
    await fromSms('send.email.sent', { channel: 'email', funnelId: 'camp', contactId: 'k-9', email: 'k9@example.com', phone: null, integrationId: 3, campaignId: 91, templateId: 911, step: 1, messageId: null, sendId: 'camp-mail-9', sentAt: at(2 * DAY) });
    await purchase('camp', 'k-2', at(DAY), { amount: 40 });
    await settled('camp', 1, 1);
    // The email and the texts come through two consumers (one per subject): wait for both.
    const c90 = await waitFor(async () => {
      const got = await summary();
      const c = got.campaigns.find((x) => x.channel === 'sms' && x.campaign_id === 90);
      return c?.reminded === 5 && got.campaigns.some((x) => x.channel === 'email' && x.campaign_id === 91) && row(got, 'camp')?.reminded === 5 ? got : null;
    }, { what: 'campaign rows with their reminded contacts' });
    expect(row(c90, 'camp')).toMatchObject({ reminded: 5, recovered: 1 });
    expect(c90.campaigns.find((x) => x.channel === 'sms' && x.campaign_id === 90)).toMatchObject({ recovered: 1, reminded: 5, recovery_rate: 0.2, template_id: null, step: null, revenue: [{ currency: 'USD', amount: 40 }] });
    expect(c90.campaigns.find((x) => x.channel === 'email' && x.campaign_id === 91)).toMatchObject({ recovered: 0, reminded: 1, recovery_rate: 0, revenue: [] });
    // The templates table has no reminded count.
    expect(c90.templates.find((t) => t.campaign_id === 90)).toMatchObject({ reminded: null, recovery_rate: null });
    const csv = await email.api('GET', '/api/revenue/summary?days=30&format=csv&table=campaigns');
    const lines = (csv.text ?? '').trim().split('\r\n');
    expect(lines[0]).toBe('channel,campaign_id,recovered,reminded,recovery_rate,currency,revenue');
    expect(lines).toContain('sms,90,1,5,0.2,USD,40');
    expect(lines).toContain('email,91,0,1,0,,0');
  });

  it('answers a table as CSV, one row per currency', async () => {
    const r = await email.api('GET', '/api/revenue/summary?days=30&format=csv&table=integrations');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/text\/csv/);
    const lines = (r.text ?? '').trim().split('\r\n');
    expect(lines[0]).toBe('integration_id,name,funnel_id,purchases,recovered,reminded,recovery_rate,currency,recovered_revenue,organic_revenue');
    expect(lines.filter((l) => l.includes(',cur,'))).toEqual([',Funnel cur,cur,3,2,2,1,GBP,30,0', ',Funnel cur,cur,3,2,2,1,USD,12.1,0.2']);
  });

  it.each([
    ['model=best', 'model must be one of: last, first'],
    ['from=2026-02-30', 'from must be a date (YYYY-MM-DD)'],
    ['from=2026-03-02&to=2026-03-01', 'from must not be after to'],
    ['window_days=0', 'window_days must be between 1 and 90'],
    ['integration_id=abc', 'integration_id must be a number'],
    ['format=xml', 'format must be one of: json, csv'],
  ])('refuses %s with a 400', async (query, message) => {
    const r = await email.api('GET', `/api/revenue/summary?${query}`);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain(message);
  });

  it('answers 404 for an unknown integration and 401 without a user', async () => {
    expect((await email.api('GET', '/api/revenue/summary?integration_id=9999')).status).toBe(404);
    expect((await email.api('GET', '/api/revenue/summary', { user: null })).status).toBe(401);
  });

  it('keeps the attribution window as a setting (admin)', async () => {
    expect((await email.api('GET', '/api/revenue/settings')).body).toEqual({ window_days: 7 });
    expect((await email.api('PUT', '/api/revenue/settings', { body: { window_days: 200 } })).status).toBe(400);
    expect((await email.api('PUT', '/api/revenue/settings', { body: { window_days: 8 } })).body).toEqual({ window_days: 8 });
    expect(row(await summary(), 'edge')).toMatchObject({ recovered: 2 });
  });

  it('Clear All Test Data empties the revenue figures at once and tells the SMS side, whose ledger holds the same facts', async () => {
    expect((await summary()).totals.purchases).toBeGreaterThan(0);
    const told = nc.subscribe(`${email.prefix}send.test-data.cleared`, { max: 1 });
    expect((await email.api('POST', '/api/test/clear-data')).status).toBe(200);
    const s = await summary();
    expect(s.totals).toMatchObject({ purchases: 0, recovered: 0, organic: 0, revenue: [] });
    expect(s.funnel.reminded).toBe(0);
    expect([s.integrations, s.campaigns, s.templates]).toEqual([[], [], []]);
    for await (const m of told) expect(JSON.parse(m.string())).toMatchObject({ source: 'svc-email' });
    expect(told.getProcessed()).toBe(1);
    // Its own consumer takes the same event back without harm: the ledger records what comes after.
    await purchase('after-clear', 'ac-1', at(60_000));
    await settled('after-clear', 1, 0);
  });
});
