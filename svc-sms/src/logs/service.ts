import type { Connection } from 'mongoose';
import type { Document, Filter } from 'mongodb';
import { readList, retainedFilter, substringFilter } from '@act/service-kit';
import {
  smsLogStatusesOf,
  type Paged,
  type SmsLog,
  type SmsLogPage,
  type SmsLogStatusFilter,
} from '@act/contracts/src/sms-api';
import { logModel, type LogDoc } from './model';
import { and, countBy, smsListOptions, sumOf, type SmsPageQuery } from '../paging';

export const LOG_LIST_OPTIONS = smsListOptions('timestamp');
/** The fields the SMS Logs search box looks in. */
const SEARCHED = ['phone', 'contact_id', 'message', 'message_sid', 'error_message'] as const;

export class LogService {
  private readonly Log;
  constructor(
    conn: Connection,
    private readonly deps: { listLimit: number },
  ) {
    this.Log = logModel(conn);
  }

  /** The spec's plain list: the newest SMS_LIST_LIMIT logs. */
  async list(): Promise<SmsLog[]> {
    const docs = await this.Log.find(retainedFilter('timestamp')).sort({ timestamp: -1, id: -1 }).limit(this.deps.listLimit).lean<LogDoc[]>();
    return docs.map(toApiLog);
  }

  /**
   * One page of the SMS Logs screen and its five cards over every log (one `$group` by status; failed counts
   * undelivered, pending counts queued). The total comes from the same counts unless a search narrows the rows.
   */
  async page(q: SmsPageQuery, status: SmsLogStatusFilter | undefined): Promise<SmsLogPage> {
    const statuses = status ? smsLogStatusesOf(status) : undefined;
    const search = q.search === null ? null : (substringFilter(q.search, SEARCHED) as Filter<Document>);
    // Rows past DATA_RETENTION_DAYS are left out (cards included) though the TTL monitor may not have removed them yet.
    const retained = retainedFilter('timestamp');
    const filter = and([retained, statuses ? { status: { $in: statuses } } : null, search]);
    const coll = this.Log.collection;
    const counts = countBy(coll, 'status', retained);
    const knownTotal = search ? undefined : counts.then((c) => sumOf(c, statuses));
    const [byStatus, paged] = await Promise.all([
      counts,
      readList(coll, filter, {}, q, LOG_LIST_OPTIONS, (d) => toApiLog(d as LogDoc), knownTotal) as Promise<
        Paged<SmsLog>
      >,
    ]);
    const group = (f: SmsLogStatusFilter) => sumOf(byStatus, smsLogStatusesOf(f));
    return {
      ...paged,
      summary: {
        total: sumOf(byStatus),
        // Every message Twilio accepted: queued at Twilio, sent on, or delivered. Waiting for a status callback is
        // not "not sent"; with callbacks off the logs stay queued, and a count of `sent` alone would read 0.
        sent: sumOf(byStatus, ['queued', 'sent', 'delivered']),
        delivered: group('delivered'),
        failed: group('failed'),
        pending: group('queued'),
      },
    };
  }
}

export function toApiLog(d: LogDoc): SmsLog {
  return {
    id: d.id,
    phone: d.phone,
    contact_id: d.contact_id ?? null,
    contact_ref: d.contact_ref ?? null,
    integration_id: d.integration_id ?? null,
    template_id: d.template_id ?? null,
    message: d.message,
    sequence_order: d.sequence_order ?? null,
    status: d.status,
    message_sid: d.message_sid ?? null,
    timestamp: new Date(d.timestamp).toISOString(),
    error_message: d.error_message ?? null,
    ...(d.held_until ? { held_until: new Date(d.held_until).toISOString() } : {}),
  };
}
