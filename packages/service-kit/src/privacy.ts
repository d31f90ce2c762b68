import type { Connection } from 'mongoose';
import type { Document } from 'mongodb';
import {
  PRIVACY_COMPLETED,
  PRIVACY_EXPORT_LIMIT,
  PRIVACY_REQUESTED,
  type PrivacyCompleted,
  type PrivacyRequested,
  type PrivacyService,
  type PrivacySubject,
} from '@act/contracts/src/privacy';
import { consume } from './consumer';
import { escapeRegex } from './list';
import type { Bus } from './nats';
import type { Outbox } from './outbox';
import type { Logger } from './logger';

/** One kind of record a service holds about people: where it lives and how to find one person's. */
export interface PersonalData {
  kind: string;
  collection: string;
  /**
   * The filter for this person, or null when there is nothing to look for here (no phone, say). `found`: the kinds
   * collected before this one (rows keyed by a contact's id follow the contacts).
   */
  filter: (subject: PrivacySubject, found: Record<string, Document[]>) => Document | null;
}

/** A case-insensitive match of the address anywhere in a text field (raw webhook bodies). */
export function textMentioning(field: string, text: string): Document {
  return { [field]: { $regex: escapeRegex(text), $options: 'i' } };
}

/** The number's last ten digits in order, whatever separators a sender wrote between them ("(415) 555-0123"). */
export function phoneDigitsPattern(phone: string): string | null {
  const digits = phone.replace(/\D/g, '').slice(-10);
  return digits.length >= 7 ? digits.split('').join('\\D{0,3}') : null;
}

/** Everything `holdings` names about one person, as stored (without MongoDB's `_id`), at most the export limit each. */
export async function collectPerson(conn: Connection, holdings: PersonalData[], subject: PrivacySubject) {
  const records: Record<string, Document[]> = {};
  const counts: Record<string, number> = {};
  const truncated: string[] = [];
  for (const h of holdings) {
    const filter = h.filter(subject, records);
    if (!filter) continue;
    const docs = await conn.db!.collection(h.collection).find(filter, { projection: { _id: 0 } }).limit(PRIVACY_EXPORT_LIMIT + 1).toArray();
    if (docs.length > PRIVACY_EXPORT_LIMIT) truncated.push(h.kind);
    records[h.kind] = docs.slice(0, PRIVACY_EXPORT_LIMIT);
    counts[h.kind] = records[h.kind]!.length;
  }
  return { records, counts, truncated };
}

/**
 * Answers the privacy requests svc-auth publishes: a durable consumer, so a service that was down when the request was
 * made answers when it is back; the answer goes out through the outbox. A request handled twice answers the same.
 */
export function startPrivacyResponder({
  conn,
  bus,
  outbox,
  logger,
  service,
  holdings,
}: {
  conn: Connection;
  bus: Bus;
  outbox: Outbox;
  logger: Logger;
  service: PrivacyService;
  holdings: PersonalData[];
}) {
  return consume({
    conn,
    bus,
    durable: `${service}-privacy`,
    subjects: [PRIVACY_REQUESTED],
    logger,
    concurrency: 4,
    handler: async ({ payload }) => {
      const req = payload as unknown as PrivacyRequested;
      const subject = { email: req.email ?? null, phone: req.phone ?? null };
      let answer: PrivacyCompleted;
      try {
        const { records, counts, truncated } = await collectPerson(conn, holdings, subject);
        answer = { requestId: req.requestId, service, records, result: { status: 'done', finished_at: new Date().toISOString(), counts, truncated, error: null } };
      } catch (err) {
        logger.error({ err, requestId: req.requestId }, 'privacy request failed');
        answer = {
          requestId: req.requestId,
          service,
          records: {},
          result: { status: 'failed', finished_at: new Date().toISOString(), counts: {}, truncated: [], error: 'The service could not read its data; ask again later' },
        };
      }
      // One answer per request and service: a redelivered request publishes under the same event id (dropped).
      await outbox.add(PRIVACY_COMPLETED, answer as unknown as Record<string, unknown>, `privacy-${req.requestId}-${service}`);
    },
  });
}
