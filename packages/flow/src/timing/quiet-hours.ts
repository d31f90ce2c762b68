import { DateTime } from 'luxon';
import { SEND, type TimingDecision } from './decision';
import { describeZone, type RecipientZone } from './zone';

/** Quiet hours as an account sets them; the zone is the recipient's, not the account's. */
export interface QuietHours {
  enabled: boolean;
  /** Local hour (0-23) at which sending stops. */
  startHour: number;
  /** Local hour (0-23) at which sending resumes. */
  endHour: number;
}

/** Email's quiet hours until an account turns them on: the same window as the SMS blackout's default (22:00-08:00), off. */
export const EMAIL_QUIET_HOURS_DEFAULT: QuietHours = Object.freeze({ enabled: false, startHour: 22, endHour: 8 });

const validHour = (h: number): boolean => Number.isInteger(h) && h >= 0 && h <= 23;

/**
 * Whether `at` falls inside the window, read on the wall clock of `zone` (a daylight-saving switch moves the window
 * with local time). start > end spans midnight (22 → 8 is 22:00-07:59); start === end is an empty window (a
 * 24-hour one would never send at all).
 */
export function inQuietHours(at: Date, w: QuietHours, zone: string): boolean {
  if (!w.enabled || w.startHour === w.endHour || !validHour(w.startHour) || !validHour(w.endHour)) return false;
  const h = DateTime.fromJSDate(at, { zone }).hour;
  return w.startHour < w.endHour ? h >= w.startHour && h < w.endHour : h >= w.startHour || h < w.endHour;
}

/**
 * The instant the window `at` falls in ends (the next local `endHour:00`), or null outside it. An end hour that a
 * spring-forward day skips (02:00 in New York) is the first instant after the gap (03:00); on a fall-back day an
 * end hour that happens twice is its first occurrence.
 */
export function quietHoursEnd(at: Date, w: QuietHours, zone: string): Date | null {
  if (!inQuietHours(at, w, zone)) return null;
  const local = DateTime.fromJSDate(at, { zone });
  // Before midnight in a window that spans it, the end is tomorrow; otherwise it is today.
  const day = w.startHour > w.endHour && local.hour >= w.startHour ? local.plus({ days: 1 }) : local;
  return DateTime.fromObject({ year: day.year, month: day.month, day: day.day, hour: w.endHour }, { zone }).toJSDate();
}

/** Send now, or hold until the recipient's quiet hours end, with the timeline's words. */
export function quietHoursDecision(at: Date, w: QuietHours, recipient: RecipientZone): TimingDecision {
  const until = quietHoursEnd(at, w, recipient.zone);
  if (!until) return SEND;
  const end = DateTime.fromJSDate(until, { zone: recipient.zone }).toFormat('HH:mm');
  return {
    action: 'hold',
    until,
    rule: 'quiet_hours',
    reason: `quiet hours in ${describeZone(recipient)}: held until ${end} local time`,
  };
}
