/** Local date and time ("Nov 22, 2026, 10:15 AM"); a dash for no value. */
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const TIME = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
/** With seconds, for the hover title. */
const DATE_TIME_FULL = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'medium' });

function parse(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDateTime(value: string | null | undefined): string {
  const date = parse(value);
  return date ? DATE_TIME.format(date) : value || '—';
}

export function formatDate(value: string | null | undefined): string {
  const date = parse(value);
  return date ? DATE.format(date) : value || '—';
}

export function formatTime(value: string | null | undefined): string {
  const date = parse(value);
  return date ? TIME.format(date) : '';
}

export function formatDateTimeFull(value: string | null | undefined): string | undefined {
  const date = parse(value);
  return date ? DATE_TIME_FULL.format(date) : undefined;
}

/** "1 minute", "30 minutes". */
export function minutes(n: number): string {
  return `${n} ${n === 1 ? 'minute' : 'minutes'}`;
}
