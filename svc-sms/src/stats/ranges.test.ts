import { localDay, statsRange } from './ranges';

describe('stats date ranges', () => {
  const now = new Date('2026-03-10T03:30:00Z'); // 23:30 on 9 March in New York

  it('today is the local day of the blackout timezone, not the UTC day', () => {
    const r = statsRange('today', now, 'America/New_York');
    expect(r.days).toEqual(['2026-03-09']);
    expect(r.from.toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(r.to.toISOString()).toBe('2026-03-10T04:00:00.000Z');
    expect(statsRange('today', now, 'UTC').days).toEqual(['2026-03-10']);
  });
  it('yesterday', () => {
    const r = statsRange('yesterday', now, 'America/New_York');
    expect(r.days).toEqual(['2026-03-08']);
    // 8 March 2026 is the spring-forward day: 23 hours long.
    expect((r.to.getTime() - r.from.getTime()) / 3_600_000).toBe(23);
  });
  it('the last N days include today', () => {
    const r = statsRange('last_7_days', now, 'America/New_York');
    expect(r.days).toEqual([
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
    ]);
    expect(statsRange('last_28_days', now, 'UTC').days).toHaveLength(28);
    expect(statsRange('last_90_days', now, 'UTC').days).toHaveLength(90);
  });
  it('buckets instants by local day', () => {
    expect(localDay(now, 'America/New_York')).toBe('2026-03-09');
    expect(localDay(now, 'Pacific/Honolulu')).toBe('2026-03-09');
    expect(localDay(now, 'UTC')).toBe('2026-03-10');
  });
});
