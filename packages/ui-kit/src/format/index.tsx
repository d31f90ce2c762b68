import { Box } from '@mui/material';

/**
 * The one way every page writes dates and money: the viewer's own locale and time zone (the browser's), one date
 * shape everywhere ("Nov 22, 2026, 10:15 AM"), and money always with its currency ("—" when there is no amount).
 */

/** What a page shows where there is no value (no date, no amount). */
export const NO_VALUE = '—';

type DateInput = string | number | Date | null | undefined;

const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day as the API writes one ("2026-11-20"): a day, not an instant, so no zone moves it. */
const isCalendarDay = (value: DateInput): value is string => typeof value === 'string' && CALENDAR_DAY.test(value);

/** The instant of a timestamp (a calendar day: its midnight UTC, which the formatter writes in UTC); null for none. */
export function parseDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(isCalendarDay(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const CLOCK: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
// dateStyle / timeStyle cannot be combined with timeZoneName, so the shapes are spelled out by their parts.
const SHAPES = {
  dateTime: { ...DAY, ...CLOCK },
  dateTimeZone: { ...DAY, ...CLOCK, timeZoneName: 'short' },
  date: DAY,
  shortDate: { month: 'short', day: 'numeric' },
  time: CLOCK,
  timeZone: { ...CLOCK, timeZoneName: 'short' },
  full: {
    weekday: 'long',
    ...DAY,
    month: 'long',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'long',
  },
} satisfies Record<string, Intl.DateTimeFormatOptions>;
type Shape = keyof typeof SHAPES;

export interface DateFormatOptions {
  /**
   * Names the viewer's time zone ("10:15 AM EST"): for times that are scheduled or compared with a time set
   * elsewhere (Remind At, a blackout's end), where "10:15" alone leaves the reader asking "whose 10:15?".
   */
  zone?: boolean;
}

export interface Viewer {
  /** BCP 47 locale; the browser's when left out. */
  locale?: string;
  /** IANA zone; the browser's when left out. */
  timeZone?: string;
}

/**
 * The formatting functions for one viewer. Pages use the module's own (the browser's locale and zone); a test names
 * its viewer, since a test process cannot change the zone its Intl was started with.
 */
export function createFormatter({ locale, timeZone }: Viewer = {}) {
  const dates = new Map<string, Intl.DateTimeFormat>();
  const dateFormat = (shape: Shape, zone: string | undefined) => {
    const key = `${shape} ${zone ?? ''}`;
    let f = dates.get(key);
    if (!f) {
      f = new Intl.DateTimeFormat(locale, { ...SHAPES[shape], timeZone: zone });
      dates.set(key, f);
    }
    return f;
  };
  const format = (value: DateInput, shape: Shape): string => {
    const date = parseDate(value);
    // Read as an instant in the viewer's zone, "2026-11-20" would print as Nov 19 west of Greenwich.
    if (date) return dateFormat(shape, isCalendarDay(value) ? 'UTC' : timeZone).format(date);
    // Text the API sent that is no date is shown as sent rather than hidden behind a dash.
    return typeof value === 'string' && value !== '' ? value : NO_VALUE;
  };

  const currencies = new Map<string, Intl.NumberFormat | null>();
  const currencyFormat = (currency: string) => {
    if (!currencies.has(currency)) {
      try {
        currencies.set(currency, new Intl.NumberFormat(locale, { style: 'currency', currency }));
      } catch {
        // A code Intl does not know (a sender's typo, a made-up token) is written beside the amount instead.
        currencies.set(currency, null);
      }
    }
    return currencies.get(currency) ?? null;
  };
  let decimals: Intl.NumberFormat | undefined;
  let counts: Intl.NumberFormat | undefined;

  const formatMoney = (amount: number | null | undefined, currency: string | null | undefined): string => {
    if (amount === null || amount === undefined || !Number.isFinite(amount)) return NO_VALUE;
    const code = (currency ?? '').trim().toUpperCase();
    decimals ??= new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    if (!code) return `${decimals.format(amount)} (no currency)`;
    const f = currencyFormat(code);
    return f ? f.format(amount) : `${decimals.format(amount)} ${code}`;
  };

  return {
    /** "Nov 22, 2026, 10:15 AM" (with the zone when asked); a dash for no value. */
    formatDateTime: (value: DateInput, options: DateFormatOptions = {}) =>
      format(value, options.zone ? 'dateTimeZone' : 'dateTime'),
    /** "Nov 22, 2026"; a dash for no value. */
    formatDate: (value: DateInput) => format(value, 'date'),
    /** "Nov 22", for chart axes where the year is the range's. */
    formatShortDate: (value: DateInput) => format(value, 'shortDate'),
    /** "10:15 AM" (with the zone when asked); empty for no value. */
    formatTime: (value: DateInput, options: DateFormatOptions = {}) =>
      parseDate(value) ? format(value, options.zone ? 'timeZone' : 'time') : '',
    /** "Thursday, November 26, 2026 at 10:30:00 AM Eastern Standard Time": the hover title of every date. */
    formatDateTimeFull: (value: DateInput) => (parseDate(value) ? format(value, 'full') : undefined),
    /**
     * An amount with its currency ("$149.50", "€80.00"); a dash when there is no amount. An amount whose sender gave
     * no currency says so ("149.50 (no currency)") rather than passing for the viewer's own money.
     */
    formatMoney,
    /** Amounts in several currencies, never added together ("€80.00 · $120.00"); a dash when there are none. */
    formatMoneyList: (rows: readonly { amount: number; currency: string | null }[]) =>
      rows.length ? rows.map((r) => formatMoney(r.amount, r.currency)).join(' · ') : NO_VALUE,
    /** A count with the viewer's digit grouping ("1,234"). */
    formatCount: (n: number | null | undefined) => {
      if (n === null || n === undefined || !Number.isFinite(n)) return NO_VALUE;
      return (counts ??= new Intl.NumberFormat(locale)).format(n);
    },
  };
}

export type Formatter = ReturnType<typeof createFormatter>;

/** The viewer's: the browser's locale and zone. */
export const {
  formatDateTime,
  formatDate,
  formatShortDate,
  formatTime,
  formatDateTimeFull,
  formatMoney,
  formatMoneyList,
  formatCount,
} = createFormatter();

export interface DateTimeProps {
  value: DateInput;
  /** The time under the date, for narrow table columns. */
  stacked?: boolean;
  /** Names the viewer's time zone: see DateFormatOptions. */
  zone?: boolean;
}

/** A date as the shared text, machine-readable in `dateTime`, with the full date, seconds and zone on hover. */
export function DateTime({ value, stacked = false, zone = false }: DateTimeProps) {
  const date = parseDate(value);
  if (!date) return <>{formatDateTime(value)}</>;
  return (
    <time dateTime={date.toISOString()} title={formatDateTimeFull(date)}>
      {stacked ? (
        <>
          {formatDate(date)}
          <Box component="span" sx={{ display: 'block', color: 'text.secondary', fontSize: '0.75rem' }}>
            {formatTime(date, { zone })}
          </Box>
        </>
      ) : (
        formatDateTime(date, { zone })
      )}
    </time>
  );
}
