import { assignVariant, AssignmentInputError, uniformFromKey, type AssignmentInput } from './assignment';

const TWO = [
  { id: 'a', share: 50 },
  { id: 'b', share: 50 },
];
const THREE = [
  { id: 'one-hour', share: 60 },
  { id: 'one-day', share: 30 },
  { id: 'three-days', share: 10 },
];

function base(over: Partial<AssignmentInput> = {}): AssignmentInput {
  return { campaignId: 'c-1', step: 0, contactKey: 'shopper@example.com', variants: TWO, holdoutShare: 0, ...over };
}

/** Assigns `count` contacts and returns the percentage of each outcome ('holdout' or the variant id). */
function split(count: number, over: Partial<AssignmentInput>): Record<string, number> {
  const seen: Record<string, number> = {};
  for (let i = 0; i < count; i += 1) {
    const a = assignVariant(base({ ...over, contactKey: `contact-${i}@example.com` }));
    const key = a.kind === 'holdout' ? 'holdout' : String(a.variant);
    seen[key] = (seen[key] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(seen).map(([k, n]) => [k, (100 * n) / count]));
}

describe('assignVariant', () => {
  it('gives the same answer for the same campaign, step and contact, whatever the call order or object', () => {
    const inputs = Array.from({ length: 200 }, (_, i) => base({ contactKey: `k${i}`, variants: THREE, holdoutShare: 20 }));
    const first = inputs.map((i) => assignVariant(i));
    const again = [...inputs].reverse().map((i) => assignVariant({ ...i, variants: THREE.map((v) => ({ ...v })) })).reverse();
    expect(again).toEqual(first);
    // A known digest (`printf %s '["a","b"]' | sha256sum`): SHA-256, the same in any process or version.
    expect(uniformFromKey(['a', 'b'])).toBe(0x0473ef2dc0d3 / 2 ** 48);
  });

  it('draws each step on its own and keeps the holdout the same at every step of a campaign', () => {
    const keys = Array.from({ length: 2000 }, (_, i) => `p${i}`);
    const at = (step: number) => keys.map((contactKey) => assignVariant(base({ contactKey, step, holdoutShare: 20 })));
    const s0 = at(0);
    const s1 = at(1);
    expect(s0.map((a) => a.kind)).toEqual(s1.map((a) => a.kind));
    const reminded = s0.map((a, i) => [a, s1[i]] as const).filter(([a]) => a.kind === 'variant');
    const same = reminded.filter(([a, b]) => a.kind === 'variant' && b.kind === 'variant' && a.variant === b.variant).length;
    // Independent halves agree about half the time; the same draw would agree always.
    expect(same / reminded.length).toBeGreaterThan(0.45);
    expect(same / reminded.length).toBeLessThan(0.55);
    // Another campaign holds out other people.
    const other = keys.map((contactKey) => assignVariant(base({ contactKey, campaignId: 'c-2', holdoutShare: 20 })).kind);
    expect(other).not.toEqual(s0.map((a) => a.kind));
  });

  it.each([1000, 100_000])('keeps the shares within 3 points over %i contacts', (count) => {
    const got = split(count, { variants: THREE, holdoutShare: 20 });
    expect(Math.abs(got.holdout - 20)).toBeLessThanOrEqual(3);
    // Variant shares are shares of the reminded 80%.
    expect(Math.abs(got['one-hour'] - 48)).toBeLessThanOrEqual(3);
    expect(Math.abs(got['one-day'] - 24)).toBeLessThanOrEqual(3);
    expect(Math.abs(got['three-days'] - 8)).toBeLessThanOrEqual(3);
    if (count >= 100_000) for (const [k, want] of Object.entries({ holdout: 20, 'one-hour': 48, 'one-day': 24, 'three-days': 8 })) expect(Math.abs(got[k] - want)).toBeLessThan(0.5);
  });

  it('holds out nobody at 0% and about half at 50%, and never gives a held-out contact a variant', () => {
    expect(split(5000, { holdoutShare: 0 }).holdout).toBeUndefined();
    expect(Math.abs(split(5000, { holdoutShare: 50 }).holdout - 50)).toBeLessThanOrEqual(3);
    for (let i = 0; i < 3000; i += 1) {
      const a = assignVariant(base({ contactKey: `h${i}`, holdoutShare: 30, winner: i % 2 ? 'b' : null }));
      expect(Object.keys(a)).toEqual(a.kind === 'holdout' ? ['kind'] : ['kind', 'variant', 'forced']);
    }
  });

  it('sends every contact to a decided winner, keeps the holdout, and changes nothing before a winner', () => {
    const keys = Array.from({ length: 1000 }, (_, i) => `w${i}`);
    const before = keys.map((contactKey) => assignVariant(base({ contactKey, holdoutShare: 10 })));
    const after = keys.map((contactKey) => assignVariant(base({ contactKey, holdoutShare: 10, winner: 'b' })));
    after.forEach((a, i) => {
      if (before[i].kind === 'holdout') expect(a).toEqual({ kind: 'holdout' });
      else expect(a).toEqual({ kind: 'variant', variant: 'b', forced: true });
    });
    expect(before.some((a) => a.kind === 'variant' && a.variant === 'a' && !a.forced)).toBe(true);
  });

  it('assigns a step without variants to its own content (variant null), the holdout still drawn', () => {
    expect(assignVariant(base({ variants: [], contactKey: 'x' }))).toEqual({ kind: 'variant', variant: null, forced: false });
    expect(split(2000, { variants: [], holdoutShare: 25 }).holdout).toBeGreaterThan(22);
  });

  it.each<[string, Partial<AssignmentInput>, RegExp]>([
    ['shares that do not add up to 100', { variants: [{ id: 'a', share: 50 }, { id: 'b', share: 40 }] }, /add up to 100, not 90/],
    ['shares above 100', { variants: [{ id: 'a', share: 70 }, { id: 'b', share: 40 }] }, /add up to 100, not 110/],
    ['a zero share', { variants: [{ id: 'a', share: 100 }, { id: 'b', share: 0 }] }, /"b" needs a share above 0/],
    ['one variant', { variants: [{ id: 'a', share: 100 }] }, /2 to 4 of them, not 1/],
    ['five variants', { variants: [1, 2, 3, 4, 5].map((i) => ({ id: `v${i}`, share: 20 })) }, /2 to 4 of them, not 5/],
    ['a repeated id', { variants: [{ id: 'a', share: 50 }, { id: 'a', share: 50 }] }, /"a" appears twice/],
    ['a holdout above 50%', { holdoutShare: 51 }, /holdoutShare must be a percentage from 0 to 50/],
    ['a negative holdout', { holdoutShare: -1 }, /holdoutShare/],
    ['a holdout that is not a number', { holdoutShare: Number.NaN }, /holdoutShare/],
    ['an empty contact key', { contactKey: '' }, /contactKey/],
    ['an empty campaign', { campaignId: '' }, /campaignId/],
    ['a fractional step', { step: 1.5 }, /step/],
    ['a winner that is not a variant', { winner: 'c' }, /winner "c" is not one of the step's variants/],
  ])('refuses %s', (_, over, message) => {
    expect(() => assignVariant(base(over))).toThrow(AssignmentInputError);
    expect(() => assignVariant(base(over))).toThrow(message);
  });

  it('accepts shares that add up to 100 only after rounding, such as thirds', () => {
    const thirds = [
      { id: 'a', share: 33.33 },
      { id: 'b', share: 33.33 },
      { id: 'c', share: 33.34 },
    ];
    const got = split(30_000, { variants: thirds });
    for (const id of ['a', 'b', 'c']) expect(Math.abs(got[id] - 33.33)).toBeLessThan(1.5);
  });
});
