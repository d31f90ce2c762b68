import type { RevenueFunnel } from '@act/contracts/src/revenue-api';

/** One contact of the range's cohort as its side knows it: when its channel first really reached it, and after. */
export interface CohortContact {
  /** The first reminder its channel really sent (not simulated, held, skipped or suppressed); null: none. */
  remindedAt: Date | null;
  /** Null where the provider does not report clicks. */
  clicked: boolean | null;
  purchasedAt: Date | null;
}

/**
 * The funnel of a cohort: `contacts` came in during the range; `reminded` are those of them a reminder really
 * reached; `clicked` and `purchased` are those of the reminded who clicked, and who bought at or after their first
 * reminder. Each is counted within the one before, so contacts ≥ reminded ≥ purchased whatever the data.
 */
export function cohortFunnel(contacts: number, reminded: Iterable<CohortContact>, clicks: boolean): RevenueFunnel {
  const f: RevenueFunnel = { contacts, reminded: 0, clicked: clicks ? 0 : null, purchased: 0 };
  for (const c of reminded) {
    if (!c.remindedAt) continue;
    f.reminded += 1;
    if (clicks && c.clicked) f.clicked! += 1;
    if (c.purchasedAt && c.purchasedAt.getTime() >= c.remindedAt.getTime()) f.purchased += 1;
  }
  // Rows counted apart from `contacts` (two reads) may include a contact the first read missed: never more than it.
  f.reminded = Math.min(f.reminded, contacts);
  if (f.clicked !== null) f.clicked = Math.min(f.clicked, f.reminded);
  f.purchased = Math.min(f.purchased, f.reminded);
  return f;
}
