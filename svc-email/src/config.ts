import { bool, env, envInt, int, secretsKeySetting, senderSettings, serviceSettings, str, urls } from '@act/service-kit';
import { loadSendingConfig, type SendingConfig } from './live-sending/config';

/** svc-email's settings: the services' shared ones and its own (validated once at start by its entry). */
export const emailSettings = {
  ...serviceSettings,
  ...secretsKeySetting,
  ...senderSettings,
  EMAIL_PORT: int({ default: 4002, desc: 'port when PORT is unset' }),
  EMAIL_METRICS_PORT: int({ default: 0 }),
  REMINDER_DELAY_UNIT_MS: int({ default: 60_000, min: 1, desc: 'test-only' }),
  REMINDER_DUE_SCAN_MS: int({ default: 250, min: 1 }),
  INTEGRATION_CACHE_MS: int({ default: 1_000 }),
  WEBHOOK_TEST_BASE_URL: urls(['http', 'https'], { default: undefined }),
  EMAIL_LIVE_SENDING: bool({ default: false }),
  EMAIL_DELAY_HOUR_MS: int({ default: 3_600_000, min: 1, desc: 'test-only' }),
  EMAIL_CLOCK_OFFSET_MS: int({ default: 0, desc: 'test-only' }),
  EMAIL_SEND_CONCURRENCY: int({ default: 300, min: 1 }),
  RESEND_API_KEY: str({ default: undefined }),
  RESEND_FROM: str({ default: undefined }),
  RESEND_WEBHOOK_SECRET: str({ default: undefined }),
  RESEND_BASE_URL: urls(['http', 'https'], { default: undefined, desc: 'test-only' }),
  RESEND_TIMEOUT_MS: int({ default: 15_000, min: 1 }),
  RESEND_RETRY_DEADLINE_MS: int({ default: 120_000 }),
  RESEND_RETRY_BASE_MS: int({ default: 500, min: 1 }),
  RESEND_RETRY_MAX_MS: int({ default: 30_000, min: 1 }),
  RESEND_MAX_RPS: int({ default: 5, min: 1 }),
  RESEND_BATCH_LINGER_MS: int({ default: 50 }),
  UNSUBSCRIBE_SECRET: str({ default: undefined }),
  UNSUBSCRIBE_MAILTO: str({ default: undefined }),
  UNSUBSCRIBE_RATE_LIMIT: int({ default: 30, min: 1 }),
  RECOVERY_URL_FALLBACK: urls(['http', 'https'], { default: undefined }),
};
export const EMAIL_TEST_SWITCHES = ['REMINDER_DELAY_UNIT_MS', 'EMAIL_DELAY_HOUR_MS', 'EMAIL_CLOCK_OFFSET_MS', 'RESEND_BASE_URL'] as const;

/** svc-email's own settings (service-kit reads the shared ones: PORT, MONGODB_*, NATS_*, IDENTITY_SECRET...). */
export interface EmailConfig {
  /** Length of one "minute" of reminder delay. Tests set 1000 so a 1-minute delay lasts 1 s. */
  delayUnitMs: number;
  /** How long the webhook path may use its cached integrations before re-reading them. */
  integrationCacheMs: number;
  /**
   * Where "Send test delivery" posts its sample (WEBHOOK_TEST_BASE_URL, default PUBLIC_URL): the public origin, so
   * the sample passes the gateway like a sender's delivery. Set it when the service cannot reach PUBLIC_URL.
   */
  webhookTestBaseUrl: string | null;
  /** Sending: Resend, live campaign sends, unsubscribe links (live-sending/config.ts). */
  sending: SendingConfig;
}

export function loadConfig(): EmailConfig {
  return {
    delayUnitMs: envInt('REMINDER_DELAY_UNIT_MS', 60_000),
    integrationCacheMs: envInt('INTEGRATION_CACHE_MS', 1_000),
    webhookTestBaseUrl: env('WEBHOOK_TEST_BASE_URL', '') || null,
    sending: loadSendingConfig(),
  };
}
