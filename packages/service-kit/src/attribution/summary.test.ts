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
      funnel: { contacts: 9, clicked: 1 },
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
    expect(s.funnel).toEqual({ contacts: 9, reminded: 4, clicked: 1, purchased: 5 });
  });
});
