/** The provider calls of spec §7 and what the page reads from their answers. */
import type { ResendConfigStatus } from '@act/contracts/src/email-api';
import { formatDateTime } from '@act/ui-kit';

export const RESEND_CONFIG = '/api/resend/config';
export const RESEND_TEST_CONNECTION = '/api/resend/test-connection';

export type { ResendConfigStatus };

type StoredInfo = ResendConfigStatus['stored']['apiKey'];

/** A stored value as the page may show it: when it was set and its last four characters. */
export function storedText(info: StoredInfo): string {
  if (!info) return 'Not stored';
  const when = info.set_at ? formatDateTime(info.set_at) : 'an earlier version';
  return `Set on ${when}${info.last4 ? ` (ending ${info.last4})` : ''}`;
}

/** What the status card shows: never the key itself (the service never sends it), only which source is in use. */
export function configRows(status: ResendConfigStatus) {
  const stored = status.stored ?? { apiKey: null, from: null };
  return {
    configured: Boolean(status.configured),
    apiKey:
      status.apiKeySource === 'env'
        ? 'In use: environment (RESEND_API_KEY)'
        : status.apiKeySource === 'stored'
          ? `In use: stored in the app (${storedText(stored.apiKey)})`
          : 'Not set',
    from:
      status.fromSource === 'env'
        ? `In use: ${status.from ?? ''} (environment, RESEND_FROM)`
        : status.fromSource === 'stored'
          ? `In use: stored in the app (${storedText(stored.from)})`
          : 'Not set',
    liveSending: Boolean(status.liveSending),
    deliveryEvents: Boolean(status.webhookSecretConfigured),
    message: typeof status.message === 'string' ? status.message : '',
  };
}

/** POST /api/resend/test-connection answers `{ success, message }`; anything else is an invalid response. */
export function readTestResult(res: unknown): { success: boolean; message: string } | null {
  if (!res || typeof res !== 'object' || res instanceof Response) return null;
  const { success, message } = res as { success?: unknown; message?: unknown };
  if (typeof success !== 'boolean') return null;
  return {
    success,
    message: typeof message === 'string' && message ? message : success ? 'Connection successful' : 'Connection failed',
  };
}
