import { performance } from 'node:perf_hooks';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN, isEmailAddress } from './email-address';
import { testEmailRequestSchema, unsubscribeRequestSchema, EMAIL_REQUIRED_MESSAGE, INVALID_EMAIL_MESSAGE } from './email-api';

// The rule the product had, kept here only as the reference its replacement must agree with (short inputs).
// eslint-disable-next-line regexp/no-super-linear-backtracking -- the reference itself; only strings of up to 7 characters reach it
const PREVIOUS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Every string of length 0..max over `alphabet`. */
function* strings(alphabet: string[], max: number): Generator<string> {
  let level = [''];
  yield '';
  for (let n = 1; n <= max; n++) {
    const next: string[] = [];
    for (const s of level) for (const c of alphabet) next.push(s + c);
    yield* next;
    level = next;
  }
}

const hostile = 'a@' + '.'.repeat(128_000) + '@';

describe('isEmailAddress', () => {
  it('accepts and refuses exactly what the previous pattern did, on every short string of its critical characters', () => {
    const differ: string[] = [];
    let n = 0;
    for (const s of strings(['a', '.', '@', ' ', '\u00a0'], 7)) {
      n++;
      if (isEmailAddress(s) !== PREVIOUS.test(s)) differ.push(JSON.stringify(s));
    }
    expect(n).toBeGreaterThan(90_000);
    expect(differ).toEqual([]);
  });

  it('takes ordinary addresses and refuses ordinary mistakes', () => {
    for (const ok of ['a@b.co', 'first.last+tag@mail.example.com', '.x@.a.b', 'ü@bücher.de'])
      expect([ok, isEmailAddress(ok)]).toEqual([ok, true]);
    for (const bad of ['', 'a@b', 'a@.b', 'a@b.', 'a b@c.d', 'a@@b.c', '@b.c', 'a@b.c@d.e', 42, null])
      expect([bad, isEmailAddress(bad)]).toEqual([bad, false]);
  });

  it('refuses anything longer than 320 characters, even when well formed', () => {
    const at320 = 'a'.repeat(EMAIL_MAX_LENGTH - 6) + '@b.com';
    expect(at320.length).toBe(320);
    expect(isEmailAddress(at320)).toBe(true);
    expect(isEmailAddress('a' + at320)).toBe(false);
  });

  it('answers in linear time on the backtracking shapes (no length check involved)', () => {
    // Straight at the pattern, past the length check: the pattern alone must be linear.
    for (const shape of [hostile, 'a@a' + '.'.repeat(200_000) + '@', 'a'.repeat(200_000) + '@', 'a@' + 'a.'.repeat(100_000) + ' ']) {
      const t0 = performance.now();
      expect(EMAIL_PATTERN.test(shape)).toBe(false);
      expect(performance.now() - t0).toBeLessThan(50);
    }
  });
});

describe('the email schemas', () => {
  it('refuse the 128,000-dot address quickly, with the spec message', async () => {
    for (const [schema, field] of [
      [unsubscribeRequestSchema, 'email'],
      [testEmailRequestSchema, 'testEmail'],
    ] as const) {
      const t0 = performance.now();
      await expect(schema.validate({ [field]: hostile })).rejects.toThrow(INVALID_EMAIL_MESSAGE);
      expect(performance.now() - t0).toBeLessThan(50);
    }
  });

  it('keep their messages: required first, then invalid', async () => {
    await expect(unsubscribeRequestSchema.validate({ email: '' })).rejects.toThrow(EMAIL_REQUIRED_MESSAGE);
    await expect(unsubscribeRequestSchema.validate({ email: 'nope' })).rejects.toThrow(INVALID_EMAIL_MESSAGE);
    await expect(unsubscribeRequestSchema.validate({ email: 'x'.repeat(400) + '@a.b' })).rejects.toThrow(INVALID_EMAIL_MESSAGE);
    await expect(unsubscribeRequestSchema.validate({ email: '  me@example.com ' })).resolves.toEqual({ email: 'me@example.com', reason: null });
  });
});
