import { UNSUBSCRIBE_ADMIN_REASON } from '@act/contracts/src/email-api';
import {
  DEFAULT_REASON,
  ServerResponseError,
  changeErrorText,
  loadDirectUnsubscribes,
  loadFailureText,
  parseUnsubscribeList,
} from './api';

const entry = { id: 3, email: 'a@example.com', unsubscribed_at: '2026-01-01T10:00:00.000Z', reason: 'Too many emails' };

describe('direct unsubscribe list (sms-and-unsubscribe §7)', () => {
  it('reads a list of entries', () => {
    expect(parseUnsubscribeList(JSON.stringify([entry]))).toEqual([entry]);
    expect(parseUnsubscribeList(JSON.stringify({ items: [entry] }))).toEqual([entry]);
  });

  it('empty or unparsable text is an empty list', () => {
    expect(parseUnsubscribeList('')).toEqual([]);
    expect(parseUnsubscribeList('   ')).toEqual([]);
    expect(parseUnsubscribeList('<html>oops</html>')).toEqual([]);
    expect(parseUnsubscribeList('[{"id":')).toEqual([]);
  });

  it('data that cannot be read as entries falls back to the sample row', () => {
    for (const text of ['{"weird":true}', '42', '[{"nope":1}]', 'null']) {
      const rows = parseUnsubscribeList(text);
      expect(rows).toHaveLength(1);
      expect(rows[0].sample).toBe(true);
    }
  });

  it('a network error gives the sample row; a non-OK answer is a load failure', async () => {
    globalThis.fetch = jest.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    const rows = await loadDirectUnsubscribes('/api/direct-unsubscribes');
    expect(rows).toHaveLength(1);
    expect(rows[0].sample).toBe(true);

    globalThis.fetch = jest.fn().mockResolvedValue({ ok: false, status: 503, text: async () => '' });
    const err = await loadDirectUnsubscribes('/api/direct-unsubscribes').catch((e) => e);
    expect(err).toBeInstanceOf(ServerResponseError);
    expect(loadFailureText(err)).toBe(
      'Failed to load unsubscribe data: Server responded with 503. Please try refreshing the page.',
    );

    globalThis.fetch = jest.fn().mockResolvedValue({ ok: true, status: 200, text: async () => '' });
    expect(await loadDirectUnsubscribes('/api/direct-unsubscribes')).toEqual([]);
  });
});

it("a failed change reads 'Server responded with {status}', else the fallback (§8)", () => {
  expect(changeErrorText(new ServerResponseError(400), 'Failed to add email to unsubscribe list')).toBe(
    'Server responded with 400',
  );
  expect(changeErrorText(new TypeError('Failed to fetch'), 'Failed to add email to unsubscribe list')).toBe(
    'Failed to add email to unsubscribe list',
  );
});

it("the add form's default reason is the service's", () => {
  expect(DEFAULT_REASON).toBe(UNSUBSCRIBE_ADMIN_REASON);
});
