import {
  EMAIL_QUIET_HOURS_DEFAULT,
  inQuietHours,
  quietHoursDecision,
  quietHoursEnd,
  type QuietHours,
} from './quiet-hours';
import { recipientZone } from './zone';

const night: QuietHours = { enabled: true, startHour: 22, endHour: 8 };
const at = (iso: string) => new Date(iso);

describe('quiet hours in the recipient zone', () => {
  it('holds a +61 phone at 03:00 Sydney until the window ends, whatever the integration zone', () => {
    const sydney = recipientZone({ phone: '+61412345678' }, 'America/New_York');
    const now = at('2026-01-14T16:00:00Z'); // 03:00 in Sydney (AEDT, +11)
    const d = quietHoursDecision(now, night, sydney);
    expect(d).toEqual({
      action: 'hold',
      until: at('2026-01-14T21:00:00Z'), // 08:00 Sydney
      rule: 'quiet_hours',
      reason: 'quiet hours in Australia/Sydney (from the phone number): held until 08:00 local time',
    });
    // At the end of the window it goes.
    expect(quietHoursDecision(at('2026-01-14T21:00:00Z'), night, sydney)).toEqual({ action: 'send' });
  });

  it('a 212 and a 415 number at the same instant: New York is held, San Francisco is not', () => {
    const now = at('2026-03-02T04:30:00Z'); // 23:30 in New York, 20:30 in San Francisco
    const ny = recipientZone({ phone: '+12125550100' }, 'UTC');
    const sf = recipientZone({ phone: '+14155550100' }, 'UTC');
    expect(quietHoursDecision(now, night, ny)).toMatchObject({ action: 'hold', until: at('2026-03-02T13:00:00Z') });
    expect(quietHoursDecision(now, night, sf)).toEqual({ action: 'send' });
    // Three hours later it is night in San Francisco too, held until 08:00 there.
    expect(quietHoursDecision(at('2026-03-02T07:30:00Z'), night, sf)).toMatchObject({
      action: 'hold',
      until: at('2026-03-02T16:00:00Z'),
    });
  });

  it('New York spring forward: the night is an hour shorter in UTC; an end hour the day skips is 03:00', () => {
    // 2026-03-08: 02:00 EST becomes 03:00 EDT. 23:00 EST on the 7th → 08:00 EDT on the 8th = 12:00Z.
    expect(quietHoursEnd(at('2026-03-08T04:00:00Z'), night, 'America/New_York')).toEqual(at('2026-03-08T12:00:00Z'));
    const toTwo: QuietHours = { enabled: true, startHour: 0, endHour: 2 };
    // 01:30 EST on the 8th: 02:00 does not exist that day, the window ends at 03:00 EDT = 07:00Z.
    expect(quietHoursEnd(at('2026-03-08T06:30:00Z'), toTwo, 'America/New_York')).toEqual(at('2026-03-08T07:00:00Z'));
  });

  it('New York fall back: the night is an hour longer in UTC', () => {
    // 2026-11-01: 02:00 EDT becomes 01:00 EST. 23:00 EDT on Oct 31 (03:00Z) → 08:00 EST = 13:00Z.
    expect(quietHoursEnd(at('2026-11-01T03:00:00Z'), night, 'America/New_York')).toEqual(at('2026-11-01T13:00:00Z'));
    // 07:30 EST is still inside; 08:00 EST is not.
    expect(inQuietHours(at('2026-11-01T12:30:00Z'), night, 'America/New_York')).toBe(true);
    expect(inQuietHours(at('2026-11-01T13:00:00Z'), night, 'America/New_York')).toBe(false);
  });

  it('Sydney daylight saving ends (April) and starts (October)', () => {
    // 2026-04-05: 03:00 AEDT becomes 02:00 AEST. 23:00 AEDT on the 4th (12:00Z) → 08:00 AEST (+10) = 22:00Z.
    expect(quietHoursEnd(at('2026-04-04T12:00:00Z'), night, 'Australia/Sydney')).toEqual(at('2026-04-04T22:00:00Z'));
    // 2026-10-04: 02:00 AEST becomes 03:00 AEDT. 23:00 AEST on the 3rd (13:00Z) → 08:00 AEDT (+11) = 21:00Z.
    expect(quietHoursEnd(at('2026-10-03T13:00:00Z'), night, 'Australia/Sydney')).toEqual(at('2026-10-03T21:00:00Z'));
    const sydney = { zone: 'Australia/Sydney', basis: 'phone' as const };
    expect(quietHoursDecision(at('2026-10-03T20:59:00Z'), night, sydney).action).toBe('hold');
    expect(quietHoursDecision(at('2026-10-03T21:00:00Z'), night, sydney).action).toBe('send');
  });

  it('a window inside one day, an empty window, a window turned off', () => {
    const day: QuietHours = { enabled: true, startHour: 9, endHour: 17 };
    expect(quietHoursEnd(at('2026-06-01T12:00:00Z'), day, 'UTC')).toEqual(at('2026-06-01T17:00:00Z'));
    expect(quietHoursEnd(at('2026-06-01T17:00:00Z'), day, 'UTC')).toBeNull();
    expect(inQuietHours(at('2026-06-01T03:00:00Z'), { ...night, startHour: 5, endHour: 5 }, 'UTC')).toBe(false);
    expect(inQuietHours(at('2026-06-01T03:00:00Z'), { ...night, enabled: false }, 'UTC')).toBe(false);
  });

  it("email's own quiet hours are off by default; the same function holds when an account turns them on", () => {
    const sydney = { zone: 'Australia/Sydney', basis: 'billing_address' as const };
    const three = at('2026-01-14T16:00:00Z');
    expect(quietHoursDecision(three, EMAIL_QUIET_HOURS_DEFAULT, sydney)).toEqual({ action: 'send' });
    expect(quietHoursDecision(three, { ...EMAIL_QUIET_HOURS_DEFAULT, enabled: true }, sydney)).toMatchObject({
      action: 'hold',
      until: at('2026-01-14T21:00:00Z'),
      reason: 'quiet hours in Australia/Sydney (from the billing address): held until 08:00 local time',
    });
  });
});
