/** The provider calls of spec §7 and what the page reads from their answers. */
import type { ResendConfigStatus } from '@act/contracts/src/email-api';

export const RESEND_CONFIG = '/api/resend/config';
export const RESEND_TEST_CONNECTION = '/api/resend/test-connection';

export type { ResendConfigStatus };

const SOURCE_LABEL = { env: 'environment', stored: 'stored setting' } as const;

/** What the status card shows: never the key itself (the service never sends it), only where it comes from. */
export function configRows(status: ResendConfigStatus) {
  return {
    configured: Boolean(status.configured),
    apiKey: status.apiKeySource ? `Set (${SOURCE_LABEL[status.apiKeySource] ?? status.apiKeySource})` : 'Not set',
    from: status.from
      ? `${status.from}${status.fromSource ? ` (${SOURCE_LABEL[status.fromSource] ?? status.fromSource})` : ''}`
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
