import { buyerKeys, creditedTouch, DAY_MS, purchaseFingerprint, type Touch } from '@act/contracts/src/attribution';
import { summarize } from './summary';

const at = Date.parse('2026-03-10T12:00:00Z');
const touch = (key: string, msBefore: number, extra: Partial<Touch> = {}): Touch => ({
  key,
  channel: 'email',
  funnelId: 'f',
  integrationId: 1,
  campaignId: 1,
  templateId: 1,
  step: 1,
  sentAt: new Date(at - msBefore),
  ...extra,
});

describe('the attribution rule', () => {
  it('takes touches from exactly the window before the purchase up to the purchase itself', () => {
    expect(creditedTouch(new Date(at), [touch('a', 7 * DAY_MS)], 7, 'last')?.key).toBe('a');
    expect(creditedTouch(new Date(at), [touch('a', 0)], 7, 'last')?.key).toBe('a');
    expect(creditedTouch(new Date(at), [touch('a', 7 * DAY_MS + 1)], 7, 'last')).toBeNull();
    expect(creditedTouch(new Date(at), [touch('a', -1)], 7, 'last')).toBeNull();
  });

  it('last or first touch; equal times go to the smaller key whatever the order', () => {
    const ts = [touch('b', DAY_MS), touch('a', 3 * DAY_MS), touch('c', DAY_MS)];
    expect(creditedTouch(new Date(at), ts, 7, 'last')?.key).toBe('b');
    expect(creditedTouch(new Date(at), [...ts].reverse(), 7, 'last')?.key).toBe('b');
    expect(creditedTouch(new Date(at), ts, 7, 'first')?.key).toBe('a');
    expect(creditedTouch(new Date(at), ts, 2, 'first')?.key).toBe('b');
  });

  it('knows a contact by funnel contact id, email in any case, or the last ten digits of a phone', () => {
    expect(buyerKeys({ funnelId: 'f', contactId: 'c1', email: ' A@B.com ', phone: '+1 (555) 000-1111' })).toEqual(['c:f:c1', 'e:a@b.com', 'p:5550001111']);
    expect(buyerKeys({ funnelId: null, contactId: null, email: null, phone: '12' })).toEqual([]);
    expect(purchaseFingerprint({ funnelId: 'f', contactId: null, email: 'a@b.com', phone: null, amount: 5, currency: 'usd' })).toBe('e:a@b.com|5|USD');
  });
});

describe('summarize', () => {
  it('keeps money per currency, splits by channel and day, and ranks templates', () => {
    const s = summarize({
      from: new Date('2026-03-09T00:00:00Z'),
      until: new Date('2026-03-11T00:00:00Z'),
      model: 'last',
      windowDays: 7,
      integrations: new Map([['f', { id: 1, name: 'Shop' }]]),
      reminded: new Map([['f', 4]]),
      funnel: { contacts: 9, reminded: 4, clicked: 1, purchased: 3 },
      purchases: [
        { funnelId: 'f', amount: 10.1, currency: 'USD', purchasedAt: new Date(at), touches: [touch('e', DAY_MS)] },
        { funnelId: 'f', amount: 0.2, currency: 'USD', purchasedAt: new Date(at), touches: [touch('e2', DAY_MS)] },
        { funnelId: 'f', amount: 7, currency: 'EUR', purchasedAt: new Date(at), touches: [touch('s', DAY_MS, { channel: 'sms', templateId: 9, step: 2 })] },
        { funnelId: 'f', amount: 3, currency: 'USD', purchasedAt: new Date(at - DAY_MS), touches: [] },
        { funnelId: null, amount: null, currency: null, purchasedAt: new Date(at), touches: [] },
      ],
    });
    expect(s.totals).toEqual({
      purchases: 5,
      recovered: 3,
      organic: 2,
      by_channel: { email: 2, sms: 1 },
      revenue: [
        { currency: null, recovered: 0, organic: 0 },
        { currency: 'EUR', recovered: 7, organic: 0 },
        { currency: 'USD', recovered: 10.3, organic: 3 },
      ],
    });
    expect(s.series.map((d) => [d.date, d.email, d.sms, d.organic])).toEqual([
      ['2026-03-09', 0, 0, 1],
      ['2026-03-10', 2, 1, 1],
    ]);
    expect(s.templates.map((t) => [t.channel, t.template_id, t.recovered])).toEqual([
      ['email', 1, 2],
      ['sms', 9, 1],
    ]);
    expect(s.integrations[0]).toMatchObject({ name: 'Shop', purchases: 4, recovered: 3, reminded: 4, recovery_rate: 0.75 });
    expect(s.integrations[1]).toMatchObject({ funnel_id: null, name: 'No funnel', purchases: 1, recovered: 0 });
    expect(s.funnel).toEqual({ contacts: 9, reminded: 4, clicked: 1, purchased: 3 });
    expect(s.simulated).toEqual({ recovered: 0, by_channel: { email: 0, sms: 0 }, revenue: [] });
  });

  const base = {
    from: new Date('2026-03-09T00:00:00Z'),
    until: new Date('2026-03-11T00:00:00Z'),
    model: 'last' as const,
    windowDays: 7,
    integrations: new Map([['f', { id: 1, name: 'Shop' }]]),
    reminded: new Map([['f', 1]]),
    funnel: { contacts: 2, reminded: 1, clicked: null, purchased: 1 },
  };

  it('never credits a simulated reminder: the purchase stays organic and is shown apart as what would have been credited', () => {
    const s = summarize({
      ...base,
      sendingSimulated: true,
      purchases: [
        { funnelId: 'f', amount: 149.5, currency: 'USD', purchasedAt: new Date(at), touches: [touch('sim', DAY_MS, { simulated: true })] },
        // A real reminder before a later simulated one: the real one is credited, nothing is simulated.
        { funnelId: 'f', amount: 5, currency: 'USD', purchasedAt: new Date(at), touches: [touch('real', 2 * DAY_MS), touch('sim2', DAY_MS, { simulated: true })] },
      ],
    });
    expect(s.totals).toMatchObject({ purchases: 2, recovered: 1, organic: 1, by_channel: { email: 1, sms: 0 }, revenue: [{ currency: 'USD', recovered: 5, organic: 149.5 }] });
    expect(s.simulated).toEqual({ recovered: 1, by_channel: { email: 1, sms: 0 }, revenue: [{ currency: 'USD', amount: 149.5 }] });
    expect(s.templates.map((t) => t.recovered)).toEqual([1]);
    expect(s.sending_simulated).toBe(true);
  });

  it('limited to one channel: purchases the other channel recovered and other funnels are left out', () => {
    const s = summarize({
      ...base,
      channel: 'sms',
      reminded: new Map<string | null, number>([['f', 1], ['email-only', 3], [null, 2]]),
      campaignReminded: new Map([['sms|5', 1], ['email|1', 3]]),
      purchases: [
        { funnelId: 'f', amount: 10, currency: 'USD', purchasedAt: new Date(at), touches: [touch('s', 2 * DAY_MS, { channel: 'sms', campaignId: 5 })] },
        { funnelId: 'f', amount: 20, currency: 'USD', purchasedAt: new Date(at), touches: [touch('s2', 2 * DAY_MS, { channel: 'sms', campaignId: 5 }), touch('e', DAY_MS)] },
        { funnelId: 'email-only', amount: 30, currency: 'USD', purchasedAt: new Date(at), touches: [] },
        { funnelId: 'f', amount: 1, currency: 'USD', purchasedAt: new Date(at), touches: [] },
      ],
    });
    expect(s.channel).toBe('sms');
    expect(s.totals).toMatchObject({ purchases: 2, recovered: 1, organic: 1, by_channel: { email: 0, sms: 1 } });
    expect(s.integrations.map((i) => [i.name, i.purchases, i.recovered, i.reminded])).toEqual([['Shop', 2, 1, 1]]);
    expect(s.campaigns.map((c) => [c.channel, c.campaign_id])).toEqual([['sms', 5]]);
  });
});
