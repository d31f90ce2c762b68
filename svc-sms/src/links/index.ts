import type { Connection } from 'mongoose';
import { ClickTrackingSetting, clickTrackingRouter, TrackedLinks, trackedLinkRouter } from '@act/service-kit';
import { smsTrackedLinkStep } from './step';

/** Clicks per client address per minute on `/r/<token>`: a shopper opens a link a few times, a guesser is held back. */
export const CLICKS_PER_MINUTE = 60;

/**
 * The SMS side's redirect links: `/r/s…` (the gateway sends them to `/api/sms/r/…` here), the operator's
 * "Track clicks" switch at `/api/sms/click-tracking`, and the flow step that puts the links in the texts. A token of 9
 * random bytes (72 bits, 12 characters) keeps the link short: it is most of a text's length after the words.
 */
export function smsTrackedLinks(conn: Connection, publicUrl: string) {
  const links = new TrackedLinks(conn, { prefix: 's', tokenBytes: 9, publicUrl });
  const setting = new ClickTrackingSetting(conn);
  return {
    links,
    setting,
    init: () => TrackedLinks.init(conn),
    routers: [trackedLinkRouter('/api/sms/r', links, { perMinute: CLICKS_PER_MINUTE, conn }), clickTrackingRouter('/api/sms/click-tracking', 'sms', setting)],
    step: () => smsTrackedLinkStep(links, setting),
  };
}

export type SmsTrackedLinks = ReturnType<typeof smsTrackedLinks>;
