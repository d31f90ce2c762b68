import { SEND, type TimingDecision } from './decision';

const HOUR_MS = 3_600_000;

/** A message the person was sent, on either channel, in any campaign (the attribution ledger's touch has these). */
export interface RecentTouch {
  channel: 'email' | 'sms';
  sentAt: Date;
  campaignId?: number | null;
  /** Only logged (live sending off): no one received it, so it does not count. */
  simulated?: true;
}

/** At most one message per person per `hours`; null or 0: off (the default). */
export interface FrequencyCap {
  hours: number | null;
}

export const FREQUENCY_CAP_DEFAULT: FrequencyCap = Object.freeze({ hours: null });

/** How far back the runner reads a person's touches for this cap (none when off). */
export function capLookbackStart(at: Date, cap: FrequencyCap): Date | null {
  return cap.hours && cap.hours > 0 ? new Date(at.getTime() - cap.hours * HOUR_MS) : null;
}

/**
 * Send, or hold until the cap window of the person's latest message has passed. Never dropped: the held message is
 * sent at the end of the window, when this says send (unless another message went out meanwhile, which opens a new
 * window). A touch later than `at` (another instance sent meanwhile) counts like any other.
 */
export function frequencyCapDecision(at: Date, cap: FrequencyCap, touches: readonly RecentTouch[]): TimingDecision {
  const from = capLookbackStart(at, cap);
  if (!from) return SEND;
  let last: RecentTouch | null = null;
  for (const t of touches) {
    const sent = new Date(t.sentAt).getTime();
    if (t.simulated || Number.isNaN(sent) || sent <= from.getTime()) continue;
    if (!last || sent > new Date(last.sentAt).getTime()) last = t;
  }
  if (!last) return SEND;
  const until = new Date(new Date(last.sentAt).getTime() + cap.hours! * HOUR_MS);
  const what = last.channel === 'sms' ? 'a text message' : 'an email';
  return {
    action: 'hold',
    until,
    rule: 'frequency_cap',
    reason: `frequency cap: ${what} went out at ${new Date(last.sentAt).toISOString()}; at most one message per ${cap.hours} h, held until ${until.toISOString()}`,
  };
}
