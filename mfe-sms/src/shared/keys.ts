/**
 * SWR keys of the SMS screens: the key is the GET path (the ui-kit fetcher loads it). Written once so a
 * mutation on one screen refetches exactly the lists it changed (spec section 7: "After mutations the
 * affected lists are refetched").
 */
import type { SmsDateRange } from '@act/contracts/src/sms-api';

export const SMS_KEYS = {
  integrations: '/api/sms-webhook-integrations',
  campaigns: '/api/sms-campaigns',
  templates: '/api/sms-templates',
  contacts: '/api/sms-contacts',
  logs: '/api/sms-logs',
  events: '/api/sms-webhook-events',
  twilioConfig: '/api/twilio/config',
  messagingServices: '/api/twilio/messaging-services',
  webhookSigning: '/api/sms/webhook-signing',
} as const;

export const STATS_PATH = '/api/sms-stats-simple';

/** integration_id is left out when "all" is chosen (spec section 7). */
export function statsKey(dateRange: SmsDateRange, integrationId: number | null): string {
  const params = new URLSearchParams({ date_range: dateRange });
  if (integrationId !== null) params.set('integration_id', String(integrationId));
  return `${STATS_PATH}?${params.toString()}`;
}

/** Matches every stats key, whatever its filters (a change anywhere makes all of them stale). */
export const isStatsKey = (key: unknown): boolean => typeof key === 'string' && key.startsWith(`${STATS_PATH}?`);

/**
 * The paged form of a list (GET /api/sms-contacts, /api/sms-logs, /api/sms-webhook-events with `?page=`): the key
 * holds the whole query, so each page, size, filter and search is cached on its own. Empty values are left out.
 */
export function listPageKey(path: string, query: Record<string, string | number | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  return `${path}?${params.toString()}`;
}

/** Matches a list's plain key and every paged key of it (what a change to that list makes stale). */
export function isListKey(path: string): (key: unknown) => boolean {
  return (key) => typeof key === 'string' && (key === path || key.startsWith(`${path}?`));
}
