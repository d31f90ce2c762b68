import { capLookbackStart, FREQUENCY_CAP_DEFAULT, frequencyCapDecision, type RecentTouch } from './frequency-cap';

const t0 = new Date('2026-05-01T12:00:00Z');
const plus = (min: number) => new Date(t0.getTime() + min * 60_000);

describe('frequency cap across channels and campaigns', () => {
  it('is off by default: nothing is held, no touches are read', () => {
    expect(frequencyCapDecision(plus(1), FREQUENCY_CAP_DEFAULT, [{ channel: 'email', sentAt: t0 }])).toEqual({
      action: 'send',
    });
    expect(capLookbackStart(t0, FREQUENCY_CAP_DEFAULT)).toBeNull();
    expect(capLookbackStart(t0, { hours: 0 })).toBeNull();
  });

  it('an email and an SMS due to one person within the cap: the second is held and sent after', () => {
    const cap = { hours: 4 };
    const touches: RecentTouch[] = [];
    // The email is due first: nothing went out yet, it goes.
    expect(frequencyCapDecision(t0, cap, touches)).toEqual({ action: 'send' });
    touches.push({ channel: 'email', sentAt: t0, campaignId: 3 });
    // The SMS of another campaign is due ten minutes later: held until four hours after the email.
    const held = frequencyCapDecision(plus(10), cap, touches);
    expect(held).toEqual({
      action: 'hold',
      until: plus(240),
      rule: 'frequency_cap',
      reason:
        'frequency cap: an email went out at 2026-05-01T12:00:00.000Z; at most one message per 4 h, held until 2026-05-01T16:00:00.000Z',
    });
    // Due again at the end of the window, it goes.
    expect(frequencyCapDecision(held.action === 'hold' ? held.until : t0, cap, touches)).toEqual({ action: 'send' });
    expect(frequencyCapDecision(plus(239), cap, touches).action).toBe('hold');
  });

  it('the latest message opens the window; simulated sends and older ones do not count', () => {
    const cap = { hours: 2 };
    const touches: RecentTouch[] = [
      { channel: 'sms', sentAt: plus(-200) },
      { channel: 'sms', sentAt: plus(-30) },
      { channel: 'email', sentAt: plus(-90) },
      { channel: 'email', sentAt: plus(-5), simulated: true },
    ];
    expect(frequencyCapDecision(t0, cap, touches)).toMatchObject({ action: 'hold', until: plus(90) });
    expect(frequencyCapDecision(t0, cap, [touches[0]!, touches[3]!])).toEqual({ action: 'send' });
  });

  it('a message another instance sent after the decision time still holds this one', () => {
    expect(frequencyCapDecision(t0, { hours: 1 }, [{ channel: 'sms', sentAt: plus(1) }])).toMatchObject({
      action: 'hold',
      until: plus(61),
    });
  });
});
