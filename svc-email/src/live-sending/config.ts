import { envBool, envInt, identitySecret } from '@act/service-kit';
import type { ResendSettings } from '../providers/resend';
import { unsubscribeSecret } from '../unsubscribe/token';

/** Settings of the sending features (campaign sends, Resend, unsubscribe links); every one from the environment. */
export interface SendingConfig {
  /** EMAIL_LIVE_SENDING: campaign templates go out through Resend; off → a `would_send` log per reminder. */
  liveSending: boolean;
  /** EMAIL_DELAY_HOUR_MS: length of one hour of a template's delay_hours (tests shorten it). */
  delayHourMs: number;
  /**
   * REMINDER_DUE_SCAN_MS: how long each instance's due poller (reminders and campaign steps alike) waits after a look
   * that found less than a full round.
   */
  dueScanMs: number;
  /**
   * EMAIL_SEND_CONCURRENCY: steps one instance works at once, in bursts of up to 100 (a batch call's size); 300 keeps
   * a full batch waiting for each slot of the budget while the next bursts are read and written.
   */
  sendConcurrency: number;
  resend: ResendSettings;
  /** UNSUBSCRIBE_SECRET, else derived from IDENTITY_SECRET. */
  unsubscribeSecret: string;
  /** UNSUBSCRIBE_MAILTO: an address for the mailto: part of List-Unsubscribe; unset → https link only. */
  unsubscribeMailto: string | null;
  /** UNSUBSCRIBE_RATE_LIMIT: public unsubscribe calls per client address per minute. */
  unsubscribePerMinute: number;
  /**
   * RECOVERY_URL_FALLBACK: {{recoveryUrl}} when neither the funnel nor the integration has a link (unset: none; such
   * a step is skipped and logged).
   */
  recoveryUrlFallback: string | null;
}

function optional(name: string): string | null {
  const v = process.env[name];
  return v !== undefined && v.trim() !== '' ? v.trim() : null;
}

export function loadSendingConfig(): SendingConfig {
  return {
    liveSending: envBool('EMAIL_LIVE_SENDING', false),
    delayHourMs: envInt('EMAIL_DELAY_HOUR_MS', 3_600_000),
    dueScanMs: envInt('REMINDER_DUE_SCAN_MS', 250),
    sendConcurrency: envInt('EMAIL_SEND_CONCURRENCY', 300),
    resend: {
      envApiKey: optional('RESEND_API_KEY'),
      envFrom: optional('RESEND_FROM'),
      envWebhookSecret: optional('RESEND_WEBHOOK_SECRET'),
      baseUrl: optional('RESEND_BASE_URL'),
      timeoutMs: envInt('RESEND_TIMEOUT_MS', 15_000),
      // Well inside the sequence step's 5-minute lease, so no other instance takes the step over meanwhile.
      retryDeadlineMs: envInt('RESEND_RETRY_DEADLINE_MS', 120_000),
      backoff: { baseMs: envInt('RESEND_RETRY_BASE_MS', 500), maxMs: envInt('RESEND_RETRY_MAX_MS', 30_000) },
      maxPerSecond: envInt('RESEND_MAX_RPS', 5),
      batchLingerMs: envInt('RESEND_BATCH_LINGER_MS', 50),
    },
    unsubscribeSecret: unsubscribeSecret(optional('UNSUBSCRIBE_SECRET') ?? undefined, identitySecret()),
    unsubscribeMailto: optional('UNSUBSCRIBE_MAILTO'),
    unsubscribePerMinute: envInt('UNSUBSCRIBE_RATE_LIMIT', 30),
    recoveryUrlFallback: optional('RECOVERY_URL_FALLBACK'),
  };
}
