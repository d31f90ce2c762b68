/** Which timing rule held a message back. */
export type TimingRule = 'quiet_hours' | 'frequency_cap';

/** A timing rule's answer for one message: send now, or hold until an instant (never dropped), saying why. */
export type TimingDecision = { action: 'send' } | { action: 'hold'; until: Date; rule: TimingRule; reason: string };

export const SEND: TimingDecision = Object.freeze({ action: 'send' });

/** The later of two holds (a message held by both rules waits for both), or the one that holds. */
export function laterHold(a: TimingDecision, b: TimingDecision): TimingDecision {
  if (a.action === 'send') return b;
  if (b.action === 'send') return a;
  return b.until.getTime() > a.until.getTime() ? b : a;
}

/**
 * The first instant from `at` that every rule lets through, as one decision: a hold's end may fall inside another
 * rule's window (a cap ending at 23:00 in quiet hours), so each end is asked again, a few rounds at most. The hold
 * keeps the reason of the rule that set its final end.
 */
export function firstAllowed(at: Date, rules: (t: Date) => TimingDecision[], rounds = 4): TimingDecision {
  let held: TimingDecision = SEND;
  let t = at;
  for (let i = 0; i < rounds; i++) {
    const next = rules(t).reduce(laterHold, SEND);
    if (next.action === 'send') return held;
    held = next;
    t = next.until;
  }
  return held;
}
