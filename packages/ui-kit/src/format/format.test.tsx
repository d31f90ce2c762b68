import { render, screen } from '@testing-library/react';
import {
  createFormatter,
  DateTime,
  formatDateTime as viewersDateTime,
  formatDateTimeFull as viewersFull,
  NO_VALUE,
} from '.';

// A viewer in New York with an American locale; a test cannot change the zone of the process's Intl.
const {
  formatCount,
  formatDate,
  formatDateTime,
  formatDateTimeFull,
  formatMoney,
  formatMoneyList,
  formatShortDate,
  formatTime,
} = createFormatter({
  locale: 'en-US',
  timeZone: 'America/New_York',
});

const WINTER = '2026-11-26T15:30:00.000Z';
const SUMMER = '2026-07-04T15:30:00.000Z';

describe('dates: one shape, the viewer’s zone, named where asked', () => {
  it('writes date and time the same way everywhere, in the viewer’s zone', () => {
    expect(formatDateTime(WINTER)).toBe('Nov 26, 2026, 10:30 AM');
    expect(formatDate(WINTER)).toBe('Nov 26, 2026');
    expect(formatTime(WINTER)).toBe('10:30 AM');
  });

  it('names the zone when asked, daylight saving included', () => {
    expect(formatDateTime(WINTER, { zone: true })).toBe('Nov 26, 2026, 10:30 AM EST');
    expect(formatDateTime(SUMMER, { zone: true })).toBe('Jul 4, 2026, 11:30 AM EDT');
    expect(formatTime(WINTER, { zone: true })).toBe('10:30 AM EST');
    expect(formatDateTimeFull(WINTER)).toMatch(/^Thursday, November 26, 2026 at 10:30:00 AM Eastern Standard Time$/);
  });

  it('writes a calendar day as that day, not as midnight UTC (the day before in New York)', () => {
    expect(formatDate('2026-11-20')).toBe('Nov 20, 2026');
    expect(formatShortDate('2026-11-20')).toBe('Nov 20');
    expect(createFormatter({ locale: 'en-US', timeZone: 'Pacific/Auckland' }).formatShortDate('2026-11-20')).toBe(
      'Nov 20',
    );
  });

  it('follows the viewer’s locale', () => {
    const de = createFormatter({ locale: 'de-DE', timeZone: 'Europe/Berlin' });
    expect(de.formatDateTime(WINTER)).toBe('26. Nov. 2026, 16:30');
    expect(de.formatMoney(149.5, 'EUR')).toBe('149,50\u00a0€');
  });

  it('shows a dash for no value and text that is no date as it came', () => {
    expect(formatDateTime(null)).toBe(NO_VALUE);
    expect(formatDateTime(undefined)).toBe(NO_VALUE);
    expect(formatDate('')).toBe(NO_VALUE);
    expect(formatDateTime('soon')).toBe('soon');
    expect(formatTime(null)).toBe('');
    expect(formatDateTimeFull('soon')).toBeUndefined();
  });

  it('DateTime gives the viewer’s shared text, the instant in dateTime and the full date on hover', () => {
    render(
      <>
        <DateTime value={WINTER} />
        <DateTime value={WINTER} stacked zone />
        <span data-testid="none">
          <DateTime value={null} />
        </span>
      </>,
    );
    const [flat, stacked] = screen.getAllByText((_, el) => el?.tagName === 'TIME');
    expect(flat!.textContent).toBe(viewersDateTime(WINTER));
    expect(flat!.getAttribute('datetime')).toBe(WINTER);
    expect(flat!.getAttribute('title')).toBe(viewersFull(WINTER));
    expect(stacked!.querySelector('span')!.textContent).toMatch(/\d:30 [AP]M \S+$/);
    expect(screen.getByTestId('none').textContent).toBe(NO_VALUE);
  });
});

describe('money: always with its currency, a dash for none', () => {
  it('writes the amount with its currency', () => {
    expect(formatMoney(149.5, 'USD')).toBe('$149.50');
    expect(formatMoney(80, 'eur')).toBe('€80.00');
    expect(formatMoney(0, 'USD')).toBe('$0.00');
    expect(formatMoney(1234.5, 'USD')).toBe('$1,234.50');
  });

  it('never writes a bare number: no amount is a dash, no currency is said', () => {
    expect(formatMoney(null, 'USD')).toBe(NO_VALUE);
    expect(formatMoney(undefined, null)).toBe(NO_VALUE);
    expect(formatMoney(Number.NaN, 'USD')).toBe(NO_VALUE);
    expect(formatMoney(12, null)).toBe('12.00 (no currency)');
    expect(formatMoney(12, '  ')).toBe('12.00 (no currency)');
    expect(formatMoney(12, 'NOT-A-CODE')).toBe('12.00 NOT-A-CODE');
  });

  it('lists currencies apart, never added, and a dash when there is nothing', () => {
    expect(
      formatMoneyList([
        { amount: 80, currency: 'EUR' },
        { amount: 120, currency: 'USD' },
      ]),
    ).toBe('€80.00 · $120.00');
    expect(formatMoneyList([])).toBe(NO_VALUE);
  });

  it('groups counts the viewer’s way', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(undefined)).toBe(NO_VALUE);
  });
});
