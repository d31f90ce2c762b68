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
