import { DateTime } from 'luxon';

export interface BlackoutWindow {
  enabled: boolean;
  /** Local hour (0-23) at which sending stops. */
  startHour: number;
  /** Local hour (0-23) at which sending resumes. */
  endHour: number;
  /** IANA zone the hours are read in. */
  timezone: string;
}

/**
 * Whether `now` falls inside the quiet hours, read on the wall clock of `timezone` (so a daylight-saving switch
 * moves the window with local time). A window with start > end spans midnight (22 → 8 means 22:00-07:59).
 * start === end is an empty window: nothing is held back (a 24-hour blackout would never send at all).
 */
export function isInBlackout(now: Date, w: BlackoutWindow): boolean {
  if (!w.enabled || w.startHour === w.endHour) return false;
  const h = DateTime.fromJSDate(now, { zone: w.timezone }).hour;
  return w.startHour < w.endHour ? h >= w.startHour && h < w.endHour : h >= w.startHour || h < w.endHour;
}

/**
 * The instant the current blackout ends (the next local `endHour:00` in `timezone`), or null when `now` is
 * outside the window. A message held back is sent then: never dropped. On a spring-forward day an end hour that
 * does not exist locally (02:00 in New York) resolves to the first instant after the gap (03:00), by luxon's rule.
 */
export function blackoutEnd(now: Date, w: BlackoutWindow): Date | null {
  if (!isInBlackout(now, w)) return null;
  const local = DateTime.fromJSDate(now, { zone: w.timezone });
  // Before midnight in a window that spans it, the end is tomorrow; otherwise it is today.
  const day = w.startHour > w.endHour && local.hour >= w.startHour ? local.plus({ days: 1 }) : local;
  const end = DateTime.fromObject(
    { year: day.year, month: day.month, day: day.day, hour: w.endHour },
    { zone: w.timezone },
  );
  return end.toJSDate();
}

/** When a message due at `due` may go out: `due` itself, or the end of the blackout it falls in. */
export function nextAllowedSendTime(due: Date, w: BlackoutWindow): Date {
  return blackoutEnd(due, w) ?? due;
}
