/**
 * Recovered revenue on the SMS side: its own Twilio sends become touches (through its outbox and back from the
 * stream), the email side's sends and purchases arrive from NATS, and the summary is read over HTTP.
 */
import { randomUUID } from 'node:crypto';
import type { RevenueSummary } from '@act/contracts/src/revenue-api';
import { call } from '@act/service-kit/testing';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, postContact, publishEvent, sleep, waitFor } from '../test/helpers';

jest.setTimeout(120_000);

const sms = useSmsWithTwilio('rev');
const fromEmail = (subject: string, payload: Record<string, unknown>) =>
  publishEvent(sms.t.natsPrefix, subject, { eventId: randomUUID(), source: 'svc-email', occurredAt: new Date().toISOString(), ...payload });
const summary = async (query = '') => {
  const r = await call(sms.svc.url, 'GET', `/api/sms/revenue/summary?days=7${query}`);
  expect(r.status).toBe(200);
  return r.body as RevenueSummary;
};

describe('recovered revenue (SMS side)', () => {
  it('credits its own text, and counts a purchase heard on its webhook and from the email side once', async () => {
    const { integration, campaign, templates } = await createFunnel(sms.svc.url, 'rev', [{ message: 'Come back' }]);
    await postContact(sms.svc.url, 'rev', 'r-1', '+15552040001');
    await waitFor(async () => sms.twilio.messages.some((m) => m.to === '+15552040001'), 15_000);
    await waitFor(async () => (await summary(`&integration_id=${integration.id}`)).funnel.reminded === 1, 15_000);
    const purchase = { event_type: 'purchase_created', funnel_id: 'rev', contact_id: 'r-1', amount: 25, currency: 'EUR' };
    expect((await call(sms.svc.url, 'POST', '/api/sms/webhook', { user: null, body: purchase })).status).toBe(200);
    await fromEmail('funnel.purchase.created', { funnelId: 'rev', contactId: 'r-1', email: null, phone: null, amount: 25, currency: 'EUR', purchasedAt: new Date().toISOString() });
    const s = await waitFor(async () => {
      const got = await summary(`&integration_id=${integration.id}`);
      return got.totals.recovered === 1 ? got : null;
    }, 15_000);
    await sleep(1_500);
    const again = await summary(`&integration_id=${integration.id}`);
    expect(again.totals).toEqual(s.totals);
    expect(s.totals).toMatchObject({ purchases: 1, recovered: 1, by_channel: { email: 0, sms: 1 }, revenue: [{ currency: 'EUR', recovered: 25, organic: 0 }] });
    expect(s.templates[0]).toMatchObject({ channel: 'sms', campaign_id: campaign.id, template_id: templates[0].id, step: 1, recovered: 1 });
    expect(s.integrations[0]).toMatchObject({ integration_id: integration.id, name: 'Integration rev', reminded: 1, recovery_rate: 1 });
    // Its campaign: the one contact it reminded, recovered.
    expect(s.campaigns).toEqual([expect.objectContaining({ channel: 'sms', campaign_id: campaign.id, recovered: 1, reminded: 1, recovery_rate: 1 })]);
    expect(s.funnel).toMatchObject({ contacts: 1, reminded: 1, clicked: null, purchased: 1 });
  });

  it('counts SMS data only: a purchase an email recovered is not credited here, and no email-only funnel is listed', async () => {
    const { integration } = await createFunnel(sms.svc.url, 'both', [{ message: 'Hello' }]);
    const text = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const mail = new Date(Date.now() - 3_600_000).toISOString();
    // An email-only funnel's organic purchase and its email recovery: nothing of it belongs on the SMS page.
    await fromEmail('send.email.sent', { channel: 'email', funnelId: 'mail-only', contactId: 'm-1', email: 'm1@example.com', phone: null, integrationId: 5, campaignId: 41, templateId: 410, step: 1, messageId: 'resend-m1', sendId: 'k-m1', sentAt: mail });
    await fromEmail('funnel.purchase.created', { funnelId: 'mail-only', contactId: 'm-1', email: null, phone: null, amount: 30, currency: 'USD', purchasedAt: new Date().toISOString() });
    await fromEmail('funnel.purchase.created', { funnelId: 'mail-only', contactId: 'm-2', email: null, phone: null, amount: 5, currency: 'USD', purchasedAt: new Date().toISOString() });
    await fromEmail('send.sms.sent', { channel: 'sms', funnelId: 'both', contactId: 'b-1', email: null, phone: '+15552040101', integrationId: integration.id, campaignId: 50, templateId: 500, step: 1, messageId: 'SM-both-1', sentAt: text });
    await fromEmail('send.email.sent', { channel: 'email', funnelId: 'both', contactId: 'b-1', email: 'b1@example.com', phone: null, integrationId: 4, campaignId: 40, templateId: 400, step: 1, messageId: 'resend-b1', sendId: 'k-b1', sentAt: mail });
    await fromEmail('funnel.purchase.created', { funnelId: 'both', contactId: 'b-1', email: null, phone: null, amount: 10, currency: 'USD', purchasedAt: new Date().toISOString() });
    // First touch: the text is credited, so the ledger holds the purchase with both its touches.
    const first = await waitFor(async () => {
      const got = await summary(`&model=first&integration_id=${integration.id}`);
      return got.totals.recovered === 1 && got.templates.length === 1 ? got : null;
    }, 15_000);
    expect(first.totals).toMatchObject({ purchases: 1, recovered: 1, by_channel: { email: 0, sms: 1 } });
    // Last touch: the email recovered it; the SMS page neither credits it nor calls it organic.
    const last = await summary(`&integration_id=${integration.id}`);
    expect(last.channel).toBe('sms');
    expect(last.totals).toMatchObject({ purchases: 0, recovered: 0, organic: 0, by_channel: { email: 0, sms: 0 } });
    expect(last.templates).toEqual([]);
    const all = await summary();
    expect(all.integrations.map((i) => i.funnel_id)).not.toContain('mail-only');
    expect(all.campaigns.every((c) => c.channel === 'sms') && all.templates.every((t) => t.channel === 'sms')).toBe(true);
    const csv = await call(sms.svc.url, 'GET', '/api/sms/revenue/summary?days=7&format=csv&table=templates');
    expect(csv.status).toBe(200);
    expect(csv.text).not.toContain('email,');
  });

  it('counts the contacts each campaign reminded, once each however many texts, and its recovery rate', async () => {
    const sentAt = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const text = (contactId: string, step: number, funnelId = 'crate') =>
      fromEmail('send.sms.sent', { channel: 'sms', funnelId, contactId, email: null, phone: `+1555206${contactId.slice(-4)}`, integrationId: 8, campaignId: 80, templateId: 800 + step, step, messageId: `SM-crate-${funnelId}-${contactId}-${step}`, sentAt });
    for (const c of ['0001', '0002', '0003']) await text(`c-${c}`, 1);
    await text('c-0001', 2);
    await text('c-0001', 2); // the same send heard twice
    await fromEmail('funnel.purchase.created', { funnelId: 'crate', contactId: 'c-0003', email: null, phone: null, amount: 12, currency: 'USD', purchasedAt: new Date().toISOString() });
    const s = await waitFor(async () => {
      const got = await summary();
      const row = got.campaigns.find((c) => c.channel === 'sms' && c.campaign_id === 80);
      return row?.recovered === 1 && row.reminded === 3 ? got : null;
    }, 15_000);
    expect(s.campaigns.find((c) => c.campaign_id === 80)).toMatchObject({ reminded: 3, recovered: 1, recovery_rate: 0.3333, revenue: [{ currency: 'USD', amount: 12 }] });
  });

  it("empties its ledger when the email side's Clear All Test Data says so, and keeps recording after", async () => {
    expect((await summary()).totals.purchases).toBeGreaterThan(0);
    await fromEmail('send.test-data.cleared', {});
    await waitFor(async () => {
      const s = await summary();
      return s.totals.purchases === 0 && s.campaigns.length === 0 && s.templates.length === 0;
    }, 15_000);
    await fromEmail('funnel.purchase.created', { funnelId: 'rev', contactId: 'a-1', email: null, phone: null, amount: 3, currency: 'USD', purchasedAt: new Date().toISOString() });
    await waitFor(async () => (await summary()).totals.purchases === 1, 15_000);
  });

  it('refuses a bad query with a 400', async () => {
    const r = await call(sms.svc.url, 'GET', '/api/sms/revenue/summary?table=everything');
    expect(r.status).toBe(400);
    expect(r.body.error ?? r.body.message).toContain('table must be one of');
  });
});
