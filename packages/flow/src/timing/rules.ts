import { firstAllowed, type TimingDecision } from './decision';
import { capLookbackStart, frequencyCapDecision, type FrequencyCap, type RecentTouch } from './frequency-cap';
import { quietHoursDecision, type QuietHours } from './quiet-hours';
import type { RecipientZone } from './zone';

/** One recipient of a burst as the timing rules see it: its clock, its channel's quiet hours, its names. */
export interface TimingRecipient {
  zone: RecipientZone;
  quietHours: QuietHours;
  /** The person's names in the attribution ledger (`buyerKeys`): touches under any of them count for the cap. */
  keys: string[];
}

/** A person's sends since an instant, from the attribution ledger (both channels). */
export type TouchReader = (keys: string[], since: Date) => Promise<(RecentTouch & { keys: string[] })[]>;

/**
 * Each recipient's decision at `at`: quiet hours on its own clock and the frequency cap over its touches, both
 * together (a hold's end is asked again). The touches of the whole burst are one read from the earliest lookback.
 */
export async function timingDecisions(
  at: Date,
  recipients: readonly TimingRecipient[],
  cap: FrequencyCap,
  readTouches: TouchReader | undefined,
): Promise<TimingDecision[]> {
  const since = capLookbackStart(at, cap);
  const touches =
    since && readTouches && recipients.length
      ? await readTouches([...new Set(recipients.flatMap((r) => r.keys))], since)
      : [];
  return recipients.map((r) => {
    const names = new Set(r.keys);
    const own = touches.filter((t) => t.keys.some((k) => names.has(k)));
    return firstAllowed(at, (t) => [quietHoursDecision(t, r.quietHours, r.zone), frequencyCapDecision(t, cap, own)]);
  });
}
