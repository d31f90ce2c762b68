import type { Collection, Document } from 'mongodb';
import { readTimeline, type TimelineSource } from '@act/service-kit';
import type { TimelineCursor, TimelineEntry } from '@act/contracts/src/timeline';
import type { AuditDoc } from '../audit/model';

/** Audit targets that are a person's contacts: the email side's and the SMS side's. */
export const CONTACT_TARGETS = ['contact', 'sms-contact'] as const;
export type ContactTarget = { kind: (typeof CONTACT_TARGETS)[number]; id: string };

function staffEntry(r: AuditDoc): TimelineEntry {
  return {
    key: `staff:${r.id}`,
    at: r.at.toISOString(),
    side: r.service === 'svc-sms' ? 'sms' : 'email',
    kind: 'staff',
    title: `Staff action by ${r.actor?.username ?? 'unknown'}: ${r.action}`,
    status: String(r.status),
    detail: r.route,
    ref: null,
  };
}

/**
 * The staff actions on a person's contacts (the audit records whose target is one of them), as a timeline part. A
 * person's records are few (a mark as purchased, a deletion), so all of them are read by the target index.
 */
export function staffTimeline(audit: Collection<AuditDoc>) {
  return async (targets: ContactTarget[], cursor: TimelineCursor | null, limit: number) => {
    const source: TimelineSource<AuditDoc> = {
      coll: audit,
      prefix: 'staff',
      filter: { $or: targets.map((t) => ({ target_kind: t.kind, target_id: t.id })) },
      at: 'at',
      id: 'few',
      entry: staffEntry,
    };
    return readTimeline([source as unknown as TimelineSource<Document>], cursor, limit);
  };
}
