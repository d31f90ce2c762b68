import { keptOnce } from './kept-once';

describe('keptOnce', () => {
  it('computes a key once while under its limit, and every time past it', () => {
    const calls: string[] = [];
    const length = keptOnce(2, (key) => {
      calls.push(key);
      return key.length;
    });
    expect([length('a'), length('bb'), length('a'), length('bb')]).toEqual([1, 2, 1, 2]);
    expect(calls).toEqual(['a', 'bb']);
    expect([length('ccc'), length('ccc')]).toEqual([3, 3]);
    expect(calls).toEqual(['a', 'bb', 'ccc', 'ccc']);
  });

  it('keeps a computed null or undefined as a result', () => {
    let n = 0;
    const none = keptOnce(5, () => {
      n++;
      return null;
    });
    none('x');
    none('x');
    expect(n).toBe(1);
  });
});
