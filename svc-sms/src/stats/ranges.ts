import { DateTime } from 'luxon';
import type { SmsDateRange } from '@act/contracts/src/sms-api';

export interface StatsRange {
  /** Inclusive start (local midnight of the first day). */
  from: Date;
  /** Exclusive end (local midnight after the last day). */
  to: Date;
  /** Local calendar days of the range, oldest first, as YYYY-MM-DD. */
  days: string[];
}

const DAYS: Record<SmsDateRange, number> = {
  today: 1,
  yesterday: 1,
  last_7_days: 7,
  last_28_days: 28,
  last_90_days: 90,
};

/**
 * Whole local days in `timezone` (the blackout timezone setting): today, yesterday, or the last N days including
 * today. Days are built from calendar dates, so a 23- or 25-hour DST day is still one day.
 */
export function statsRange(range: SmsDateRange, now: Date, timezone: string): StatsRange {
  const today = DateTime.fromJSDate(now, { zone: timezone }).startOf('day');
  const lastDay = range === 'yesterday' ? today.minus({ days: 1 }) : today;
  const first = lastDay.minus({ days: DAYS[range] - 1 });
  const days: string[] = [];
  for (let d = first; d <= lastDay; d = d.plus({ days: 1 })) days.push(d.toISODate()!);
  return { from: first.toJSDate(), to: lastDay.plus({ days: 1 }).toJSDate(), days };
}

/** The local calendar day of an instant. */
export function localDay(at: Date, timezone: string): string {
  return DateTime.fromJSDate(at, { zone: timezone }).toISODate()!;
}
