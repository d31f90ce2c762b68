import type { SmsIntegrationStats, SmsStatsResponse } from '@act/contracts/src/sms-api';
import { localDay, type StatsRange } from './ranges';

/** Log statuses of messages that were handed to the provider (skips and blocks were not). */
export const SENT_STATUSES = new Set(['sent', 'delivered', 'failed', 'undelivered', 'queued', 'pending']);

export interface StatsLog {
  phone: string;
  contact_id: string | null;
  integration_id: number | null;
  status: string;
  timestamp: Date;
}

/**
 * Figures per integration over the logs of a range (pure, so each definition is tested):
 * total_sms_sent = messages handed to the provider; sent/delivered/failed(+undelivered)/queued(+pending) split
 * them by current status; unique_phones = distinct phones among them; duplicates_sent = of them, messages to a
 * phone first messaged for another contact of the integration; duplicate_phones = phones with a duplicate sent
 * or blocked; purchases_recorded = contacts marked purchased in the range.
 */
export function computeIntegrationStats(
  integration: { id: number; name: string },
  logs: StatsLog[],
  purchases: number,
): SmsIntegrationStats {
  const sorted = [...logs].sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
  const owner = new Map<string, string | null>();
  const dupPhones = new Set<string>();
  const phones = new Set<string>();
  const s: SmsIntegrationStats = {
    integration_id: integration.id,
    integration_name: integration.name,
    unique_phones: 0,
    total_sms_sent: 0,
    purchases_recorded: purchases,
    duplicates_sent: 0,
    sent_count: 0,
    delivered_count: 0,
    failed_count: 0,
    queued_count: 0,
    skipped_duplicate_count: 0,
    blocked_toll_free_count: 0,
    duplicate_phones: [],
  };
  for (const l of sorted) {
    if (l.status === 'skipped_duplicate') {
      s.skipped_duplicate_count++;
      dupPhones.add(l.phone);
      continue;
    }
    if (l.status === 'blocked_toll_free') {
      s.blocked_toll_free_count++;
      continue;
    }
    if (!SENT_STATUSES.has(l.status)) continue;
    s.total_sms_sent++;
    phones.add(l.phone);
    if (l.status === 'sent') s.sent_count++;
    else if (l.status === 'delivered') s.delivered_count++;
    else if (l.status === 'failed' || l.status === 'undelivered') s.failed_count++;
    else s.queued_count++;
    if (!owner.has(l.phone)) owner.set(l.phone, l.contact_id);
    else if (owner.get(l.phone) !== l.contact_id) {
      s.duplicates_sent++;
      dupPhones.add(l.phone);
    }
  }
  s.unique_phones = phones.size;
  s.duplicate_phones = [...dupPhones].sort();
  return s;
}

/** Messages handed to the provider and delivered, per local day of the range (zeros included), for the chart. */
export function dailySeries(logs: StatsLog[], range: StatsRange, timezone: string): SmsStatsResponse['daily'] {
  const byDay = new Map(range.days.map((d) => [d, { date: d, sent: 0, delivered: 0 }]));
  for (const l of logs) {
    if (!SENT_STATUSES.has(l.status)) continue;
    const point = byDay.get(localDay(l.timestamp, timezone));
    if (!point) continue;
    point.sent++;
    if (l.status === 'delivered') point.delivered++;
  }
  return [...byDay.values()];
}
