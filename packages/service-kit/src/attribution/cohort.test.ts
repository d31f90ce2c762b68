import { cohortFunnel, type CohortContact } from './cohort';

/** A small seeded generator (mulberry32), so a failing case can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('the cohort funnel', () => {
  it('never widens: contacts ≥ reminded ≥ purchased (and clicked ≤ reminded) for any data', () => {
    for (let seed = 1; seed <= 2_000; seed++) {
      const r = random(seed);
      const at = () => (r() < 0.3 ? null : new Date(Date.UTC(2026, 0, 1) + Math.floor(r() * 30 * 86_400_000)));
      const rows: CohortContact[] = Array.from({ length: Math.floor(r() * 40) }, () => ({ remindedAt: at(), clicked: r() < 0.5, purchasedAt: at() }));
      // The count read apart may be anything, even fewer than the rows (a contact that came in between two reads).
      const contacts = Math.floor(r() * 50);
      const clicks = r() < 0.5;
      const f = cohortFunnel(contacts, rows, clicks);
      const ctx = `seed ${seed}: ${JSON.stringify(f)}`;
      expect([ctx, f.contacts >= f.reminded && f.reminded >= f.purchased && f.purchased >= 0]).toEqual([ctx, true]);
      if (clicks) expect([ctx, f.clicked! <= f.reminded]).toEqual([ctx, true]);
      else expect(f.clicked).toBeNull();
    }
  });

  it('counts a purchase only at or after the first reminder, and no one without a reminder', () => {
    const d = (day: number) => new Date(Date.UTC(2026, 0, day));
    const f = cohortFunnel(
      5,
      [
        { remindedAt: d(2), clicked: true, purchasedAt: d(3) },
        { remindedAt: d(2), clicked: false, purchasedAt: d(2) },
        { remindedAt: d(4), clicked: false, purchasedAt: d(3) },
        { remindedAt: null, clicked: true, purchasedAt: d(3) },
      ],
      true,
    );
    expect(f).toEqual({ contacts: 5, reminded: 3, clicked: 1, purchased: 2 });
  });
});
