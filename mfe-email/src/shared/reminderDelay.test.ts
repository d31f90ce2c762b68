import { parseReminderDelay } from './reminderDelay';

describe('reminder delay entry (spec §5: integer 1 to 720 minutes)', () => {
  it.each([
    ['1', 1],
    ['30', 30],
    ['720', 720],
    [' 45 ', 45],
  ])('%p is %p minutes', (entry, minutes) => {
    expect(parseReminderDelay(entry)).toBe(minutes);
  });

  it.each(['', '   ', '0', '-5', '721', '1000', '12.5', 'abc', '30 minutes'])('%p is refused', (entry) => {
    expect(parseReminderDelay(entry)).toBeNull();
  });
});
