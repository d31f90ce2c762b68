import {
  deliveryRate,
  duplicatePhonesPreview,
  hourLabel,
  parseReminderDelay,
  prettyJson,
  smsCounter,
  truncate,
  LOG_ERROR_PREVIEW,
  LOG_MESSAGE_PREVIEW,
  EVENT_PAYLOAD_PREVIEW,
} from './format';
import { isListKey, isStatsKey, listPageKey, statsKey } from './keys';

describe('truncate (spec section 9: 50 / 30 / 100)', () => {
  it('keeps text at or under the limit as it is', () => {
    expect(truncate('a'.repeat(50), LOG_MESSAGE_PREVIEW)).toBe('a'.repeat(50));
    expect(truncate('short', LOG_ERROR_PREVIEW)).toBe('short');
  });
  it('cuts longer text at the limit and marks the cut', () => {
    expect(truncate('a'.repeat(51), LOG_MESSAGE_PREVIEW)).toBe(`${'a'.repeat(50)}...`);
    expect(truncate('e'.repeat(31), LOG_ERROR_PREVIEW)).toBe(`${'e'.repeat(30)}...`);
    expect(truncate('p'.repeat(250), EVENT_PAYLOAD_PREVIEW)).toBe(`${'p'.repeat(100)}...`);
  });
  it('gives an empty string for missing text', () => {
    expect(truncate(null, 10)).toBe('');
    expect(truncate(undefined, 10)).toBe('');
  });
});

describe('deliveryRate: delivered / total sent, rounded to a whole percent', () => {
  it.each([
    [1, 3, 33],
    [2, 3, 67],
    [1, 8, 13], // 12.5 rounds up
    [199, 200, 100], // 99.5 rounds up
    [0, 5, 0],
    [5, 5, 100],
  ])('%i of %i is %i%%', (delivered, total, rate) => {
    expect(deliveryRate(delivered, total)).toBe(rate);
  });
  it('is 0 when nothing was sent (no division by zero)', () => {
    expect(deliveryRate(0, 0)).toBe(0);
  });
});

describe("duplicatePhonesPreview: at most 5, then '+N more'", () => {
  const phones = Array.from({ length: 8 }, (_, i) => `+1555000000${i}`);
  it('shows five and counts the rest', () => {
    expect(duplicatePhonesPreview(phones)).toEqual({ shown: phones.slice(0, 5), more: '+3 more' });
  });
  it('has no "more" text at five or fewer', () => {
    expect(duplicatePhonesPreview(phones.slice(0, 5))).toEqual({ shown: phones.slice(0, 5), more: null });
    expect(duplicatePhonesPreview([])).toEqual({ shown: [], more: null });
  });
  it('says +1 more for six', () => {
    expect(duplicatePhonesPreview(phones.slice(0, 6)).more).toBe('+1 more');
  });
});

describe('smsCounter: x/160', () => {
  it('counts characters and flags more than 160', () => {
    expect(smsCounter('')).toEqual({ text: '0/160', over: false });
    expect(smsCounter('a'.repeat(160))).toEqual({ text: '160/160', over: false });
    expect(smsCounter('a'.repeat(161))).toEqual({ text: '161/160', over: true });
  });
});

describe('parseReminderDelay: a non-numeric entry falls back to 30', () => {
  it.each([
    ['', 30],
    ['abc', 30],
    ['  ', 30],
    [undefined, 30],
    [Number.NaN, 30],
    ['45', 45],
    [12, 12],
    ['0', 0], // kept, so validation can refuse it
  ])('%p gives %p', (input, expected) => {
    expect(parseReminderDelay(input)).toBe(expected);
  });
});

describe('prettyJson', () => {
  it('pretty-prints JSON text with two spaces', () => {
    expect(prettyJson('{"a":1,"b":{"c":"d"}}')).toBe('{\n  "a": 1,\n  "b": {\n    "c": "d"\n  }\n}');
  });
  it('shows text that is not JSON as it is', () => {
    expect(prettyJson('not json')).toBe('not json');
  });
});

describe('small helpers', () => {
  it('labels hours in 12- and 24-hour form', () => {
    expect(hourLabel(0)).toBe('12 AM (00:00)');
    expect(hourLabel(8)).toBe('8 AM (08:00)');
    expect(hourLabel(12)).toBe('12 PM (12:00)');
    expect(hourLabel(22)).toBe('10 PM (22:00)');
  });
  it('leaves integration_id out of the stats key when all integrations are shown', () => {
    expect(statsKey('today', null)).toBe('/api/sms-stats-simple?date_range=today');
    expect(statsKey('last_7_days', 4)).toBe('/api/sms-stats-simple?date_range=last_7_days&integration_id=4');
    expect(isStatsKey(statsKey('yesterday', 2))).toBe(true);
    expect(isStatsKey('/api/sms-logs')).toBe(false);
  });
  it('keys a list page by its whole query, and matches every page of a list', () => {
    expect(listPageKey('/api/sms-logs', { page: 2, pageSize: 50, search: '', status: undefined })).toBe(
      '/api/sms-logs?page=2&pageSize=50',
    );
    expect(listPageKey('/api/sms-logs', { page: 1, pageSize: 25, search: 'a&b=c', status: 'failed' })).toBe(
      '/api/sms-logs?page=1&pageSize=25&search=a%26b%3Dc&status=failed',
    );
    const isLogs = isListKey('/api/sms-logs');
    expect(isLogs('/api/sms-logs')).toBe(true);
    expect(isLogs('/api/sms-logs?page=3&pageSize=50')).toBe(true);
    expect(isLogs('/api/sms-logs-other')).toBe(false);
    expect(isLogs(['/api/sms-logs'])).toBe(false);
  });
});
