import { blackoutEnd, isInBlackout, nextAllowedSendTime, type BlackoutWindow } from './blackout';

const ny: BlackoutWindow = { enabled: true, startHour: 22, endHour: 8, timezone: 'America/New_York' };
const at = (iso: string) => new Date(iso);

describe('blackout window across midnight (22 -> 8)', () => {
  it('holds a message at 23:30 New York until 08:00 the next morning', () => {
    // 2026-01-15 23:30 EST = 04:30Z on the 16th
    expect(blackoutEnd(at('2026-01-16T04:30:00Z'), ny)?.toISOString()).toBe('2026-01-16T13:00:00.000Z');
  });
  it('holds a message at 03:00 until 08:00 the same day', () => {
    expect(blackoutEnd(at('2026-01-16T08:00:00Z'), ny)?.toISOString()).toBe('2026-01-16T13:00:00.000Z');
  });
  it('starts at 22:00 sharp and ends at 08:00 sharp', () => {
    expect(isInBlackout(at('2026-01-16T02:59:59Z'), ny)).toBe(false); // 21:59:59 EST
    expect(isInBlackout(at('2026-01-16T03:00:00Z'), ny)).toBe(true); // 22:00 EST
    expect(isInBlackout(at('2026-01-16T12:59:59Z'), ny)).toBe(true); // 07:59:59 EST
    expect(isInBlackout(at('2026-01-16T13:00:00Z'), ny)).toBe(false); // 08:00 EST
  });
  it('lets daytime messages through unchanged', () => {
    const noon = at('2026-01-16T17:00:00Z');
    expect(blackoutEnd(noon, ny)).toBeNull();
    expect(nextAllowedSendTime(noon, ny)).toBe(noon);
  });
  it('reads hours on the wall clock of the chosen zone, not UTC', () => {
    // 05:00Z is 23:00 in Chicago (blackout) but 21:00 in Los Angeles... and midnight in New York.
    const t = at('2026-01-16T05:00:00Z');
    expect(isInBlackout(t, { ...ny, timezone: 'America/Chicago' })).toBe(true);
    expect(isInBlackout(t, { ...ny, timezone: 'America/Los_Angeles' })).toBe(false);
    expect(blackoutEnd(t, { ...ny, timezone: 'America/Chicago' })?.toISOString()).toBe('2026-01-16T14:00:00.000Z');
  });
  it('works in every zone of the settings list', () => {
    const zones: [string, string, string][] = [
      // zone, a 23:00 local instant, expected 08:00 local next day
      ['America/Denver', '2026-01-16T06:00:00Z', '2026-01-16T15:00:00.000Z'],
      ['America/Phoenix', '2026-07-16T06:00:00Z', '2026-07-16T15:00:00.000Z'], // no DST: MST all year
      ['America/Anchorage', '2026-01-16T08:00:00Z', '2026-01-16T17:00:00.000Z'],
      ['Pacific/Honolulu', '2026-01-16T09:00:00Z', '2026-01-16T18:00:00.000Z'],
      ['UTC', '2026-01-16T23:00:00Z', '2026-01-17T08:00:00.000Z'],
    ];
    for (const [timezone, now, end] of zones)
      expect(blackoutEnd(at(now), { ...ny, timezone })?.toISOString()).toBe(end);
  });
});

describe('daylight saving', () => {
  it('spring forward (New York, 8 March 2026): a night of 9 hours ends at 08:00 EDT', () => {
    // 22:30 EST on 7 March = 03:30Z on the 8th; 08:00 EDT on the 8th = 12:00Z
    expect(blackoutEnd(at('2026-03-08T03:30:00Z'), ny)?.toISOString()).toBe('2026-03-08T12:00:00.000Z');
  });
  it('fall back (New York, 1 November 2026): a night of 11 hours ends at 08:00 EST', () => {
    // 22:30 EDT on 31 October = 02:30Z on 1 November; 08:00 EST = 13:00Z
    expect(blackoutEnd(at('2026-11-01T02:30:00Z'), ny)?.toISOString()).toBe('2026-11-01T13:00:00.000Z');
  });
  it('the repeated 01:xx hour of fall back is inside the window both times', () => {
    expect(isInBlackout(at('2026-11-01T05:30:00Z'), ny)).toBe(true); // 01:30 EDT
    expect(isInBlackout(at('2026-11-01T06:30:00Z'), ny)).toBe(true); // 01:30 EST
  });
  it('an end hour that does not exist locally resolves past the gap', () => {
    const w: BlackoutWindow = { enabled: true, startHour: 0, endHour: 2, timezone: 'America/New_York' };
    // 00:30 EST on 8 March; 02:00 does not exist that night, so the window ends at 03:00 EDT = 07:00Z
    expect(blackoutEnd(at('2026-03-08T05:30:00Z'), w)?.toISOString()).toBe('2026-03-08T07:00:00.000Z');
  });
  it('Los Angeles across its own switch', () => {
    const la = { ...ny, timezone: 'America/Los_Angeles' };
    // 23:00 PST on 7 March = 07:00Z on the 8th -> 08:00 PDT = 15:00Z
    expect(blackoutEnd(at('2026-03-08T07:00:00Z'), la)?.toISOString()).toBe('2026-03-08T15:00:00.000Z');
  });
});

describe('other windows', () => {
  it('a same-day window (9 -> 17)', () => {
    const w: BlackoutWindow = { enabled: true, startHour: 9, endHour: 17, timezone: 'UTC' };
    expect(blackoutEnd(at('2026-01-16T12:00:00Z'), w)?.toISOString()).toBe('2026-01-16T17:00:00.000Z');
    expect(isInBlackout(at('2026-01-16T08:59:00Z'), w)).toBe(false);
    expect(isInBlackout(at('2026-01-16T17:00:00Z'), w)).toBe(false);
  });
  it('disabled or empty windows hold nothing back', () => {
    const night = at('2026-01-16T04:30:00Z');
    expect(blackoutEnd(night, { ...ny, enabled: false })).toBeNull();
    expect(blackoutEnd(night, { ...ny, startHour: 5, endHour: 5 })).toBeNull();
  });
});
