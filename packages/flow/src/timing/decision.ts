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
