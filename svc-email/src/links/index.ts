import type { Connection } from 'mongoose';
import { ClickTrackingSetting, clickTrackingRouter, TrackedLinks, trackedLinkRouter } from '@act/service-kit';
import type { Collection } from 'mongodb';
import { contactModel, type ContactDoc } from '../contacts/model';
import { contactReach } from '../attribution/reach';
import { emailTrackedLinkStep } from './step';

/** Clicks per client address per minute on `/r/<token>`: a shopper opens a link a few times, a guesser is held back. */
export const CLICKS_PER_MINUTE = 60;

/**
 * The email side's redirect links: `/r/e…` (the gateway sends them to `/api/r/…` here), the operator's
 * "Count clicks with" switch at `/api/email/click-tracking`, and the flow step that puts the links in the emails.
 */
export function emailTrackedLinks(conn: Connection, publicUrl: string) {
  const reach = contactReach(contactModel(conn).collection as unknown as Collection<ContactDoc>);
  const links = new TrackedLinks(conn, { prefix: 'e', tokenBytes: 16, publicUrl, firstClick: (ref, at) => reach.contactClicked(ref, at) });
  const setting = new ClickTrackingSetting(conn);
  return {
    links,
    setting,
    init: () => TrackedLinks.init(conn),
    routers: [trackedLinkRouter('/api/r', links, { perMinute: CLICKS_PER_MINUTE, conn }), clickTrackingRouter('/api/email/click-tracking', 'email', setting)],
    step: () => emailTrackedLinkStep(links, setting),
  };
}

export type EmailTrackedLinks = ReturnType<typeof emailTrackedLinks>;
