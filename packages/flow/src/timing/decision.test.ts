import { firstAllowed, laterHold, SEND } from './decision';
import { frequencyCapDecision } from './frequency-cap';
import { quietHoursDecision } from './quiet-hours';

const at = (iso: string) => new Date(iso);

describe('holds of several rules', () => {
  it('the later hold wins', () => {
    const a = { action: 'hold' as const, until: at('2026-01-01T08:00:00Z'), rule: 'quiet_hours' as const, reason: 'a' };
    const b = {
      action: 'hold' as const,
      until: at('2026-01-01T09:00:00Z'),
      rule: 'frequency_cap' as const,
      reason: 'b',
    };
    expect(laterHold(a, b)).toBe(b);
    expect(laterHold(SEND, a)).toBe(a);
    expect(laterHold(SEND, SEND)).toBe(SEND);
  });

  it('a cap ending inside quiet hours waits for their end too', () => {
    const ny = { zone: 'America/New_York', basis: 'phone' as const };
    const night = { enabled: true, startHour: 22, endHour: 8 };
    const emailSent = at('2026-03-02T00:30:00Z'); // 19:30 in New York
    const due = at('2026-03-02T01:00:00Z'); // 20:00: the 4-hour cap ends at 23:30, inside the night
    const d = firstAllowed(due, (t) => [
      quietHoursDecision(t, night, ny),
      frequencyCapDecision(t, { hours: 4 }, [{ channel: 'email', sentAt: emailSent }]),
    ]);
    expect(d).toMatchObject({ action: 'hold', until: at('2026-03-02T13:00:00Z'), rule: 'quiet_hours' });
    expect(firstAllowed(at('2026-03-02T14:00:00Z'), (t) => [quietHoursDecision(t, night, ny)])).toEqual(SEND);
  });
});
