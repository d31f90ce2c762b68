import { env, envInt } from '@act/service-kit';
import { loadSendingConfig, type SendingConfig } from './live-sending/config';

/** svc-email's own settings (service-kit reads the shared ones: PORT, MONGODB_*, NATS_*, IDENTITY_SECRET...). */
export interface EmailConfig {
  /** Length of one "minute" of reminder delay. Tests set 1000 so a 1-minute delay lasts 1 s. */
  delayUnitMs: number;
  /** How often the in-process due ticker claims reminders that came due. */
  dueScanMs: number;
  /** Period of Agenda's `reminder-sweep` (the spec's sweep every minute). */
  sweepIntervalMs: number;
  /**
   * Agenda's polling period. Each poll locks the jobs due before the next one and runs them on time from memory, so a
   * long period costs no precision for jobs written ahead (all of ours); it only spares the jobs collection queries.
   */
  agendaProcessEveryMs: number;
  /** How long the webhook path may use its cached integrations before re-reading them. */
  integrationCacheMs: number;
  /**
   * Where "Send test delivery" posts its sample (WEBHOOK_TEST_BASE_URL, default PUBLIC_URL): the public origin, so
   * the sample passes the gateway like a sender's delivery. Set it when the service cannot reach PUBLIC_URL.
   */
  webhookTestBaseUrl: string | null;
  /** Part 2: Resend, live campaign sends, unsubscribe links (live-sending/config.ts). */
  sending: SendingConfig;
}

export function loadConfig(): EmailConfig {
  return {
    delayUnitMs: envInt('REMINDER_DELAY_UNIT_MS', 60_000),
    dueScanMs: envInt('REMINDER_DUE_SCAN_MS', 250),
    sweepIntervalMs: envInt('REMINDER_SWEEP_INTERVAL_MS', 60_000),
    agendaProcessEveryMs: envInt('AGENDA_PROCESS_EVERY_MS', 30_000),
    integrationCacheMs: envInt('INTEGRATION_CACHE_MS', 1_000),
    webhookTestBaseUrl: env('WEBHOOK_TEST_BASE_URL', '') || null,
    sending: loadSendingConfig(),
  };
}
